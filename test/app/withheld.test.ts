/**
 * Issue 47 item 7: the patient app knows when an answer leaves something out (app/src/subsetted.ts): the
 * FHIR API marks such a Bundle with the `SUBSETTED` tag (docs/fhir-api.md), which the app read past.
 */
import { describe, expect, it } from 'vitest';
import { isSubsetted } from '../../app/src/subsetted.js';

describe('issue 47 item 7: an answer marked as filtered', () => {
  it('is the Bundle tagged SUBSETTED in the v3 ObservationValue system, and no other', () => {
    const tagged = (system: string, code: string) => ({ resourceType: 'Bundle', meta: { tag: [{ system, code }] } });
    expect(isSubsetted(tagged('http://terminology.hl7.org/CodeSystem/v3-ObservationValue', 'SUBSETTED'))).toBe(true);
    expect(isSubsetted(tagged('urn:other', 'SUBSETTED'))).toBe(false);
    expect(isSubsetted({ resourceType: 'Bundle' })).toBe(false);
  });
});

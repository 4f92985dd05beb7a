/**
 * Issue 55 item 3: a journal note's values. The service serves each value of a note as an
 * Observation contained in its Composition, named by a local reference (`#v1`,
 * src/reads/journal-notes/as-fhir-sections.ts); the app looked `#v1` up among the included
 * resources, found nothing, and showed "Hb" and "HbA1c" as empty headings.
 */
import { describe, expect, it } from 'vitest';
import { ById, type Composition, type Observation } from '../../app/src/fhir-types.js';
import { markText, valueText } from '../../app/src/values.js';

const hb: Observation = {
  resourceType: 'Observation', id: 'v1', status: 'unknown', code: { text: 'Hb' },
  valueQuantity: { value: 128, valueText: '128', unit: 'g/L' }, referenceRange: [{ text: '134-170' }],
};
const note: Composition = {
  resourceType: 'Composition', id: 'n1', contained: [hb],
  section: [{ title: 'Hb', entry: [{ reference: '#v1' }] }],
};

describe('issue 55 item 3: a note\'s values are found where the note holds them', () => {
  it('follows a local reference into the note\'s contained resources (failed before: nothing found)', () => {
    const byId = new ById([note]);
    const entry = byId.get<Observation>(note.section?.[0]?.entry?.[0], note);
    expect(entry).toBe(hb);
    // Shown as a lab value is: as written with its unit, marked low against its range.
    expect(entry === undefined ? undefined : [valueText(entry, 'sv'), markText(entry, 'en')]).toEqual(['128\u00a0g/L', 'Low']);
  });

  it('never takes a local reference outside its note: not another note\'s value, not an included resource of that id', () => {
    const other: Composition = { resourceType: 'Composition', id: 'n2', contained: [] };
    const included: Observation = { resourceType: 'Observation', id: 'v1' };
    const byId = new ById([note, other, included]);
    expect(byId.get({ reference: '#v1' }, other)).toBeUndefined();
    expect(byId.get({ reference: '#v1' })).toBeUndefined();
    expect(byId.get({ reference: 'Observation/v1' }, note)).toBe(included);
  });
});

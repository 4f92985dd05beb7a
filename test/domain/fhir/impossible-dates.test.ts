/**
 * Issue 45 item 14: one rule for an impossible date on both doors (docs/contract.md#reads). FHIR's date search
 * read `ge2025-02-30T10:00:00` as 2 March and `ge2025-04-31` as 1 May, answering 200 with every match,
 * where the COS door answers 400 for the same day. Failed before: `rangeOf` checked only day ≤ 31.
 */
import { describe, expect, it } from 'vitest';
import { dateComparison, rangeOf } from '../../../src/domain/fhir/fhir-dates.js';
import { filterParamToCompact } from '../../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';
/** Wall clocks as the COS door takes them; the FHIR door is given the same moment as a dateTime and (where whole) as a date. */
const IMPOSSIBLE = ['2025-02-30T10:00:00', '2025-04-31T00:00:00', '2023-02-29T00:00:00', '2025-13-01T00:00:00', '2025-00-10T00:00:00', '2025-06-31T23:59:59'];
const REAL = ['2024-02-29T10:00:00', '2025-04-30T00:00:00', '2025-12-31T23:59:59', '2025-02-28T00:00:00'];

describe('an impossible date: the same answer on both doors', () => {
  it.each(IMPOSSIBLE)('%s is refused by the COS filter and by FHIR date search, as a dateTime, with a zone, and as a date', (value) => {
    expect(filterParamToCompact(value)).toBeUndefined();
    for (const fhir of [value, `${value}Z`, `${value}+01:00`, value.slice(0, 10)]) {
      expect(rangeOf(fhir, ZONE), fhir).toBeUndefined();
      expect(() => dateComparison('date', `ge${fhir}`, ZONE), fhir).toThrow(/Search parameter date must be a real FHIR date or dateTime/);
    }
  });

  it.each(REAL)('%s is taken by both', (value) => {
    expect(filterParamToCompact(value)).toBe(value.replace(/[-T:]/g, ''));
    for (const fhir of [value, `${value}Z`, value.slice(0, 10)]) expect(rangeOf(fhir, ZONE), fhir).toBeDefined();
  });
});

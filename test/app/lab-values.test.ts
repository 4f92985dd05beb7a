/**
 * Issue 47 items 4 and 8: how the patient app writes a lab value (app/src/values.ts,
 * interpretation.ts, reference-range.ts, format.ts). The laboratory's `interpretation` was ignored:
 * a high or low value read like any other; a range kept the laboratory's decimal comma beside an
 * English value's point; a unit could wrap onto a line of its own; the access log showed minutes.
 */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../app/src/fhir-types.js';
import { dateOf, when } from '../../app/src/format.js';
import { markOf, otherInterpretation } from '../../app/src/interpretation.js';
import { rangeText } from '../../app/src/reference-range.js';
import { markText, valueText } from '../../app/src/values.js';

const V3 = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const result = (value: Observation['valueQuantity'], ...codes: string[]): Observation => ({
  resourceType: 'Observation', valueQuantity: value,
  ...(codes.length === 0 ? {} : { interpretation: [{ coding: codes.map((code) => ({ system: V3, code })) }] }),
});

describe('issue 47 item 4: the laboratory\'s mark of a value', () => {
  it('reads high, low and abnormal from the v3 codes, critical ones too, in words in both languages', () => {
    const cases: [string[], string | undefined, string | undefined][] = [
      [['H'], 'High', 'Högt'], [['L'], 'Low', 'Lågt'], [['A'], 'Abnormal', 'Avvikande'],
      [['HH'], 'Critically high', 'Kritiskt högt'], [['LL'], 'Critically low', 'Kritiskt lågt'], [['AA'], 'Critically abnormal', 'Kritiskt avvikande'],
      [['HU'], 'High', 'Högt'], [['N'], undefined, undefined], [[], undefined, undefined],
      // A direction says more than "abnormal", whichever comes first.
      [['A', 'L'], 'Low', 'Lågt'],
    ];
    for (const [codes, en, sv] of cases) {
      const o = result({ value: 1 }, ...codes);
      expect([codes, markText(o, 'en'), markText(o, 'sv')]).toEqual([codes, en, sv]);
    }
    expect(markOf(result({ value: 1 }, 'H'))).toEqual({ kind: 'high', critical: false });
  });

  it('shows an interpretation it has no mark for in the laboratory\'s own words, and a code of another system by its display', () => {
    expect(otherInterpretation({ resourceType: 'Observation', interpretation: [{ text: 'Svagt positiv' }] })).toBe('Svagt positiv');
    expect(otherInterpretation({ resourceType: 'Observation', interpretation: [{ coding: [{ system: 'urn:other', code: 'x', display: 'Gränsvärde' }] }] })).toBe('Gränsvärde');
    expect(otherInterpretation(result({ value: 1 }, 'N'))).toBeUndefined();
    expect(otherInterpretation(result({ value: 1 }, 'H'))).toBeUndefined();
  });
});

describe('issue 47 item 8: one way of writing a value in each language', () => {
  it('keeps the unit on the value\'s line (a no-break space), the comparator with the digits, and the unit off a plot\'s label', () => {
    expect(valueText(result({ value: 5.9, valueText: '5.9', unit: 'mmol/L' }), 'sv')).toBe('5,9\u00a0mmol/L');
    expect(valueText(result({ value: 5, comparator: '<', unit: 'mg/L' }), 'en')).toBe('<5\u00a0mg/L');
    expect(valueText(result({ value: 5, comparator: '<', unit: 'mg/L' }), 'en', false)).toBe('<5');
  });

  it('writes a range with the reader\'s decimal mark, as the value beside it, and any other text as written', () => {
    expect([rangeText('3,5–8,8', 'en'), rangeText('3,5–8,8', 'sv'), rangeText('0.5-0.8', 'sv')]).toEqual(['3.5–8.8', '3,5–8,8', '0,5-0,8']);
    expect([rangeText('<5,0', 'en'), rangeText('>1,0', 'en'), rangeText('134–170', 'en')]).toEqual(['<5.0', '>1.0', '134–170']);
    expect(rangeText('Negativ, 1,5 vid fasta', 'en')).toBe('Negativ, 1,5 vid fasta');
  });

  it('gives the access log its seconds, and a plot\'s axis the tables\' dates', () => {
    expect(when('2026-11-25T13:05:42+01:00', 'en', true)).toBe('25 Nov 2026, 13:05:42');
    expect(when('2026-11-25T13:05:42+01:00', 'sv', true)).toBe('25 nov. 2026 13:05:42');
    expect(when('2026-11-25T13:05:42+01:00', 'en')).toBe('25 Nov 2026, 13:05');
    expect([dateOf(Date.parse('2026-10-16T08:05:00+02:00'), 'en'), dateOf(Date.parse('2026-10-16T08:05:00+02:00'), 'sv')]).toEqual(['16 Oct 2026', '16 okt. 2026']);
  });
});


/**
 * Issue 55 item 1: high or low, not only "Abnormal" (app/src/direction.ts). The EHR sends a yes/no
 * flag (`A`) beside a range that says which way: 9 µg/L against 12–140 read "! Abnormal". Where the
 * value and the range show the way, the patient reads High or Low; "Abnormal" stays only where no
 * direction can be known, and the laboratory's own direction or "normal" is never overruled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { directionFrom, directionOf, valueMark } from '../../app/src/direction.js';
import type { Observation, ReferenceRange } from '../../app/src/fhir-types.js';
import { markText } from '../../app/src/values.js';
import { assertProperty } from '../support/seeds.js';

const V3 = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const result = (value: Observation['valueQuantity'], ranges: ReferenceRange[], ...codes: string[]): Observation => ({
  resourceType: 'Observation', valueQuantity: value, referenceRange: ranges,
  ...(codes.length === 0 ? {} : { interpretation: [{ coding: codes.map((code) => ({ system: V3, code })) }] }),
});
const words = (o: Observation) => [markText(o, 'en'), markText(o, 'sv')];

describe('issue 55 item 1: a flagged value says which way', () => {
  it('reads the demo data\'s "abnormal" ferritin, 9 µg/L against 12–140, as low (failed before: "Abnormal")', () => {
    expect(words(result({ value: 9, unit: 'µg/L' }, [{ text: '12–140' }], 'A'))).toEqual(['Low', 'Lågt']);
  });

  it('reads an abnormal 11.2 against 3,5–8,8 as high, and a critically abnormal one below as critically low', () => {
    expect(words(result({ value: 11.2 }, [{ text: '3,5–8,8' }], 'A'))).toEqual(['High', 'Högt']);
    expect(words(result({ value: 2 }, [{ low: { value: 3.5 }, high: { value: 8.8 } }], 'AA'))).toEqual(['Critically low', 'Kritiskt lågt']);
  });

  it('keeps "Abnormal" where no direction can be known: no range, inside it, on its bound, a range in words, another unit', () => {
    const abnormal = ['Abnormal', 'Avvikande'];
    expect(words(result({ value: 9 }, [], 'A'))).toEqual(abnormal);
    expect(words(result({ value: 50 }, [{ text: '12–140' }], 'A'))).toEqual(abnormal);
    // "<5" excludes 5, FHIR's `high` includes it: on the bound, the page does not guess.
    expect(words(result({ value: 5 }, [{ text: '<5' }], 'A'))).toEqual(abnormal);
    expect(words(result({ value: 9 }, [{ text: 'Negativ' }], 'A'))).toEqual(abnormal);
    expect(words(result({ value: 9, unit: 'mg/L' }, [{ low: { value: 12, unit: 'µg/L' } }], 'A'))).toEqual(abnormal);
  });

  it('says a direction only where every range (one per population) agrees', () => {
    expect(words(result({ value: 9 }, [{ text: '12–140' }, { text: '15–200' }], 'A'))).toEqual(['Low', 'Lågt']);
    expect(words(result({ value: 13 }, [{ text: '12–140' }, { text: '15–200' }], 'A'))).toEqual(['Abnormal', 'Avvikande']);
  });

  it('never overrules the laboratory: its direction stands, its "normal" stays unmarked, its own words stay', () => {
    expect(words(result({ value: 9 }, [{ text: '12–140' }], 'H'))).toEqual(['High', 'Högt']);
    expect(words(result({ value: 9 }, [{ text: '12–140' }], 'N'))).toEqual([undefined, undefined]);
    expect(markText({ ...result({ value: 9 }, [{ text: '12–140' }]), interpretation: [{ text: 'Svagt positiv' }] }, 'en')).toBe('Svagt positiv');
  });

  it('compares a value given no interpretation (a journal note\'s Hb 128 g/L, 134-170) with its range', () => {
    expect(words(result({ value: 128, unit: 'g/L' }, [{ text: '134-170' }]))).toEqual(['Low', 'Lågt']);
    expect(words(result({ value: 52, unit: 'mmol/mol' }, [{ text: '<53' }]))).toEqual([undefined, undefined]);
    expect(valueMark({ resourceType: 'Observation', valueString: 'E11.9', referenceRange: [{ text: '12–140' }] })).toBeUndefined();
  });

  it('knows a value given with a comparator only beyond a bound', () => {
    expect(directionFrom(5, '<', { low: 10, high: 20 })).toBe('low');
    expect(directionFrom(10, '<', { low: 10 })).toBe('low');
    expect(directionFrom(10, '<=', { low: 10 })).toBeUndefined();
    expect(directionFrom(5, '<', { low: 2, high: 8 })).toBeUndefined();
    expect(directionFrom(200, '>', { low: 10, high: 100 })).toBe('high');
    expect(directionFrom(50, '>', { low: 10, high: 100 })).toBeUndefined();
    expect(directionFrom(1, '>', { low: 10 })).toBeUndefined();
    expect(directionOf(result({ value: 5, comparator: '<' }, [{ text: '>10' }], 'A'))).toBe('low');
  });

  it('never calls a value inside its range high or low, nor a value known only from one side the other way', async () => {
    const bounds = fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }));
    await assertProperty(fc.property(bounds, fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(undefined, '<', '<=', '>', '>='),
      ([low, width], at, comparator) => {
        const high = low + width;
        const inside = low + width * at;
        expect(directionFrom(Math.min(Math.max(inside, low), high), undefined, { low, high })).toBeUndefined();
        const d = directionFrom(inside - 2 * width - 1, comparator, { low, high });
        if (comparator?.startsWith('>') === true) expect(d).not.toBe('low');
        if (comparator?.startsWith('<') === true) expect(d).not.toBe('high');
      }), { seeds: [55, 20261126], numRuns: 400 });
  });
});

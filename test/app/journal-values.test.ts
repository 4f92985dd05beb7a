/**
 * Issue 55 item 3: a journal note's values. The service serves each value of a note as an
 * Observation contained in its Composition, named by a local reference (`#v1`,
 * src/reads/journal-notes/as-fhir-sections.ts); the app looked `#v1` up among the included
 * resources, found nothing, and showed "Hb" and "HbA1c" as empty headings.
 */
import { describe, expect, it } from 'vitest';
import { ById, type Composition, type Observation } from '../../app/src/fhir-types.js';
import { hasValue, markText, rangeTexts, valueText } from '../../app/src/values.js';

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

// A value that is no decimal (`<5`, `5,4 (hemolys)`) comes from the API in FHIR's rendered-value alone,
// beside its unit (src/reads/as-fhir-datatypes.ts). The app read only `value`, so it showed the unit
// alone and lost the value; and it showed only the first of a value's ranges. Both failed before.
describe('a value as the EHR wrote it, and every range', () => {
  const RENDERED = 'http://hl7.org/fhir/StructureDefinition/rendered-value';
  const written = (text: string, unit?: string): Observation => ({
    resourceType: 'Observation', id: 'v2', code: { text: 'HbA1c' },
    valueQuantity: { _value: { extension: [{ url: RENDERED, valueString: text }] }, ...(unit === undefined ? {} : { unit }) },
  });

  it('shows a value given only as written text, with its unit', () => {
    expect(valueText(written('<5', 'mmol/mol'), 'en')).toBe('<5\u00a0mmol/mol');
    expect(valueText(written('5,4 (hemolys)'), 'sv')).toBe('5,4 (hemolys)');
    expect(hasValue(written('<5', 'mmol/mol'))).toBe(true);
    expect(hasValue({ resourceType: 'Observation', valueQuantity: { unit: 'mg' } })).toBe(false);
  });

  it('gives every range of a value, in order', () => {
    const o: Observation = { ...hb, referenceRange: [{ text: '117-153 (Kvinnor)' }, { text: '134-170 (Män)' }] };
    expect(rangeTexts(o)).toEqual(['117-153 (Kvinnor)', '134-170 (Män)']);
  });
});

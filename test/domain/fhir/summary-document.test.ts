/**
 * docs/fhir-api.md#patient-summary, the parts without HTTP: why an empty section is empty (withheld
 * when anything may have been left out, else nilknown; an optional one left out), and the references
 * of a document (what they reach is held, what may not be held is taken out of a copy, never dangling).
 */
import { describe, expect, it } from 'vitest';
import { withReferenced } from '../../../src/domain/fhir/document-references.js';
import { compositionSection, IPS_SECTIONS, type IpsSection } from '../../../src/domain/fhir/ips-sections.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';
import { fhirDecimal } from '../../../src/reads/as-fhir-datatypes.js';

function section(type: IpsSection['type']): IpsSection {
  const found = IPS_SECTIONS.find((s) => s.type === type);
  if (found === undefined) throw new Error(`no section of ${type}`);
  return found;
}
const none = (): undefined => undefined;
const condition: FhirResource = { resourceType: 'Condition', id: 'c1', code: { text: 'Astma <ospecificerad>' }, subject: { reference: 'Patient/p' } };

describe('a summary section', () => {
  it('without entries says why: withheld when something may have been left out, else nilknown, with its narrative', () => {
    const problems = section('Condition');
    expect(compositionSection(problems, { entries: [], withheld: true }, none)).toMatchObject({
      title: 'Problems', emptyReason: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason', code: 'withheld' }] },
    });
    const known = compositionSection(problems, { entries: [], withheld: false }, none);
    expect(known).toMatchObject({ emptyReason: { coding: [{ code: 'nilknown' }] }, text: { div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>No known problems.</p></div>' } });
    expect(known?.entry).toBeUndefined();
  });

  it('with entries has no emptyReason though some were withheld (FHIR cmp-2), and names each entry in the EHR\'s words, escaped', () => {
    const s = compositionSection(section('Condition'), { entries: [condition], withheld: true }, none);
    expect(s?.emptyReason).toBeUndefined();
    expect(s?.entry).toEqual([{ reference: 'Condition/c1' }]);
    expect((s?.text as { div: string }).div).toContain('<li>Astma &lt;ospecificerad&gt;</li>');
  });

  it('names a result\'s value as the record wrote it: its comparator, its digits (4.0, not 4), its unit, its date', () => {
    const result = (id: string, value: string, comparator?: string): FhirResource => ({
      resourceType: 'Observation', id, code: { text: 'P-CRP' }, effectiveDateTime: '2026-10-25T02:20:00+02:00',
      valueQuantity: { value: fhirDecimal(value), ...(comparator === undefined ? {} : { comparator }), unit: 'mg/L' },
    });
    const s = compositionSection(section('Observation'), { entries: [result('o1', '5', '<'), result('o2', '4.0'), result('o3', '5.10', '>=')], withheld: false }, none);
    expect((s?.text as { div: string }).div).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><ul>'
      + '<li>P-CRP: &lt;5 mg/L (2026-10-25)</li><li>P-CRP: 4.0 mg/L (2026-10-25)</li><li>P-CRP: &gt;=5.10 mg/L (2026-10-25)</li></ul></div>');
  });

  it('Results, not required, is left out without entries, whatever the reason', () => {
    expect(compositionSection(section('Observation'), { entries: [], withheld: true }, none)).toBeUndefined();
    expect(compositionSection(section('Observation'), { entries: [], withheld: false }, none)).toBeUndefined();
  });
});

describe('the references of a document', () => {
  const role: FhirResource = { resourceType: 'PractitionerRole', id: 'r', practitioner: { reference: 'Practitioner/d' } };
  const doctor: FhirResource = { resourceType: 'Practitioner', id: 'd' };
  const visit: FhirResource = { resourceType: 'Encounter', id: 'e' };
  const request: FhirResource = {
    resourceType: 'MedicationRequest', id: 'm', subject: { reference: 'Patient/p' }, requester: { reference: 'PractitionerRole/r' },
    encounter: { reference: 'Encounter/e', display: 'Besök' }, reasonReference: [{ reference: 'Condition/withheld' }], medicationReference: { reference: '#product' },
  };
  const patient: FhirResource = { resourceType: 'Patient', id: 'p' };

  it('holds what the entries reach, in turn, each once; takes out of a copy what may not be held or was not read', () => {
    const held = withReferenced([patient, request], [patient, request, role, doctor, visit, condition], (r) => r.resourceType !== 'Encounter');
    expect(held.map((r) => `${r.resourceType}/${r.id}`)).toEqual(['Patient/p', 'MedicationRequest/m', 'PractitionerRole/r', 'Practitioner/d']);
    expect(held[1]).toEqual({
      resourceType: 'MedicationRequest', id: 'm', subject: { reference: 'Patient/p' }, requester: { reference: 'PractitionerRole/r' },
      encounter: { display: 'Besök' }, medicationReference: { reference: '#product' },
    });
    // The resource read is never changed: the copy is the document's own.
    expect(request.encounter).toEqual({ reference: 'Encounter/e', display: 'Besök' });
    expect(held[2]).toBe(role);
  });
});

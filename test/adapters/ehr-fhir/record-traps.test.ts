/** The traps of the FHIR contract for care contacts, attention signals, medications and journal notes (operations 6, 7, 9, 10). */
import { describe, expect, it } from 'vitest';
import { mapAttentionSignals } from '../../../src/reads/attention-signals/fhir.js';
import { mapCareContacts } from '../../../src/reads/care-contacts/fhir.js';
import { parseFhirJson } from '../../../src/adapters/ehr-fhir/fhir-json.js';
import { mapJournalNotes } from '../../../src/reads/journal-notes/fhir.js';
import { mapMedications } from '../../../src/reads/medications/fhir.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { changed, demoResources, mapContext, readInput, type RawResource } from './support/demo-bundle.js';

const contacts = (resources?: RawResource[]) => mapCareContacts(readInput(['Encounter'], { resources }), mapContext())[0]?.contactEHRExtract ?? [];
const signals = (resources?: RawResource[]) =>
  mapAttentionSignals(readInput(['AllergyIntolerance', 'Flag'], { resources }), mapContext())[0]?.AttentionSignalEHRExtract ?? [];
const prescriptions = (resources?: RawResource[]) => mapMedications(readInput(['MedicationRequest'], { resources }), mapContext())[0]?.PrescriptionEHRExtract ?? [];
const notes = (resources?: RawResource[], without?: string[]) =>
  mapJournalNotes(readInput(['Composition'], { resources, without }), mapContext())[0]?.JournalNoteEHRExtract ?? [];

/** `resources` with one more resource, read from JSON text as the adapter reads an answer (decimals as written). */
const plus = (json: string, resources = demoResources()): RawResource[] => [...resources, parseFhirJson(json) as RawResource];

describe('entered-in-error is never answered', () => {
  it.each([
    ['a care contact', () => contacts(changed('Encounter/enc-0001', (r) => { r.status = 'entered-in-error'; })).length, 1],
    ['a Flag', () => signals(changed('Flag/flag-mrsa', (r) => { r.status = 'entered-in-error'; })).length, 1],
    ['an allergy whose verification says so', () => signals(changed('AllergyIntolerance/allergy-penicillin', (r) => {
      r.verificationStatus = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'entered-in-error' }] };
    })).length, 1],
    ['a prescription', () => prescriptions(changed('MedicationRequest/mr-0002', (r) => { r.status = 'entered-in-error'; })).length, 1],
    ['a journal note', () => notes(changed('Composition/comp-0002', (r) => { r.status = 'entered-in-error'; })).length, 1],
  ])('%s', (_, count, left) => {
    expect(count()).toBe(left);
  });
});

describe('a patient with no prescription or no note', () => {
  // The legacy EHR answers such a patient with an empty root, an empty answer: not one record holding nothing.
  const without = (type: string) => demoResources().filter((r) => r.resourceType !== type);
  it.each([
    ['medications', () => mapMedications(readInput(['MedicationRequest'], { resources: without('MedicationRequest') }), mapContext())],
    ['journal notes', () => mapJournalNotes(readInput(['Composition'], { resources: without('Composition') }), mapContext())],
  ])('has an empty answer of %s', (_, answer) => {
    expect(answer()).toEqual([]);
  });
});

describe('FHIR care contacts', () => {
  it('answers a cancelled contact as inactive, the room and bed by physical type, and the security labels as sent', () => {
    const resources = changed('Encounter/enc-0002', (r) => {
      r.status = 'cancelled';
      r.meta = { ...(r.meta as object), security: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }] };
      r.location = [{ location: { reference: 'Location/loc-vc-tolvstad' }, physicalType: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/location-physical-type', code: 'ro' }] } }];
    });
    const contact = contacts(resources)[1]?.contact;
    expect(contact).toMatchObject({ contactStatus: 'cancelled', contactActive: false, contactRoom: 'Vårdcentralen Tolvstad, entré A' });
    expect(contact?.contactBed).toBeUndefined();
    expect(contact?.contactSecrecyLevels.secrecyLevel).toEqual(['R']);
  });

  it('begins the admission at the first 02:30 of the autumn night, and discharges it', () => {
    expect(contacts()[1]?.contact).toMatchObject({
      contactBeginDateTime: { value: '20241027023000' }, discharge: { dischargeDestination: 'Hem', dischargeDateTime: { value: '20241029110000' } },
    });
  });
});

describe('FHIR attention signals', () => {
  it('answers a Flag without a kind as Unstructured, and an inactive one with its deletion date', () => {
    const resources = changed('Flag/flag-mrsa', (r) => { delete r.category; r.status = 'inactive'; r.period = { start: '2024-10-27T09:12:44+01:00', end: '2025-01-10' }; });
    expect(signals(resources)[1]?.AttentionSignal).toMatchObject({
      SignalDataType: 'Unstructured', SignalActive: false, SignalDeletionDate: { value: '20250110' }, UnstructuredType: { Heading: 'MRSA', Valid: false },
    });
  });

  it('refuses a Flag of a kind this service does not know', () => {
    const resources = changed('Flag/flag-mrsa', (r) => { ((r.category as { coding: { code: string }[] }[])[0]!.coding[0]!).code = 'Something'; });
    expect(() => signals(resources)).toThrow(EhrError);
  });

  it('answers a refuted allergy as inactive', () => {
    const resources = changed('AllergyIntolerance/allergy-penicillin', (r) => { r.verificationStatus = { coding: [{ code: 'refuted' }] }; });
    expect(signals(resources)[0]?.AttentionSignal).toMatchObject({ SignalActive: false, HypersensitivityType: { Certitude: 'refuted' } });
  });
});

describe('FHIR allergy reactions (M4)', () => {
  it('answers every reaction\'s description, a line each, every manifestation, and the reactions\' notes after the allergy\'s', () => {
    const resources = changed('AllergyIntolerance/allergy-penicillin', (r) => {
      r.note = [{ text: 'Allergins anteckning.' }];
      r.reaction = [
        { description: 'Anafylaxi', manifestation: [{ text: 'Anafylaxi' }], note: [{ text: 'Adrenalin gavs.' }] },
        { description: 'Utslag dag 3', manifestation: [{ text: 'Urtikaria' }], note: [{ text: 'Ej farligt.' }] },
      ];
    });
    expect(signals(resources)[0]?.AttentionSignal?.HypersensitivityType).toMatchObject({
      Reaction: 'Anafylaxi\nUtslag dag 3', ReactionTypes: ['Anafylaxi', 'Urtikaria'], Comment: 'Allergins anteckning.\nAdrenalin gavs.\nEj farligt.',
    });
  });
});

describe('FHIR medications', () => {
  it('copies strengths and doses as written, and reads a contained Medication', () => {
    const resources = plus(`{"resourceType": "MedicationRequest", "id": "mr-0003", "status": "active", "intent": "order",
      "contained": [{"resourceType": "Medication", "id": "m", "code": {"text": "Alvedon"}, "ingredient": [{"strength": {"numerator": {"value": 2.50, "unit": "mg"}}}]}],
      "medicationReference": {"reference": "#m"}, "subject": {"reference": "Patient/pat-tolvan"}, "authoredOn": "2025-03-04T10:00:00+01:00",
      "dosageInstruction": [{"timing": {"repeat": {"boundsPeriod": {"start": "2025-03-04"}, "period": 0.5, "timeOfDay": ["08:00:00"]}},
        "doseAndRate": [{"doseRange": {"low": {"value": 0.50, "unit": "st"}, "high": {"value": 1.0, "unit": "st"}}}]}]}`);
    const prescription = prescriptions(resources)[2]?.Prescription;
    expect(prescription?.MainProductTreatment).toEqual({
      PrescriptionProductTradeName: 'Alvedon', PrescriptionProductStrengthNumeric: '2.50', PrescriptionProductStrengthNumericUnit: 'mg',
    });
    const dosage = prescription?.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage;
    expect(dosage?.RepetitionLength).toBeUndefined();
    expect(dosage?.DoseInstance).toEqual([{ DoseOrder: 1, DoseTime: { value: '20250304080000' }, MinQty: '0.50', MaxQty: '1.0', Type: 'st' }]);
  });

  it('answers the stopped prescription by its status, and the product of its CodeableConcept', () => {
    expect(prescriptions()[1]?.Prescription).toMatchObject({
      MedicationActive: false, MedicationTreatmentStatusDetail: { TreatmentStatus: 'stopped' },
      MainProductTreatment: { PrescriptionProductTradeName: 'Waran', PrescriptionProduct_AtcCode: { codeSystem: '2.16.840.1.113883.6.73', displayName: { value: 'B01AA03 Warfarin' } } },
    });
  });
});

describe('FHIR journal notes', () => {
  it('copies a numeric entry as written', () => {
    const resources = plus('{"resourceType": "Observation", "id": "obs-crp-poc", "status": "final", "code": {"text": "CRP"}, "subject": {"reference": "Patient/pat-tolvan"}, "valueQuantity": {"value": 4.0, "unit": "mg/L"}}',
      demoResources().filter((r) => r.id !== 'obs-crp-poc'));
    expect(notes(resources)[0]?.Note?.Records.Record[2]?.Value).toEqual([{ JournalValueType: 'Numeric', $self: '4.0' }]);
  });

  // Hostile review helper-216, F1, F2: a comparator, a unit given as a code, a bounds-only range, a score, a coded
  // answer and a blood pressure's components were left out of a note's values. Failed before.
  it.each([
    ['a comparator', '"valueQuantity": {"comparator": "<", "value": 5, "unit": "mmol/mol"}', [['Numeric', '<5']], ['mmol/mol'], []],
    ['a unit by its code, a range by its bounds', '"valueQuantity": {"value": 128, "system": "http://unitsofmeasure.org", "code": "g/L"}, '
      + '"referenceRange": [{"low": {"value": 134, "unit": "g/L"}, "high": {"value": 170, "unit": "g/L"}}, {"text": "barn: 110–140"}]', [['Numeric', '128']], ['g/L'], ['134–170 g/L', 'barn: 110–140']],
    ['a score', '"valueInteger": 7', [['Numeric', '7']], [], []],
    ['a coded answer', '"valueCodeableConcept": {"text": "Positiv"}', [['Text', 'Positiv']], [], []],
    ['a blood pressure', '"component": [{"code": {"text": "Systoliskt"}, "valueQuantity": {"value": 128, "unit": "mmHg"}}, '
      + '{"code": {"text": "Diastoliskt"}, "valueQuantity": {"value": 84, "unit": "mmHg"}}]', [['Numeric', '128'], ['Numeric', '84']], ['mmHg', 'mmHg'], []],
  ])('keeps %s of a note\'s entry', (_, value, values, units, ranges) => {
    const resources = plus(`{"resourceType": "Observation", "id": "obs-crp-poc", "status": "final", "code": {"text": "CRP"}, "subject": {"reference": "Patient/pat-tolvan"}, ${value}}`,
      demoResources().filter((r) => r.id !== 'obs-crp-poc'));
    const record = notes(resources)[0]?.Note?.Records.Record[2];
    expect([record?.Value.map((v) => [v.JournalValueType, v.$self]), record?.Unit, record?.Range]).toEqual([values, units, ranges]);
  });

  // Hostile review helper-217, F2, F3: components with no value or ranges of their own are refused. Failed before.
  // (F1, entries whose units or ranges the door would pair with other values: note-pairing.test.ts.)
  it.each([
    ['a component of no value', ['"component": [{"code": {"text": "S"}, "valueQuantity": {"value": 120, "unit": "mmHg"}}, {"code": {"text": "D"}, "dataAbsentReason": {"text": "?"}}]']],
    ['a component with ranges of its own', ['"component": [{"code": {"text": "S"}, "valueQuantity": {"value": 120, "unit": "mmHg"}, "referenceRange": [{"text": "<140"}]}]']],
  ])('refuses a section of %s', (_, values) => {
    const entries = values.map((value, i) => `{"resourceType": "Observation", "id": "obs-x${i}", "status": "final", "code": {"text": "X"}, "subject": {"reference": "Patient/pat-tolvan"}, ${value}}`);
    const resources = changed('Composition/comp-0002', (r) => {
      r.section = [{ title: 'Prov', entry: values.map((_v, i) => ({ reference: `Observation/obs-x${i}` })) }];
    });
    expect(() => notes(entries.reduce((all, json) => plus(json, all), resources))).toThrow(/FHIR answer refused/);
  });

  it('refuses a note\'s entry of a value it has no text for', () => {
    const resources = plus('{"resourceType": "Observation", "id": "obs-crp-poc", "status": "final", "code": {"text": "Titer"}, "subject": {"reference": "Patient/pat-tolvan"}, '
      + '"valueRatio": {"numerator": {"value": 1}, "denominator": {"value": 64}}}', demoResources().filter((r) => r.id !== 'obs-crp-poc'));
    expect(() => notes(resources)).toThrow(/FHIR answer refused: an Observation valueRatio/);
  });

  it('nests a section\'s first subsection and lets the others follow it as siblings', () => {
    const resources = changed('Composition/comp-0002', (r) => {
      r.section = [{ title: 'A', section: [{ title: 'A1', section: [{ title: 'A1a' }, { title: 'A1b' }] }, { title: 'A2' }] }, { title: 'B' }];
    });
    const records = notes(resources)[1]?.Note?.Records.Record ?? [];
    expect(records.map((r) => [r.Keyword, r.Record?.Keyword, r.Record?.Record?.Keyword])).toEqual([
      ['A', 'A1', 'A1a'], ['A1b', undefined, undefined], ['A2', undefined, undefined], ['B', undefined, undefined],
    ]);
  });

  it('signs a note by a professional attester when no legal one is there, and never a preliminary one', () => {
    const professional = changed('Composition/comp-0001', (r) => { (r.attester as { mode: string }[])[0]!.mode = 'professional'; });
    expect(notes(professional)[0]?.Note?.NoteSignDateTime).toEqual({ value: '20250303103012' });
    const preliminary = changed('Composition/comp-0001', (r) => { r.status = 'preliminary'; });
    expect(notes(preliminary)[0]?.Note?.NoteSignDateTime).toBeUndefined();
  });

  it('leaves out what an include that is not at hand would fill, and nothing else', () => {
    const extract = notes(undefined, ['Organization/org-region', 'Observation/obs-crp-poc'])[0];
    expect(extract?.HeadCareproviderUnit).toBeUndefined();
    expect(extract?.CareUnit).toEqual({ UnitID: { root: '1.2.752.129.2.1.4.1', extension: 'SE2321000016-7P4K' } });
    expect(extract?.Note?.Records.Record[2]).toMatchObject({ Keyword: 'CRP', Value: [], Unit: [], Range: [] });
  });
});

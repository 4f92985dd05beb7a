/**
 * getMedications as FHIR: the demo people's prescriptions come back exactly (describeFhirForm), and
 * what the demo does not hold: a strength or a dose whose digits JavaScript would drop, legacy
 * statuses and decimal commas, a product without an NPL id, and a 14-digit time in winter and summer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFhirJson } from '../../adapters/ehr-fhir/fhir-json.js';
import type { PrescriptionExtract, PrescriptionRecord } from '../../domain/records/index.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, recordsOverFhir, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import type { FhirResource } from '../as-fhir.js';
import { medicationsAsFhir } from './as-fhir.js';

describeFhirForm('getMedications', []);

describe('getMedications as FHIR, beyond the demo', () => {
  let person: DemoPerson;
  let record: PrescriptionRecord;
  beforeAll(async () => {
    const found = (await recordsOverFhir('getMedications')).find((p) => p.records.length > 0);
    if (found === undefined) throw new Error('no demo prescriptions');
    ({ person } = found);
    record = found.records[0] as PrescriptionRecord;
  }, 60_000);

  /** The first extract changed by `edit`, written as FHIR and sent through JSON as the API sends it. */
  const written = (edit: (e: PrescriptionExtract) => void): { json: string; resources: FhirResource[] } => {
    const changed = structuredClone(record);
    changed.PrescriptionEHRExtract = changed.PrescriptionEHRExtract.slice(0, 1);
    edit(changed.PrescriptionEHRExtract[0] as PrescriptionExtract);
    const json = JSON.stringify(medicationsAsFhir.resources([changed], asFhirContext(person)));
    return { json, resources: parseFhirJson(json) as FhirResource[] };
  };
  const back = (resources: FhirResource[]): PrescriptionExtract => {
    const [answer] = readBack('getMedications', person, resources);
    return answer?.PrescriptionEHRExtract[0] as PrescriptionExtract;
  };
  const request = (resources: FhirResource[]) => resources.find((r) => r.resourceType === 'MedicationRequest') as Record<string, unknown>;
  const prescription = (e: PrescriptionExtract) => e.Prescription as NonNullable<PrescriptionExtract['Prescription']>;

  it('writes a strength and a dose as written: 4.0 stays 4.0, 0.50 stays 0.50', () => {
    const { json, resources } = written((e) => {
      const p = prescription(e);
      (p.MainProductTreatment as { PrescriptionProductStrengthNumeric?: string }).PrescriptionProductStrengthNumeric = '4.0';
      const dosage = p.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage;
      if (dosage === undefined) throw new Error('a demo prescription without a dosage');
      dosage.DoseStart = { StartDate: { value: '20260301000000' } };
      dosage.DoseInstance = [{ DoseOrder: 1, DoseTime: { value: '20260301080000' }, MinQty: '0.50', MaxQty: '0.50', Type: 'ml' }];
    });
    expect(json).toContain('"numerator":{"value":4.0,"unit"');
    expect(json).toContain('"doseQuantity":{"value":0.50,"unit":"ml"}');
    expect(structureProblems(resources)).toEqual([]);
    const p = prescription(back(resources));
    expect(p.MainProductTreatment?.PrescriptionProductStrengthNumeric).toBe('4.0');
    expect(p.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage?.DoseInstance[0]).toMatchObject({ MinQty: '0.50', MaxQty: '0.50', Type: 'ml' });
  });

  // Failed before (the strength was left out): the chain test (test/e2e/fhir-chain.e2e.test.ts) lost the legacy `2,5`.
  // Issue 52 item 19b: and its text comes back as written. Failed before: `2.5`, and a dose of `0,5` was left out.
  it('writes a strength and a dose with a legacy decimal comma with a point and the text in rendered-value: 2,5 comes back 2,5', () => {
    const { json, resources } = written((e) => {
      (prescription(e).MainProductTreatment as { PrescriptionProductStrengthNumeric?: string }).PrescriptionProductStrengthNumeric = '2,5';
      const dosage = prescription(e).PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage;
      if (dosage === undefined) throw new Error('a demo prescription without a dosage');
      dosage.DoseStart = { StartDate: { value: '20260301000000' } };
      dosage.DoseInstance = [{ DoseOrder: 1, DoseTime: { value: '20260301080000' }, MinQty: '0,5', MaxQty: '0,5', Type: 'ml' }];
    });
    expect(json).toContain('"numerator":{"value":2.5,"_value":{"extension":[{"url":"http://hl7.org/fhir/StructureDefinition/rendered-value","valueString":"2,5"}]},"unit"');
    const p = prescription(back(resources));
    expect(p.MainProductTreatment?.PrescriptionProductStrengthNumeric).toBe('2,5');
    expect(p.MainProductTreatment?.PrescriptionProductStrengthNumericUnit).toBeDefined();
    expect(p.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage?.DoseInstance[0]).toMatchObject({ MinQty: '0,5', MaxQty: '0,5' });
  });

  // Hostile review helper-213, H4: a strength or dose that is no decimal was written as a Quantity of a unit and no value. Failed before.
  it.each(['160/4,5', '100 000', '0,5-1', '.5', '½'])('writes a strength and a dose of %s as their text in rendered-value, and reads them back as written', (text) => {
    const { json, resources } = written((e) => {
      (prescription(e).MainProductTreatment as { PrescriptionProductStrengthNumeric?: string }).PrescriptionProductStrengthNumeric = text;
      const dosage = prescription(e).PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage;
      if (dosage === undefined) throw new Error('a demo prescription without a dosage');
      dosage.DoseStart = { StartDate: { value: '20260301000000' } };
      dosage.DoseInstance = [{ DoseOrder: 1, DoseTime: { value: '20260301080000' }, MinQty: text, MaxQty: text, Type: 'ml' }];
    });
    expect(json).toContain(`"numerator":{"_value":{"extension":[{"url":"http://hl7.org/fhir/StructureDefinition/rendered-value","valueString":${JSON.stringify(text)}}]},"unit"`);
    expect(structureProblems(resources)).toEqual([]);
    const p = prescription(back(resources));
    expect(p.MainProductTreatment?.PrescriptionProductStrengthNumeric).toBe(text);
    expect(p.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage?.DoseInstance[0]).toMatchObject({ MinQty: text, MaxQty: text, Type: 'ml' });
  });

  it('writes legacy statuses as the codes FHIR gives the same treatment, an unknown word as `unknown` with its text', () => {
    const statusOf = (word: string, active: boolean) => request(written((e) => {
      prescription(e).MedicationTreatmentStatusDetail = { TreatmentStatus: word };
      prescription(e).MedicationActive = active;
    }).resources);
    expect(statusOf('ACTIVE', true).status).toBe('active');
    expect(statusOf('INVALIDATED', false).status).toBe('stopped');
    expect(statusOf('Pausad', false)).toMatchObject({ status: 'unknown', statusReason: { text: 'Pausad' } });
  });

  it('contains a product without an NPL id, and one the answer already holds with other facts', () => {
    const { resources } = written((e) => {
      delete (prescription(e).MainProductTreatment as { PrescriptionProductNplID?: unknown }).PrescriptionProductNplID;
    });
    expect(request(resources).medicationReference).toEqual({ reference: '#product' });
    expect(resources.filter((r) => r.resourceType === 'Medication')).toEqual([]);
    expect(structureProblems(resources)).toEqual([]);

    const twice = structuredClone(record);
    const [first] = twice.PrescriptionEHRExtract as [PrescriptionExtract];
    const other = structuredClone(first);
    other.ehr_id = { ...other.ehr_id, extension: `${other.ehr_id.extension}-2` };
    (prescription(other).MainProductTreatment as { PrescriptionProductDrugFormTextSv?: string }).PrescriptionProductDrugFormTextSv = 'Brustablett';
    twice.PrescriptionEHRExtract = [first, other];
    const both = medicationsAsFhir.resources([twice], asFhirContext(person));
    expect(both.filter((r) => r.resourceType === 'Medication')).toHaveLength(1);
    const [, again] = readBack('getMedications', person, both)[0]?.PrescriptionEHRExtract ?? [];
    expect(again?.Prescription?.MainProductTreatment?.PrescriptionProductDrugFormTextSv).toBe('Brustablett');
  });

  it('writes a 14-digit time as an instant with the offset of its season', () => {
    const authored = (value: string) => request(written((e) => { e.time_created = { value }; }).resources).authoredOn;
    expect(authored('20260115093000')).toBe('2026-01-15T09:30:00+01:00');
    expect(authored('20260715093000')).toBe('2026-07-15T09:30:00+02:00');
  });
});

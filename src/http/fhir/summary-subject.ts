/**
 * The subject of a patient summary for a caller whose access reaches no read of the Patient: a proxy
 * whose grant leaves out the `Patient` category (docs/proxies.md#what-a-grant-opens). The document
 * still needs its Patient (IPS: Composition.subject), so it holds only what the grant itself told the
 * grantee: whose record it is (the identity number) and their name as the grant shows it, one text
 * (patientDisplayName, as personFacts gives the grant). Nothing else of the Patient (no address, phone,
 * e-mail, birth date, sex or managing unit, nor the name's parts: a middle name, a second given name,
 * a family name's origin), which would be the `Patient` category's.
 */
import { isProtectedIdentity, patientDisplayName, type PatientRecord } from '../../domain/records/index.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import type { FhirApi } from './fhir-api.js';
import { asFhirContext } from './patient-records.js';
import type { WrittenForms } from './written-forms.js';

interface Identifier { value?: unknown }

/**
 * The Patient `patient`'s access was decided on (PatientAccess.patientRecords, the document the
 * patient read answers), written as the patient read writes it, less everything but `id` and the
 * identifier of the number the grant names, with the name the grant shows.
 */
export function knownSubject(api: FhirApi, written: WrittenForms, zone: string, patient: string, records: PatientRecord[]): FhirResource | undefined {
  const form = api.forms.getPatient;
  if (form === undefined) return undefined;
  const full = written.resources('getPatient', form, records, asFhirContext(api, zone, patient, isProtectedIdentity(records, patient)), patient).find((r) => r.resourceType === 'Patient');
  if (full === undefined) return undefined;
  // Another number the record lists (a former coordination number) is not one the grant told.
  const identifier = (full.identifier as Identifier[] | undefined)?.filter((i) => i.value === patient) ?? [];
  const name = patientDisplayName(records, patient);
  // FHIR has no empty elements: one the record lacks is left out.
  return {
    resourceType: 'Patient', id: full.id,
    ...(identifier.length === 0 ? {} : { identifier }), ...(name === '' ? {} : { name: [{ text: name }] }),
  };
}

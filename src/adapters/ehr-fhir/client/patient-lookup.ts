/**
 * How the patient is found (docs/upstream-fhir.md#2-how-the-patient-is-found): one search by the
 * four accepted forms of the identity number, records merged into another (`replaced-by`) left out;
 * none is an unknown patient, more than one an ambiguous identity that must be fixed in the EHR,
 * never guessed at. The one found must carry the number asked for. Never cached past one port call.
 */
import { EhrError } from '../../../domain/ehr-error.js';
import { fhirFault } from '../fault.js';
import { personNumberForms, personNumberKindOf } from '../identifiers.js';
import { checkedResource } from '../schemas/index.js';
import type { Patient } from '../schemas/parties.js';
import type { FhirClient } from './fhir-client.js';
import type { SearchParams } from './search-url.js';

/** The contract's count for the lookup: a patient is one match, a duplicate registration two. */
const LOOKUP_COUNT = 10;

export const patientLookupParams = (number: string): SearchParams => [['identifier', personNumberForms(number).join(',')]];

export async function findPatient(client: FhirClient, number: string, signal?: AbortSignal): Promise<Patient> {
  const { matches } = await client.search('Patient', patientLookupParams(number), { count: LOOKUP_COUNT, signal });
  const current = matches.map((m) => checkedResource('Patient', m)).filter((p) => !(p.link ?? []).some((l) => l.type === 'replaced-by'));
  if (current.length === 0) throw new EhrError('patient-not-found', 'unknown patient');
  // Logged as such by the adapter, never with the number.
  if (current.length > 1) throw fhirFault('ambiguous patient identity');
  const patient = current[0] as Patient;
  if (!(patient.identifier ?? []).some((i) => i.value === number && personNumberKindOf(i.system) !== undefined)) {
    throw fhirFault('the Patient found does not carry the number asked for');
  }
  return patient;
}

/**
 * How the patient is found (docs/upstream-fhir.md#2-how-the-patient-is-found): one search by the
 * four accepted forms of the identity number, records merged into another (`replaced-by`) left out;
 * none is an unknown patient, more than one an ambiguous identity that must be fixed in the EHR,
 * never guessed at. The one found must carry the number asked for. Made once per port call, or
 * once per API request through the request's view of the EHR (`lookupOnce`), and never kept past it.
 */
import { EhrError } from '../../../domain/ehr-error.js';
import { fhirFault } from '../fault.js';
import { personNumberForms } from '../identifiers.js';
import { personNumberKindOf } from '../../../domain/identity/person-number-systems.js';
import { checkedResource } from '../schemas/index.js';
import type { Patient } from '../../../domain/fhir/resources/parties.js';
import type { FhirClient } from './fhir-client.js';
import type { SearchParams } from './search-url.js';

/** The contract's count for the lookup: a patient is one match, a duplicate registration two. */
const LOOKUP_COUNT = 10;

export const patientLookupParams = (number: string): SearchParams => [['identifier', personNumberForms(number).join(',')]];

/** How a port call finds the patient of an identity number (within `signal`, the call's deadline). */
export type PatientLookup = (number: string, signal?: AbortSignal) => Promise<Patient>;

/**
 * `lookup` made once per number for one API request (docs/upstream-fhir.md#one-lookup-per-request):
 * the Patient the first call found (or its failure) is the one every later call of the request is
 * about, so an EHR that answers the lookup differently from one call to the next (in the middle of
 * a merge) cannot hand one patient's records to another's request. Held by the request's view only.
 */
export function lookupOnce(lookup: PatientLookup): PatientLookup {
  const found = new Map<string, Promise<Patient>>();
  return (number, signal) => {
    let patient = found.get(number);
    if (patient === undefined) {
      patient = lookup(number, signal);
      found.set(number, patient);
    }
    return patient;
  };
}

/** The lookup of `o`: the one its request made, else a search of each call's own. */
export const lookupOf = (o: { client: FhirClient; lookup?: PatientLookup }): PatientLookup =>
  o.lookup ?? ((number, signal) => findPatient(o.client, number, signal));

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

/**
 * Which patient(s) a FHIR request is about (docs/fhir-api.md#search): the `patient` parameter,
 * a Patient search's `identifier` or `_id`, else the token's launch patient; a client token must
 * name one. A Patient id this service's key did not make is refused as any patient one may not
 * act for, so nobody can probe which ids exist.
 */
import type { FastifyRequest } from 'fastify';
import { grantsFor, type Grant, type ScopeContext } from '../../domain/fhir/smart-scopes.js';
import { numberKindMismatch, personNumberKindOf } from '../../domain/identity/person-number-systems.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { ApiError } from '../api-error.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { launchPatientOf } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';
import type { TokenValue } from '../../domain/fhir/resource-search.js';
import type { FhirSearch } from './search-query.js';

export const NOT_ALLOWED = 'Access to the requested patient is not allowed.';
const notAllowed = (): ApiError => new ApiError(403, NOT_ALLOWED);

/**
 * Whether `id` may name a patient where only `patient` may (threat 57): an id of a Patient id's form,
 * by its form alone. Asking the key would answer a genuine id with "names a patient" and a forged one
 * of the same form with the search: a test of which ids are real.
 */
export const patientIdForm = (api: FhirApi) => (id: string): boolean => api.ids.hasPatientIdForm(id);

/**
 * The identity number of a Patient id the request names; undefined for an id this service did not
 * make, which names nobody: the request's record then names no one either (not the caller instead),
 * so neither the answer nor the caller's own access log tells it from a real id refused.
 */
export function namedPatient(request: FastifyRequest, api: FhirApi, id: string): string | undefined {
  const number = api.ids.identityNumberOf(id);
  if (number === undefined) request.audit.nobody = true;
  return number;
}

/** Whether a `patient` parameter's id names `number`, the patient a request is about (an id this service did not make names nobody). */
export function samePatient(api: FhirApi, id: string, number: string): boolean {
  return api.ids.identityNumberOf(id) === number;
}

/**
 * The person a Patient search by identifier names: every value a personnummer or samordningsnummer
 * of any accepted system form (docs/upstream-fhir.md#identifier-systems), all of one number, as the
 * `fhir-r4` adapter's lookup sends them (every form of both systems: FHIR's OR). A form under the
 * other kind's system matches nothing; where no form is under the number's own, the search is 400
 * saying which system it belongs to.
 */
function byIdentifier(identifiers: readonly TokenValue[]): string {
  const forms = identifiers.map((identifier) => {
    const kind = personNumberKindOf(identifier.system);
    if (kind === undefined) {
      throw new ApiError(400, 'Search parameter identifier must be <system>|<number> with the personnummer or samordningsnummer system, e.g. identifier=http://electronichealth.se/identifier/personnummer|<12 digits>.');
    }
    const number = parsePersonalIdentityNumber(identifier.code);
    if (number === undefined) throw new ApiError(400, 'Search parameter identifier must end in a valid 12-digit identity number.');
    return { kind, number };
  });
  const [first, ...others] = new Set(forms.map((f) => f.number));
  if (first === undefined || others.length > 0) throw new ApiError(400, 'Search parameter identifier names one person: give the forms of one number only.');
  const mismatches = forms.map((f) => numberKindMismatch(f.number, f.kind));
  if (!mismatches.includes(undefined)) throw new ApiError(400, `Search parameter identifier: ${mismatches[0] ?? ''}.`);
  return first;
}

/**
 * The refusal of `patient`, whom the request names, for want of a scope (`scopeError`: a 403 naming
 * the scope to ask for). Only a person's own launch patient is told the scope; for anyone else a
 * person's token gets the words a Patient id this service never made gets (403, docs/fhir-api.md#scopes),
 * so a refusal never tells a real id from a made-up one.
 */
export function scopeRefusal(request: FastifyRequest, contexts: readonly ScopeContext[], scopeError: unknown): unknown {
  const forScope = scopeError instanceof ApiError && scopeError.statusCode === 403;
  return forScope && request.token?.personId !== undefined && !contexts.includes('patient') ? notAllowed() : scopeError;
}

export interface RequestPatients {
  patients: string[];
  /**
   * A listing (a Patient search by `_id`, or of everyone the token reaches): one a caller may not read
   * is left out, not refused, and named by no record; the request's records name each person read.
   */
  listing: boolean;
}

export async function patientsOf(request: FastifyRequest, deps: RouteDependencies, api: FhirApi, search: FhirSearch, grants: readonly Grant[]): Promise<RequestPatients> {
  const personId = request.token?.personId;
  if (search.type === 'Patient') {
    if (search.identifiers !== undefined) return { patients: [byIdentifier(search.identifiers)], listing: false };
    if (search.ids !== undefined) {
      const numbers = [...search.ids].map((id) => api.ids.identityNumberOf(id)).filter((n): n is string => n !== undefined);
      return { patients: [...new Set(numbers)], listing: true };
    }
  } else if (search.patient !== undefined) {
    const number = namedPatient(request, api, search.patient);
    if (number === undefined) throw notAllowed();
    return { patients: [number], listing: false };
  }
  if (personId === undefined) {
    throw new ApiError(400, search.type === 'Patient'
      ? 'A client token\'s Patient search names the patient: identifier=<system>|<number> or _id=<Patient id>.'
      : `A client token's search names the patient: ${search.type}?patient=Patient/<id>, the id a Patient search by identifier gives.`);
  }
  const launch = launchPatientOf(request, api) as string;
  // GET Patient under user/ scopes lists everyone the user may act for; under patient/ scopes the launch patient.
  if (search.type === 'Patient' && grantsFor(grants, 'Patient', 'search', ['user']).length > 0) {
    const people = await deps.accessPolicy.peopleFor(personId);
    return { patients: [...new Set([launch, ...people])], listing: true };
  }
  return { patients: [launch], listing: false };
}

/**
 * Whom the audit record of a FHIR request is about when it is refused before its route named anyone
 * (a 400 for a parameter, a 429): on this door a patient is named by a parameter or by the token's
 * launch, never by the caller's number as such, which would put a guardian's refused request about her
 * child in her own access log instead of the child's (src/http/audit-record.ts).
 */
import type { FastifyRequest } from 'fastify';
import { launchPatient } from '../../domain/access/scope-reach.js';
import { announcesBody } from '../bodiless-requests.js';
import type { FhirApi } from './fhir-api.js';
import { formPairs, queryPairs } from './form-pairs.js';
import { namesAPatient } from './patient-naming.js';

/**
 * The presumed patient and whether a parameter named them: a refusal's basis is looked up (an EHR read)
 * only for a patient the caller did not choose by id, so that its timing cannot tell a real Patient id
 * from a made-up one (docs/fhir-api.md#scopes).
 */
export interface Presumed { patient: string; named: boolean }
export type PresumedPatient = (request: FastifyRequest) => Presumed | undefined;

export interface PresumedFrom {
  /** The route's resource type: on Patient every filter picks people. */
  type?: string;
  /** The path's id is a Patient id (`Patient/<id>`, `Patient/<id>/$summary`): it names the patient. */
  idNamesPatient?: boolean;
  /** A read by id of another type: its resource's patient, unknown until it is read, unless `patient` names them. */
  byId?: boolean;
  /** The request is about the caller's own, whatever app launch it came from (their grants, their subscriptions). */
  caller?: boolean;
}

/**
 * The caller, whatever a parameter names: the presumption of a route that serves no parameter naming a patient
 * and acts on the caller's own (a Subscription's routes, a Consent's creation). Refused before it ran (the
 * answer's format, a body's media type, size or syntax), such a request is the caller's, never that of whom
 * a `patient` it does not read names (helper-208, F1; helper-207, F2).
 */
export const theCaller: PresumedPatient = (request) => {
  const person = request.token?.personId;
  return person === undefined ? undefined : { patient: person, named: false };
};

/**
 * The patient a refused request presumably was about: the one `patient` parameter it named (a Patient id
 * this service made), else, where no parameter names anybody, the token's launch patient (or, with
 * `caller`, the caller; a read by id of another type than Patient, nobody); nobody (undefined) where a
 * parameter names someone any other way (a reference, a chain, an identity number; a bare id elsewhere,
 * of a Patient id's form or not, is not read as one: see picksPeople), or several do, or a Patient search picks people, or
 * the parameters cannot be read (a `_search` form refused unread).
 */
export function presumedPatient(api: FhirApi, from: PresumedFrom = {}): PresumedPatient {
  const numberOf = (id: string): string | undefined => api.ids.identityNumberOf(id);
  // A bare id elsewhere is not read as a Patient's: the route reads one in a parameter it serves (`_id`,
  // a token, a typed reference) as the launch patient's search, and a refusal then is hers too. Asking
  // the key would presume nobody for a real id and the launch patient (whose basis is looked up) for a
  // forged one, and the timing would tell them apart.
  const picksPeople = (name: string, value: string): boolean =>
    namesAPatient(name, value, () => false) || (from.type === 'Patient' && (name === '_id' || !name.startsWith('_')));
  return (request) => {
    const token = request.token;
    if (token === undefined) return undefined;
    const named = (id: string): Presumed | undefined => {
      const patient = numberOf(id);
      // The token's own launch patient, named by the id it carries, is no id to be told apart: the caller has it.
      return patient === undefined ? undefined : { patient, named: id !== token.smartPatient };
    };
    const own = (patient: string | undefined): Presumed | undefined => (patient === undefined ? undefined : { patient, named: false });
    if (from.idNamesPatient === true) {
      const id = (request.params as { id?: unknown }).id;
      return typeof id === 'string' ? named(id) : undefined;
    }
    // A `_search` form refused unread (another media type or charset, too long) may have named anyone.
    if (from.caller !== true && typeof request.body !== 'string' && request.method === 'POST' && announcesBody(request.raw)) return undefined;
    let naming: [string, string][];
    try {
      naming = [...queryPairs(request), ...(typeof request.body === 'string' ? formPairs(request.body) : [])].filter(([name, value]) => picksPeople(name, value));
    } catch {
      return undefined;
    }
    if (naming.length === 0) {
      if (from.byId === true) return undefined;
      return own(from.caller === true ? token.personId : launchPatient(token, numberOf));
    }
    const [name, value] = naming[0] as [string, string];
    if (naming.length > 1 || name !== 'patient') return undefined;
    return named(value.startsWith('Patient/') ? value.slice('Patient/'.length) : value);
  };
}

/**
 * The RelatedPerson a delegate is to the person they act for: the `fhirUser` of a SMART launch for
 * someone else (docs/smart-launch.md#what-the-tokens-carry), readable with that launch's token. It is
 * made from the delegation decided now, as every read decides it (the registry today, protected
 * identity), never stored: when the right ends, the resource is gone.
 */
import type { FastifyRequest } from 'fastify';
import type { RelationshipType } from '../../domain/access/relationship.js';
import { patientDisplayName } from '../../domain/records/index.js';
import type { FhirIds } from '../../ports/fhir-ids.port.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { accessFor } from '../request-patient.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { launchPatientOf } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';

/** The pair's id: keyed like every id the API makes, so it names nobody to whoever lacks the key. */
export const delegationRelatedPersonId = (ids: FhirIds, actor: string, patient: string): string =>
  ids.recordDigest('delegation', `${actor}|${patient}`);

const ROLE_CODE = 'http://terminology.hl7.org/CodeSystem/v3-RoleCode';
// HL7 v3 RoleCode: the personal relationships the delegation registry records; a proxy the patient
// chose is their agent (v3 RoleClass AGNT), as the grant's Consent names the grantee (docs/proxies.md#fhir).
const ROLE: Readonly<Record<RelationshipType, { system: string; code: string; display: string }>> = {
  guardian: { system: ROLE_CODE, code: 'GUARD', display: 'guardian' },
  'power-of-attorney': { system: ROLE_CODE, code: 'POWATT', display: 'power of attorney' },
  partner: { system: ROLE_CODE, code: 'DOMPART', display: 'domestic partner' },
  proxy: { system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT', display: 'agent' },
};

/**
 * The delegate's RelatedPerson when `id` is the one of this token's pair (the person and the
 * launch patient they picked); undefined for any other id, which is then read as usual. A pair
 * whose right has ended is refused as a read of the patient would be.
 */
export async function delegateRelatedPerson(request: FastifyRequest, deps: RouteDependencies, api: FhirApi, id: string): Promise<FhirResource | undefined> {
  const person = request.token?.personId;
  if (person === undefined || request.token?.smartPatient === undefined) return undefined;
  const patient = launchPatientOf(request, api);
  if (patient === undefined || patient === person || delegationRelatedPersonId(api.ids, person, patient) !== id) return undefined;
  request.audit.patientId = patient;
  const access = await accessFor(request, deps.accessPolicy, patient);
  const role = access.basis === 'self' || access.basis === 'client' ? undefined : ROLE[access.basis];
  if (role === undefined) return undefined;
  const own = await deps.accessPolicy.resolve({ personId: person }, person);
  const name = patientDisplayName(own.patientRecords, person);
  return {
    resourceType: 'RelatedPerson',
    id,
    active: true,
    patient: { reference: `Patient/${api.ids.patientId(patient)}` },
    relationship: [{ coding: [{ ...role }] }],
    ...(name === '' ? {} : { name: [{ text: name }] }),
  };
}

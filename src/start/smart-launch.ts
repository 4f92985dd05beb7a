/**
 * The service's side of a SMART launch at the demo authorization server (docs/smart-launch.md): the
 * FHIR base an `aud` must name, and the picker's people, each decided as a read of their record
 * would be and named by Patient id, never by identity number.
 */
import type { LaunchPerson, SmartLaunchContext } from '../ports/smart-launch.port.js';
import type { PatientAccessPolicy } from '../domain/access/patient-access.js';
import { peopleToOpen } from '../domain/access/people-to-open.js';
import type { FhirIds } from '../ports/fhir-ids.port.js';

/** The id of the RelatedPerson a delegate is to the person they act for: their `fhirUser` in a launch. */
export const delegationRelatedPersonId = (ids: FhirIds, actor: string, patient: string): string =>
  ids.recordDigest('delegation', `${actor}|${patient}`);

export function smartLaunchContext(ids: FhirIds, policy: () => PatientAccessPolicy, publicBaseUrl: () => string): SmartLaunchContext {
  return {
    publicBaseUrl,
    peopleFor: async (identityNumber) => (await peopleToOpen(policy(), identityNumber)).map((p): LaunchPerson => ({
      patientId: ids.patientId(p.identityNumber), name: p.name, basis: p.basis,
      ...(p.basis === 'self' ? {} : { relatedPersonId: delegationRelatedPersonId(ids, identityNumber, p.identityNumber) }),
    })),
  };
}

/**
 * The service's side of a SMART launch at the demo authorization server (docs/smart-launch.md): the
 * FHIR base an `aud` must name, and the picker's people, each decided as a read of their record
 * would be and named by Patient id, never by identity number.
 */
import type { PatientAccessPolicy } from '../domain/access/patient-access.js';
import { peopleToOpen } from '../domain/access/people-to-open.js';
import { delegationRelatedPersonId } from '../http/fhir/delegate-related-person.js';
import type { FhirIds } from '../ports/fhir-ids.port.js';
import type { LaunchPerson, SmartLaunchContext } from '../ports/smart-launch.port.js';

export function smartLaunchContext(ids: FhirIds, policy: () => PatientAccessPolicy, publicBaseUrl: () => string): SmartLaunchContext {
  return {
    publicBaseUrl,
    peopleFor: async (identityNumber) => (await peopleToOpen(policy(), identityNumber)).map((p): LaunchPerson => ({
      patientId: ids.patientId(p.identityNumber), name: p.name, basis: p.basis,
      ...(p.basis === 'self' ? {} : { relatedPersonId: delegationRelatedPersonId(ids, identityNumber, p.identityNumber) }),
    })),
  };
}

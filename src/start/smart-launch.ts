/**
 * The service's side of a SMART launch at the authorization server (docs/smart-launch.md): the FHIR
 * base an `aud` must name, the picker's people, each decided as a read of their record would be and
 * named by Patient id, never by identity number, and the audit record of each grant and withdrawal,
 * which names the patient by identity number, as every record of their access log does.
 */
import { randomUUID } from 'node:crypto';
import type { PatientAccessPolicy } from '../domain/access/patient-access.js';
import { reachesOperation } from '../domain/access/operation-reach.js';
import type { AccessBasis } from '../domain/access/relationship.js';
import { peopleToOpen, type PersonToOpen } from '../domain/access/people-to-open.js';
import { OPERATION_NAMES } from '../domain/operations/table.js';
import { ageLimitWithholds } from '../domain/release/patient-age.js';
import type { GrantOperationName } from '../domain/operations/grant-operations.js';
import type { ReleasePolicy } from '../domain/release/release-policy.js';
import { delegationRelatedPersonId } from '../http/fhir/delegate-related-person.js';
import { servedTypes } from '../http/fhir/fhir-api.js';
import { fhirForms } from './fhir-api.js';
import type { AuditTrail, OutcomeRecord } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { FhirIds } from '../ports/fhir-ids.port.js';
import type { GrantEvent, LaunchPerson, OpenedParts, SmartLaunchContext } from '../ports/smart-launch.port.js';

const OPERATION: Readonly<Record<GrantEvent['kind'], GrantOperationName>> = {
  granted: 'grantAppAccess', revoked: 'revokeAppAccess', picked: 'pickAppPatient', issued: 'issueAppToken', refreshed: 'refreshAppToken',
};

/** The outcome record of a grant or its withdrawal: who, for whom, through which app; no token, no scope text. */
export function grantRecordOf(event: GrantEvent, patientIdentityNumber: string, now: number): OutcomeRecord {
  const id = randomUUID();
  return {
    time: new Date(now).toISOString(), requestId: id, serviceRequestId: id, operation: OPERATION[event.kind],
    // A plain grant where the FHIR API is off has no fhirUser: the person by the number personId holds already.
    actor: { issuer: event.issuer, subject: event.fhirUser ?? event.accountId, personId: event.accountId },
    clientId: event.clientId, patientId: patientIdentityNumber, delegation: event.basis,
    sourceAddress: event.sourceAddress, outcome: event.outcome ?? 'allowed', status: event.status ?? 200,
  };
}

export interface GrantAudit {
  trail: () => AuditTrail;
  clock: Clock;
  /** RELEASE_POLICY_FILE and EHR_TIMEZONE: the access log's guardian age limit decides which grants a guardian is shown. */
  release: { policy: ReleasePolicy | undefined; zone: string };
}

/** Where nothing can be launched (FHIR_API=off): no `aud` names it, so every SMART authorization is refused. */
const NOTHING_TO_LAUNCH = 'http://smart-launch.invalid';

/**
 * The service's side of the authorization server. With the FHIR API off (`ids` undefined) there is no
 * launch and nobody to pick, but a plain OAuth grant of the COS API is still audited before its code.
 */
export function smartLaunchContext(
  ids: FhirIds | undefined, policy: () => PatientAccessPolicy, publicBaseUrl: () => string, audit: GrantAudit, sharingOffered: boolean,
): SmartLaunchContext {
  // Whether an age limit of the release policy takes `operation` whole from this basis, as a request's answer
  // and a subscription's check have it (src/domain/notifications/right-to-read.ts): the access log's is the
  // guardian's alone, and what it withholds from a guardian, connected apps do too.
  const takenWhole = (operation: string, basis: AccessBasis, patient: string): boolean => audit.release.policy !== undefined
    && ageLimitWithholds(audit.release.policy, operation, basis, patient, audit.clock.now(), audit.release.zone);
  // What of a record a person's access opens, for the consent page's words: each operation its basis reaches
  // and no age limit takes whole, each FHIR type one of those reads serves (a party any of them names).
  const served = servedTypes(fhirForms());
  const opened = (person: PersonToOpen): OpenedParts | undefined => {
    const access = { basis: person.basis, ...(person.reach === undefined ? {} : { reach: person.reach }) };
    const operations = new Set<string>(OPERATION_NAMES.filter((operation) =>
      reachesOperation(access, operation) && !takenWhole(operation, person.basis, person.identityNumber)));
    if (operations.size === OPERATION_NAMES.length) return undefined;
    const types = new Set(served.filter((s) => (s.type === 'AuditEvent' ? operations.has('getAccessLog') : s.reads.some((read) => operations.has(read)))).map((s) => s.type));
    return { operations, types };
  };
  const withOpened = (opens: OpenedParts | undefined): { opens?: OpenedParts } => (opens === undefined ? {} : { opens });
  return {
    sharingOffered,
    publicBaseUrl: ids === undefined ? () => NOTHING_TO_LAUNCH : publicBaseUrl,
    peopleFor: async (identityNumber) => ids === undefined ? [] : (await peopleToOpen(policy(), identityNumber)).map((p): LaunchPerson => ({
      patientId: ids.patientId(p.identityNumber), name: p.name, basis: p.basis,
      ...withOpened(opened(p)),
      ...(p.basis === 'self' ? {} : { relatedPersonId: delegationRelatedPersonId(ids, identityNumber, p.identityNumber) }),
      // A proxy is shown parts of a record, never which apps the patient and their other delegates use (docs/proxies.md#what-a-grant-opens).
      ...(p.basis === 'proxy' || takenWhole('getAccessLog', p.basis, p.identityNumber) ? { othersGrantsWithheld: true } : {}),
    })),
    recordGrant: async (event) => {
      // A plain grant (no pick) is recorded in the person's own log.
      const patient = event.patientId === undefined ? event.accountId : ids?.identityNumberOf(event.patientId);
      if (patient === undefined) {
        // A refused step for a Patient id this service did not make (a forged pick) touched nobody's record: no log holds it.
        if (event.outcome === 'denied') return;
        // One that would be allowed names nobody it could be logged for: it fails, and nothing is granted.
        throw new Error('the granted Patient id is not one of this service');
      }
      await audit.trail().append(grantRecordOf(event, patient, audit.clock.now()));
    },
  };
}

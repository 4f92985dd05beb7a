import { Type } from 'typebox';
import type { AccessLogEntry } from '../../domain/access-log/access-log-entry.js';
import { BASIS_NAMES, noAppNamesOf, OUTCOME_NAMES, writeResultParts, writeResultShown } from '../../domain/access-log/display-names.js';
import { kindOfNumber, oidSystemOf } from '../../domain/identity/person-number-systems.js';
import { GRANT_OPERATIONS, isGrantOperationName } from '../../domain/operations/grant-operations.js';
import type { AuditAction, DisplayName } from '../../domain/operations/operation.js';
import { subscriptionAuditOf } from '../../domain/operations/subscription-operations.js';
import { auditActionOf, changesPatientData } from '../../domain/operations/table.js';
import type { FhirIds } from '../../ports/fhir-ids.port.js';

/**
 * The access log as FHIR R4 AuditEvents in a searchset Bundle, after IHE Basic Audit Log Patterns
 * (BALP): one AuditEvent per entry, the same facts as the JSON entry and nothing more.
 */
/** A person by their number, under that number's own system (a samordningsnummer is no personnummer). */
const byNumber = (number: string): { identifier: { system: string; value: string } } => ({ identifier: { system: oidSystemOf(kindOfNumber(number)), value: number } });
const BALP = 'https://profiles.ihe.net/ITI/BALP';
const ROLE_CLASS = 'http://terminology.hl7.org/CodeSystem/v3-RoleClass';
const OPERATION_SYSTEM = 'urn:patient-data-access:operation';
const OBJECT_ROLE = 'http://terminology.hl7.org/CodeSystem/object-role';

/** AuditEvent.outcome: 0 success, 4 minor failure (a refusal), 8 serious failure; the patient app names them by these codes. */
export const AUDIT_EVENT_OUTCOMES = { allowed: '0', denied: '4', failed: '8' } as const;

const ROLE: Readonly<Record<AccessLogEntry['basis'], { code: string; display: string }>> = {
  self: { code: 'PAT', display: 'patient' },
  guardian: { code: 'GUARD', display: 'guardian' },
  'power-of-attorney': { code: 'AGNT', display: 'agent' },
  partner: { code: 'NOK', display: 'next of kin' },
  // Someone the patient chose (docs/proxies.md): the agent role the grant's Consent gives them too.
  proxy: { code: 'AGNT', display: 'agent' },
  client: { code: 'ASSIGNED', display: 'assigned entity' },
  support: { code: 'ASSIGNED', display: 'assigned entity' },
  service: { code: 'ROL', display: 'role' },
  refused: { code: 'ROL', display: 'role' },
  unverified: { code: 'ROL', display: 'role' },
};

/** Apps' names in Swedish and English, by client id (issue 55 item 6): where the operator named an app so. */
export type AppNames = ReadonlyMap<string, DisplayName>;

/**
 * A string's words in each language, as FHIR's translation extension on it (R4 §2.6.1,
 * `http://hl7.org/fhir/StructureDefinition/translation`), so an app reading the log in Swedish or English
 * shows them in that language.
 */
const translations = (names: DisplayName): { extension: unknown[] } => ({
  extension: (['sv', 'en'] as const).map((lang) => ({
    url: 'http://hl7.org/fhir/StructureDefinition/translation',
    extension: [{ url: 'lang', valueCode: lang }, { url: 'content', valueString: names[lang] }],
  })),
});

/** The application agent: its one name as `display`, and, where it has a name in each language, both (translations). */
function application(e: AccessLogEntry, appNames: AppNames | undefined): Record<string, unknown> {
  const { displayName, clientId } = e.clientApplication;
  const names = clientId === undefined ? noAppNamesOf(displayName) : appNames?.get(clientId);
  return {
    display: displayName,
    ...(names === undefined ? {} : { _display: translations(names) }),
    ...(clientId ? { identifier: { value: clientId } } : {}),
  };
}

/** The RESTful interaction of each action: a read of the record is a search of it. */
const INTERACTIONS: Readonly<Record<AuditAction, string>> = { C: 'create', U: 'update', D: 'delete', E: 'search' };

/** The entry as an AuditEvent, with the id `ids` give it (eventIdOf) where there are ids. */
export function auditEvent(e: AccessLogEntry, patientId: string, appNames?: AppNames, ids?: FhirIds): Record<string, unknown> {
  const subscription = subscriptionAuditOf(e.operation);
  const action = subscription?.action ?? auditActionOf(e.operation);
  const write = changesPatientData(e.operation);
  const grant = isGrantOperationName(e.operation) ? GRANT_OPERATIONS[e.operation] : undefined;
  // A grant of app access is the authorization server's, and being told the service's sending: neither is a RESTful interaction with the record.
  const interaction = grant !== undefined ? undefined : subscription === undefined ? INTERACTIONS[action] : subscription.interaction;
  const person: Record<string, unknown> = {
    type: { coding: [{ system: ROLE_CLASS, ...ROLE[e.basis] }], text: BASIS_NAMES[e.basis].en },
    requestor: true,
  };
  if (e.basis === 'self') person.who = byNumber(patientId);
  else if (e.actorPersonId !== undefined) person.who = byNumber(e.actorPersonId);
  else person.who = { display: BASIS_NAMES[e.basis].en };
  return {
    resourceType: 'AuditEvent',
    ...(ids === undefined ? {} : { id: eventIdOf(ids, e) }),
    meta: { profile: [`${BALP}/StructureDefinition/IHE.BasicAudit.${write ? 'PatientUpdate' : 'PatientRead'}`] },
    type: { system: 'http://terminology.hl7.org/CodeSystem/audit-event-type', code: 'rest', display: 'RESTful Operation' },
    subtype: [
      ...(interaction === undefined ? [] : [{ system: 'http://hl7.org/fhir/restful-interaction', code: interaction, display: interaction }]),
      { system: OPERATION_SYSTEM, code: e.operation, display: e.operationDisplayName.en },
      // The other kinds of data the request read (the entry's alsoRead), after the one it is named for.
      ...(e.alsoRead ?? []).map((read) => ({ system: OPERATION_SYSTEM, code: read.operation, display: read.operationDisplayName.en })),
    ],
    action: grant?.action ?? action,
    recorded: new Date(e.timeInUnix).toISOString(),
    // A write the EHR refused is a minor failure, though the caller was let ask (hostile review helper-133, F4). An answered
    // request's result of a form a later version wrote claims no success (R4's outcome is optional): what came of it is not
    // known here (helper-139, F1); a refused or failed one keeps what its status says (helper-144, F2).
    ...(e.outcome === 'allowed' && e.result !== undefined && !writeResultShown(e.result.code) ? {}
      // Only an answered request is made a refusal by its result: a failed one stays 8 (helper-145, F4).
      : { outcome: AUDIT_EVENT_OUTCOMES[e.outcome === 'allowed' && e.result !== undefined && writeResultParts(e.result.code).resultCode === 'ERROR' ? 'denied' : e.outcome] }),
    outcomeDesc: (e.result?.displayName ?? OUTCOME_NAMES[e.outcome]).en,
    // A write's result in Swedish too: the patient app names an event by it (hostile review helper-138, F1).
    _outcomeDesc: translations(e.result?.displayName ?? OUTCOME_NAMES[e.outcome]),
    // Why support ended a grant, in their words: the reason of the event.
    ...(e.reason === undefined ? {} : { purposeOfEvent: [{ text: e.reason }] }),
    agent: [
      person,
      {
        type: { coding: [{ system: 'http://dicom.nema.org/resources/ontology/DCM', code: '110150', display: 'Application' }] },
        who: application(e, appNames),
        requestor: false,
      },
    ],
    source: { observer: { display: 'Patient Data Access Service' } },
    entity: [
      {
        what: byNumber(patientId),
        role: { system: OBJECT_ROLE, code: '1', display: 'Patient' },
      },
      // The person the patient shared their record with: the user the grant gives access (src/domain/access-log/access-log-entry.ts `grantee`).
      ...(e.grantee === undefined ? [] : [{
        what: { ...byNumber(e.grantee.identityNumber), ...(e.grantee.name === undefined ? {} : { display: e.grantee.name }) },
        role: { system: OBJECT_ROLE, code: '11', display: 'Security User Entity' },
      }]),
      // An entry older than the service's own ids has none to name (src/domain/access-log/access-log-entry.ts).
      ...(e.requestId === '' ? [] : [{ what: { identifier: { value: e.requestId } }, type: { system: `${BALP}/CodeSystem/BasicAuditEntityType`, code: 'XrequestId' } }]),
    ],
  };
}

/**
 * An entry's AuditEvent id, the same on both doors. It starts with the entry's time (base 36 milliseconds),
 * so a read by id looks only near it; the rest is a keyed digest of the entry, naming no one.
 */
export const eventIdOf = (ids: FhirIds, e: Pick<AccessLogEntry, 'timeInUnix' | 'requestId' | 'operation'>): string =>
  `${e.timeInUnix.toString(36)}-${ids.recordDigest('audit-event', `${e.timeInUnix}|${e.requestId}|${e.operation}`)}`;

/**
 * The COS door's page as a Bundle; `next` is the same link the Link header carries. Each event has the id
 * the FHIR door gives it (`ids`: the FHIR API's, absent where FHIR_API=off), so an app reading both doors
 * sees one event once.
 */
export function auditEventBundle(
  entries: readonly AccessLogEntry[], patientId: string, next: string | undefined, appNames?: AppNames, ids?: FhirIds,
): Record<string, unknown> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(next === undefined ? {} : { link: [{ relation: 'next', url: next }] }),
    entry: entries.map((e) => ({
      resource: auditEvent(e, patientId, appNames, ids),
      search: { mode: 'match' },
    })),
  };
}

/** The Bundle's outline for the OpenAPI document; each AuditEvent follows FHIR R4 and the BALP profiles. */
export const AuditEventBundleSchema = Type.Object({
  resourceType: Type.Literal('Bundle'),
  type: Type.Literal('searchset'),
  link: Type.Optional(Type.Array(Type.Object({ relation: Type.Literal('next'), url: Type.String({ maxLength: 1024 }) }), { maxItems: 1 })),
  entry: Type.Array(Type.Object({
    resource: Type.Record(Type.String(), Type.Unknown(), { description: 'A FHIR R4 AuditEvent (IHE BALP PatientRead or PatientUpdate).' }),
    search: Type.Object({ mode: Type.Literal('match') }),
  }), { maxItems: 500 }),
}, { description: 'The same page as FHIR R4 AuditEvents in a searchset Bundle (IHE Basic Audit Log Patterns).' });

import { Type } from 'typebox';
import type { AccessLogEntry } from '../../domain/access-log/access-log-entry.js';
import { BASIS_NAMES, OUTCOME_NAMES } from '../../domain/access-log/display-names.js';
import { GRANT_OPERATIONS, isGrantOperationName } from '../../domain/operations/grant-operations.js';
import { changesPatientData } from '../../domain/operations/table.js';

/**
 * The access log as FHIR R4 AuditEvents in a searchset Bundle, after IHE Basic Audit Log Patterns
 * (BALP): one AuditEvent per entry, the same facts as the JSON entry and nothing more.
 */
const PERSONNUMMER = 'urn:oid:1.2.752.129.2.1.3.1';
const BALP = 'https://profiles.ihe.net/ITI/BALP';
const ROLE_CLASS = 'http://terminology.hl7.org/CodeSystem/v3-RoleClass';
const OPERATION_SYSTEM = 'urn:patient-data-access:operation';

/** AuditEvent.outcome: 0 success, 4 minor failure (a refusal), 8 serious failure; the patient app names them by these codes. */
export const AUDIT_EVENT_OUTCOMES = { allowed: '0', denied: '4', failed: '8' } as const;

const ROLE: Readonly<Record<AccessLogEntry['basis'], { code: string; display: string }>> = {
  self: { code: 'PAT', display: 'patient' },
  guardian: { code: 'GUARD', display: 'guardian' },
  'power-of-attorney': { code: 'AGNT', display: 'agent' },
  partner: { code: 'NOK', display: 'next of kin' },
  client: { code: 'ASSIGNED', display: 'assigned entity' },
  refused: { code: 'ROL', display: 'role' },
  unverified: { code: 'ROL', display: 'role' },
};

export function auditEvent(e: AccessLogEntry, patientId: string): Record<string, unknown> {
  const write = changesPatientData(e.operation);
  const grant = isGrantOperationName(e.operation) ? GRANT_OPERATIONS[e.operation] : undefined;
  const person: Record<string, unknown> = {
    type: { coding: [{ system: ROLE_CLASS, ...ROLE[e.basis] }], text: BASIS_NAMES[e.basis].en },
    requestor: true,
  };
  if (e.basis === 'self') person.who = { identifier: { system: PERSONNUMMER, value: patientId } };
  else if (e.actorPersonId !== undefined) person.who = { identifier: { system: PERSONNUMMER, value: e.actorPersonId } };
  else person.who = { display: BASIS_NAMES[e.basis].en };
  return {
    resourceType: 'AuditEvent',
    meta: { profile: [`${BALP}/StructureDefinition/IHE.BasicAudit.${write ? 'PatientUpdate' : 'PatientRead'}`] },
    type: { system: 'http://terminology.hl7.org/CodeSystem/audit-event-type', code: 'rest', display: 'RESTful Operation' },
    subtype: [
      // A grant of app access is the authorization server's, not a RESTful interaction with the record.
      ...(grant === undefined ? [{ system: 'http://hl7.org/fhir/restful-interaction', code: write ? 'update' : 'search', display: write ? 'update' : 'search' }] : []),
      { system: OPERATION_SYSTEM, code: e.operation, display: e.operationDisplayName.en },
    ],
    action: grant?.action ?? (write ? 'U' : 'E'),
    recorded: new Date(e.timeInUnix).toISOString(),
    outcome: AUDIT_EVENT_OUTCOMES[e.outcome],
    outcomeDesc: OUTCOME_NAMES[e.outcome].en,
    agent: [
      person,
      {
        type: { coding: [{ system: 'http://dicom.nema.org/resources/ontology/DCM', code: '110150', display: 'Application' }] },
        who: { display: e.clientApplication.displayName, ...(e.clientApplication.clientId ? { identifier: { value: e.clientApplication.clientId } } : {}) },
        requestor: false,
      },
    ],
    source: { observer: { display: 'Patient Data Access Service' } },
    entity: [
      {
        what: { identifier: { system: PERSONNUMMER, value: patientId } },
        role: { system: 'http://terminology.hl7.org/CodeSystem/object-role', code: '1', display: 'Patient' },
      },
      // An entry older than the service's own ids has none to name (src/domain/access-log/access-log-entry.ts).
      ...(e.requestId === '' ? [] : [{ what: { identifier: { value: e.requestId } }, type: { system: `${BALP}/CodeSystem/BasicAuditEntityType`, code: 'XrequestId' } }]),
    ],
  };
}

/** The page as a Bundle; `next` is the same link the Link header carries. */
export function auditEventBundle(entries: readonly AccessLogEntry[], patientId: string, next: string | undefined): Record<string, unknown> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(next === undefined ? {} : { link: [{ relation: 'next', url: next }] }),
    entry: entries.map((e) => ({ resource: auditEvent(e, patientId), search: { mode: 'match' } })),
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

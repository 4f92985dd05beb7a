import type { FastifyReply, FastifyRequest } from 'fastify';
import { parsePersonalIdentityNumber } from '../domain/identity/personal-identity-number.js';
import type { AttemptRecord, OutcomeRecord } from '../ports/audit-trail.port.js';
import { UNCONFIRMED_WRITE_RESULT } from '../domain/writes/write-outcomes.js';
import { READ_NAMES, type ReadName } from '../domain/operations/table.js';
import { operationOf } from './operation-of.js';
import { callerRequestIdOf } from './request-id.js';
import type { PatientRead } from './types.js';

type Fields = Omit<OutcomeRecord, 'phase' | 'outcome' | 'status'>;

/**
 * The patient a request was for. Once the route has named them, that; before it (a 403 for a
 * missing scope is decided before the route runs), the patient header of a caller whose token
 * verified, or that caller's own number when there is no header. A request without a verified
 * token names nobody: anyone could put any number in a header; nor does one the route found to be
 * about nobody (AuditContext.nobody). On the FHIR door, where no patient header exists, the route's
 * own presumption (src/http/fhir/presumed-patient.ts): the caller's number would put a guardian's
 * refused request about her child in her own log instead of the child's.
 */
export function patientOf(request: FastifyRequest): string | undefined {
  if (request.audit?.nobody === true) return undefined;
  if (request.audit?.patientId !== undefined) return request.audit.patientId;
  if (request.token === undefined) return undefined;
  const config = request.routeOptions.config;
  if (config?.fhir === true) return config.presumedPatient?.(request)?.patient;
  const header = request.headers.patient;
  if (header === undefined) return request.token.personId;
  return typeof header === 'string' ? parsePersonalIdentityNumber(header) : undefined;
}

/**
 * The patient a refusal's record names, and whether their basis may be looked up before the answer
 * leaves: on the COS door always (a `patient` header's identity number); on the FHIR door only for the
 * token's launch patient or the caller (presumed, or the one the route named), never a patient another
 * Patient id named, whose lookup (registry and EHR reads for a real id, none for a made-up one) would
 * tell the two apart by the answer's timing, unless the route read the registry for them already
 * (`lookUpBasis`: a Subscription the policy refused for its topic). A basis is a caller's right to a patient: without a token
 * there is none, whatever a route presumed or noted.
 */
export function refusalSubject(request: FastifyRequest): { patient: string; lookUp: boolean } | undefined {
  if (request.token === undefined) return undefined;
  const config = request.routeOptions.config;
  if (config?.fhir !== true) {
    const patient = patientOf(request);
    return patient === undefined ? undefined : { patient, lookUp: true };
  }
  if (request.audit?.nobody === true) return undefined;
  const presumed = config.presumedPatient?.(request);
  const patient = request.audit?.patientId ?? presumed?.patient;
  if (patient === undefined) return undefined;
  return { patient, lookUp: request.audit?.lookUpBasis === true || (presumed?.named === false && presumed.patient === patient) };
}

function fieldsOf(request: FastifyRequest, now: number): Fields {
  const fields: Fields = {
    time: new Date(now).toISOString(),
    // The service's own id, under both names: older records kept a caller's id as `requestId` (src/ports/audit-trail.port.ts).
    requestId: request.id,
    serviceRequestId: request.id,
    operation: operationOf(request) ?? 'unknown',
    sourceAddress: request.ip,
  };
  const callerRequestId = callerRequestIdOf(request);
  if (callerRequestId !== undefined) fields.callerRequestId = callerRequestId;
  const token = request.token;
  if (token) {
    fields.actor = { issuer: token.issuer, subject: token.subject, ...(token.personId ? { personId: token.personId } : {}) };
    if (token.clientId !== undefined) fields.clientId = token.clientId;
  }
  if (request.subscription !== undefined) fields.subscription = request.subscription;
  const patientId = patientOf(request);
  if (patientId !== undefined) fields.patientId = patientId;
  if (request.audit?.delegation !== undefined && patientId !== undefined) fields.delegation = request.audit.delegation;
  if (request.audit?.proxyGrantId !== undefined && patientId !== undefined) fields.proxyGrantId = request.audit.proxyGrantId;
  return fields;
}

function outcomeOf(status: number): OutcomeRecord['outcome'] {
  if (status < 400) return 'allowed';
  return status >= 500 ? 'failed' : 'denied';
}

/**
 * Refused before authentication (no valid key, or a valid key without a valid token), so nothing
 * about a patient was looked at and nobody is known to have asked: its record may be tallied with
 * others of its kind (src/http/refusal-tally.ts). A refusal of an authenticated caller (too weak a
 * scope, a patient they may not act for) names who asked for whom and is always audited.
 */
export function refusedBeforeAuthentication(request: FastifyRequest, reply: FastifyReply): boolean {
  return reply.statusCode >= 400 && reply.statusCode < 500 && request.token === undefined;
}

/**
 * Refused by the rate limit (issue 44 item 4, threat 58): nothing about a patient was looked at, so
 * a flood of them is tallied too, per caller, rather than growing the audit store at the flood's rate.
 */
export const TOO_MANY_REQUESTS = 429;

/** A refusal the tally stores the first of per kind and minute and counts the rest of. */
export function tallied(request: FastifyRequest, reply: FastifyReply): boolean {
  return reply.statusCode === TOO_MANY_REQUESTS || refusedBeforeAuthentication(request, reply);
}

/** The one record of what the request came to. */
export function outcomeRecordOf(request: FastifyRequest, reply: FastifyReply, now: number): OutcomeRecord {
  const record = fieldsOf(request, now) as OutcomeRecord;
  record.outcome = outcomeOf(reply.statusCode);
  record.status = reply.statusCode;
  // Only an answer that was sent can have had items withheld from it.
  if (request.audit?.withheld !== undefined && reply.statusCode < 300) record.withheld = request.audit.withheld;
  const writeResult = request.audit?.writeResult;
  const unconfirmed = writeResult === UNCONFIRMED_WRITE_RESULT;
  // An answer of the EHR's only on an answer sent; the unknown outcome only on the failure it was set for.
  if (writeResult !== undefined && (reply.statusCode < 300 ? !unconfirmed : unconfirmed && reply.statusCode >= 500)) record.writeResult = writeResult;
  const booking = request.audit?.booking;
  // On an answer sent, or on a write sent and not confirmed whose booking was found to be the patient's first (write-routes.ts).
  if (booking !== undefined && (reply.statusCode < 300 || record.writeResult === UNCONFIRMED_WRITE_RESULT)) {
    record.contactId = booking.contactId;
    if (booking.paymentType !== undefined) record.paymentType = booking.paymentType;
  }
  return record;
}

/**
 * The records of what the request came to: one, or for a request that read several patients' records
 * one per patient read, each naming that patient, the basis it was read on and what was withheld from
 * that patient's records. A patient left out (refused, or not granted) is named by none of them.
 */
export function outcomeRecordsOf(request: FastifyRequest, reply: FastifyReply, now: number): OutcomeRecord[] {
  const record = outcomeRecordOf(request, reply, now);
  const read = request.audit?.patientsRead;
  // HEAD hands nothing over: its record names its own read alone (hostile review helper-98, F5).
  const sent = reply.statusCode < 300 && request.method !== 'HEAD';
  if (read === undefined || read.size === 0) return [namedForReads(record, request.audit ?? {}, sent)];
  return [...read].map(([patientId, part]) => {
    const { withheld: _total, ...common } = record;
    const { delegation, withheld } = part;
    return namedForReads({ ...common, patientId, delegation, ...(withheld > 0 && reply.statusCode < 300 ? { withheld } : {}) }, part, sent);
  });
}

const READS: ReadonlySet<string> = new Set(READ_NAMES);

/**
 * A FHIR answer is audited under its searched type's first read (fhir-routes.ts); where that read was not
 * made, under the first of the type's reads that was (AuditContext.reads): an Appointment search by a
 * proxy granted video meetings alone is "Videomöten", never "Bokade besök", which it did not read (the
 * review of 2026-11-29), and so is a read by id it found nothing by (404; hostile review helper-92, F4).
 * A request refused before it read anything keeps the type's first read. Still one record a patient
 * (THREATS row 31).
 */
function namedForRead(record: OutcomeRecord, reads: ReadonlySet<ReadName> | undefined, answeredBy: readonly ReadName[] | undefined): OutcomeRecord {
  // A read by id that answered a record: named for the read that record came from (hostile review helper-93, F3);
  // of several (a party's), the first made.
  const answered = [...(reads ?? [])].find((read) => answeredBy?.includes(read) === true) ?? answeredBy?.[0];
  if (answered !== undefined && READS.has(record.operation)) return { ...record, operation: answered };
  if (reads === undefined || !READS.has(record.operation) || reads.has(record.operation as ReadName)) return record;
  const [made] = reads;
  return made === undefined ? record : { ...record, operation: made };
}

/**
 * The record named for its read, and naming every other read whose records the answer holds (`alsoRead`),
 * in the order they were made: a delegate's `Encounter?_revinclude=Composition:encounter` handed over
 * journal notes too, and the log said only "Vårdkontakter" (hostile review helper-90, F2); a `$summary`
 * answers each section's data. What was only looked through is not named (helper-97, F3): an empty page,
 * a listing's other people, a read by id's other candidates. Only an answer that was sent showed anything.
 */
function namedForReads(record: OutcomeRecord, read: Pick<PatientRead, 'reads' | 'answeredBy' | 'shownReads'>, sent: boolean): OutcomeRecord {
  const named = namedForRead(record, read.reads, read.answeredBy);
  const answered = read.answeredBy ?? read.shownReads;
  if (!sent || answered === undefined) return named;
  const alsoRead = [...(read.reads ?? [])].filter((made) => made !== named.operation && answered.includes(made));
  return alsoRead.length === 0 ? named : { ...named, alsoRead };
}

/** The record a write stores once its caller is authorised, before the EHR is asked to change anything. */
export function attemptRecordOf(request: FastifyRequest, now: number): AttemptRecord {
  return { ...fieldsOf(request, now), phase: 'attempt', outcome: 'allowed' };
}

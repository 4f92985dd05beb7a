import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditRecord, AuditTrail } from '../../ports/audit-trail.port.js';
import type { Clock } from '../../ports/clock.port.js';
import { attemptRecordOf, outcomeRecordOf, outcomeRecordsOf, refusalSubject, tallied } from '../audit-record.js';
import { errorBody } from '../error-body.js';
import { FHIR_JSON } from '../fhir/operation-outcome.js';
import { toHttpFailure } from '../error-mapping.js';
import type { RefusalTally } from '../refusal-tally.js';
import { removeDataHeaders } from '../data-headers.js';
import { AuditUnavailableError, ChangeUnrecordedError } from './audit-errors.js';

const AUDIT_DEADLINE_MS = 3000;
/** How long a refusal's record waits for the caller's basis (a registry read) before it is stored without one. */
const BASIS_WAIT_MS = 1000;

/**
 * `p`, or AuditUnavailableError once the deadline passes first. One promise settled by whichever
 * comes first (issue 56 item 4): a `Promise.race` with a deadline promise and a `finally` made four
 * a request; a promise settles once, so the later of the two changes nothing.
 */
function withDeadline(p: Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AuditUnavailableError('audit store did not answer in time')), AUDIT_DEADLINE_MS);
    p.then(() => {
      clearTimeout(timer);
      resolve();
    }, (err: unknown) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** On what the caller would be let act for `patient` (src/http/caller-basis.ts refusalBasisFor), or undefined where nothing holds. */
export type BasisOf = (request: FastifyRequest, patient: string) => Promise<string | undefined>;

/**
 * A refusal about a patient the route never decided on (a 400 for the query, made before the access
 * decision; the patient the COS header or a FHIR presumption names) carries the basis the caller has for
 * them, as an allowed request's record does: a guardian's mistyped request is shown in her child's log
 * as hers, not a stranger's. A failure to find it leaves the record without one, never unstored.
 */
async function nameRefusalBasis(request: FastifyRequest, status: number, basisOf: BasisOf): Promise<void> {
  if (status < 400 || status >= 500 || request.audit.delegation !== undefined) return;
  const subject = refusalSubject(request);
  if (subject?.lookUp !== true) return;
  const { patient } = subject;
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), BASIS_WAIT_MS);
    });
    const basis = await Promise.race([basisOf(request, patient), late]);
    if (basis !== undefined) request.audit.delegation = basis;
  } catch (err) {
    request.log.warn({ err }, 'the basis of a refusal could not be found; it is recorded without one');
  } finally {
    clearTimeout(timer);
  }
}

/** Stores the records one after another, in order: a chained store links each to the one before. */
async function appendAll(trail: AuditTrail, records: readonly AuditRecord[]): Promise<void> {
  for (const record of records) await trail.append(record);
}

/**
 * Exactly one outcome record (one per patient read, for a request that read several) for every request to a patient-data route, allowed, refused or
 * failed, stored before the answer leaves. If it cannot be stored, data is withheld: the caller
 * gets 503 instead. Refusals before authentication, and by the rate limit, go through the tally, which stores the first
 * of each kind per minute and counts the rest. A write also stores an attempt record first
 * (`recordWriteAttempt`), so that with the store down the EHR is never asked to change anything
 * (docs/contract.md#what-never-happens).
 */
export const audit = fp(async (app: FastifyInstance, opts: { auditTrail: AuditTrail; refusals: RefusalTally; clock: Clock; basisOf: BasisOf }) => {
  app.decorate('recordWriteAttempt', async (request: FastifyRequest) => {
    try {
      await withDeadline(opts.auditTrail.append(attemptRecordOf(request, opts.clock.now())));
      request.audit.attempted = true;
    } catch (err) {
      request.log.error({ err }, 'attempt record could not be stored; the EHR is not asked');
      throw new AuditUnavailableError('audit store unavailable');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.operation === undefined) return payload;
    try {
      // A tallied refusal (a flood's) is not worth a registry read each: it names its patient without a basis.
      if (tallied(request, reply)) await withDeadline(opts.refusals.append(outcomeRecordOf(request, reply, opts.clock.now())));
      else {
        // The record's time is the refusal's, not the end of the wait for its basis.
        const now = opts.clock.now();
        await nameRefusalBasis(request, reply.statusCode, opts.basisOf);
        await withDeadline(appendAll(opts.auditTrail, outcomeRecordsOf(request, reply, now)));
      }
      return payload;
    } catch (err) {
      request.log.error({ err }, 'audit record could not be stored');
      if (reply.statusCode >= 400) return payload;
      // A change whose attempt was recorded may have been made (helper-127 F2, helper-130 F1): say how to find out. A
      // payment or an arrival answered INFO or ERROR made nothing, so it is told as a read is (helper-131, F3).
      const result = request.audit.writeResult;
      const mayBeMade = request.audit.attempted === true && (result === undefined || result.startsWith('OK'));
      const failure = toHttpFailure(mayBeMade ? new ChangeUnrecordedError(result !== undefined) : new AuditUnavailableError('audit store unavailable'));
      removeDataHeaders(reply);
      const fhir = request.routeOptions.config?.errorShape === 'fhir';
      reply.code(failure.status).headers(failure.headers).header('content-type', fhir ? FHIR_JSON : 'application/json; charset=utf-8');
      return JSON.stringify(errorBody(request, failure.status, failure.message, opts.clock.now()));
    }
  });
}, { name: 'audit' });

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditRecord, AuditTrail } from '../../ports/audit-trail.port.js';
import type { Clock } from '../../ports/clock.port.js';
import { attemptRecordOf, outcomeRecordOf, outcomeRecordsOf, tallied } from '../audit-record.js';
import { errorBody } from '../error-body.js';
import { FHIR_JSON } from '../fhir/operation-outcome.js';
import { toHttpFailure } from '../error-mapping.js';
import type { RefusalTally } from '../refusal-tally.js';
import { removeDataHeaders } from '../data-headers.js';
import { AuditUnavailableError } from './audit-errors.js';

const AUDIT_DEADLINE_MS = 3000;

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
export const audit = fp(async (app: FastifyInstance, opts: { auditTrail: AuditTrail; refusals: RefusalTally; clock: Clock }) => {
  app.decorate('recordWriteAttempt', async (request: FastifyRequest) => {
    try {
      await withDeadline(opts.auditTrail.append(attemptRecordOf(request, opts.clock.now())));
    } catch (err) {
      request.log.error({ err }, 'attempt record could not be stored; the EHR is not asked');
      throw new AuditUnavailableError('audit store unavailable');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.operation === undefined) return payload;
    try {
      const now = opts.clock.now();
      if (tallied(request, reply)) await withDeadline(opts.refusals.append(outcomeRecordOf(request, reply, now)));
      else await withDeadline(appendAll(opts.auditTrail, outcomeRecordsOf(request, reply, now)));
      return payload;
    } catch (err) {
      request.log.error({ err }, 'audit record could not be stored');
      if (reply.statusCode >= 400) return payload;
      const failure = toHttpFailure(new AuditUnavailableError('audit store unavailable'));
      removeDataHeaders(reply);
      const fhir = request.routeOptions.config?.errorShape === 'fhir';
      reply.code(failure.status).headers(failure.headers).header('content-type', fhir ? FHIR_JSON : 'application/json; charset=utf-8');
      return JSON.stringify(errorBody(request, failure.status, failure.message, opts.clock.now()));
    }
  });
}, { name: 'audit' });

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditTrail } from '../../ports/audit-trail.port.js';
import type { Clock } from '../../ports/clock.port.js';
import { attemptRecordOf, outcomeRecordOf, refusedBeforeAuthentication } from '../audit-record.js';
import { errorBody } from '../error-body.js';
import { FHIR_JSON } from '../fhir/operation-outcome.js';
import { toHttpFailure } from '../error-mapping.js';
import type { RefusalTally } from '../refusal-tally.js';
import { removeDataHeaders } from '../data-headers.js';
import { AuditUnavailableError } from './audit-errors.js';

const AUDIT_DEADLINE_MS = 3000;

function withDeadline(p: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AuditUnavailableError('audit store did not answer in time')), AUDIT_DEADLINE_MS);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Exactly one outcome record for every request to a patient-data route, allowed, refused or
 * failed, stored before the answer leaves. If it cannot be stored, data is withheld: the caller
 * gets 503 instead. Refusals before authentication go through the tally, which stores the first
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
      const record = outcomeRecordOf(request, reply, opts.clock.now());
      await withDeadline(refusedBeforeAuthentication(request, reply) ? opts.refusals.append(record) : opts.auditTrail.append(record));
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

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditRecord, AuditTrail } from '../../ports/audit-trail.port.js';
import type { Clock } from '../../ports/clock.port.js';
import { errorBody } from '../error-body.js';
import { toHttpFailure } from '../error-mapping.js';
import { operationOf } from '../operation-of.js';
import { AuditUnavailableError } from './audit-errors.js';

const AUDIT_DEADLINE_MS = 3000;

function outcomeOf(status: number): AuditRecord['outcome'] {
  if (status < 400) return 'allowed';
  return status >= 500 ? 'failed' : 'denied';
}

function recordOf(request: FastifyRequest, reply: FastifyReply, now: number): AuditRecord {
  const token = request.token;
  const record: AuditRecord = {
    time: new Date(now).toISOString(),
    requestId: request.id,
    operation: operationOf(request) ?? 'unknown',
    sourceAddress: request.ip,
    outcome: outcomeOf(reply.statusCode),
    status: reply.statusCode,
  };
  if (token) {
    record.actor = { issuer: token.issuer, subject: token.subject, ...(token.personId ? { personId: token.personId } : {}) };
    if (token.clientId !== undefined) record.clientId = token.clientId;
  }
  if (request.subscription !== undefined) record.subscription = request.subscription;
  if (request.audit?.patientId !== undefined) record.patientId = request.audit.patientId;
  if (request.audit?.delegation !== undefined) record.delegation = request.audit.delegation;
  return record;
}

function withDeadline(p: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AuditUnavailableError('audit store did not answer in time')), AUDIT_DEADLINE_MS);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Exactly one audit record for every request to a patient-data route, allowed, refused or
 * failed, stored before the answer leaves. If it cannot be stored, data is withheld: the caller
 * gets 503 instead.
 */
export const audit = fp(async (app: FastifyInstance, opts: { auditTrail: AuditTrail; clock: Clock }) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.operation === undefined) return payload;
    try {
      await withDeadline(opts.auditTrail.append(recordOf(request, reply, opts.clock.now())));
      return payload;
    } catch (err) {
      request.log.error({ err }, 'audit record could not be stored');
      if (reply.statusCode >= 400) return payload;
      const failure = toHttpFailure(new AuditUnavailableError('audit store unavailable'));
      reply.code(failure.status).headers(failure.headers).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(errorBody(request, failure.status, failure.message, opts.clock.now()));
    }
  });
}, { name: 'audit' });

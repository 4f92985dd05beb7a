import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../ports/clock.port.js';
import { answerShapeOf, errorBody } from './error-body.js';
import { FHIR_JSON } from './fhir/operation-outcome.js';
import { toHttpFailure, type HttpFailure } from './error-mapping.js';
import { removeDataHeaders } from './data-headers.js';

/**
 * A refused token's diagnostics on the FHIR door: the contract's words and the challenge's reason (RFC 6750 §3's
 * `error_description`: expired, another issuer, ...), in words a person can act on; only the header said why
 * (newcomer walk-through helper-193, F4). The COS door's message is the contract's text alone (docs/contract.md#errors).
 */
function withChallengeReason(failure: HttpFailure): string {
  if (failure.status !== 401) return failure.message;
  const reason = /error_description="([^"]+)"/.exec(failure.headers['www-authenticate'] ?? '')?.[1];
  return reason === undefined || failure.message.includes(reason) ? failure.message : `${failure.message} ${reason}`;
}

/**
 * One error currency, mapped once: every thrown error becomes the documented status, headers and
 * body shape, without the headers that describe a successful answer's data. Causes of 5xx are
 * logged here (they carry no personal data); none reaches the caller.
 */
export const errorHandler = fp(async (app: FastifyInstance, opts: { clock: Clock; basePath?: string }) => {
  app.setErrorHandler(async (err, request, reply) => {
    const failure = toHttpFailure(err, answerShapeOf(request, opts.basePath ?? '') === 'fhir' ? 'fhir' : 'cos');
    if (failure.fault) request.log.error({ err }, 'request failed');
    removeDataHeaders(reply);
    reply.code(failure.status).headers(failure.headers);
    const shape = answerShapeOf(request, opts.basePath ?? '', failure.errorShape);
    if (shape === 'fhir') reply.type(FHIR_JSON);
    return errorBody(request, failure.status, shape === 'fhir' ? withChallengeReason(failure) : failure.message, opts.clock.now(), shape);
  });

  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404);
    const shape = answerShapeOf(request, opts.basePath ?? '');
    if (shape === 'fhir') reply.type(FHIR_JSON);
    return errorBody(request, 404, 'Not found.', opts.clock.now(), shape);
  });
}, { name: 'error-handler' });

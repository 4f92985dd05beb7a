import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { parsePersonalIdentityNumber } from '../domain/identity/personal-identity-number.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

// Digit runs written like an identity number: 10 or 12 digits, a separator allowed before the last four.
const NUMBER_SHAPED = /(?<!\d)(\d{6}|\d{8})[-+]?(\d{4})(?!\d)/g;

/**
 * Whether `text` holds a real personal identity or coordination number (date and check digit valid),
 * in its 12- or 10-digit form. Digits that only have the shape of one (1 random UUID in 85 has such
 * a run) are not, or a caller's UUIDs would be replaced that often.
 */
function carriesIdentityNumber(text: string): boolean {
  for (const [, head = '', tail = ''] of text.matchAll(NUMBER_SHAPED)) {
    const candidates = head.length === 8 ? [head + tail] : ['18', '19', '20'].map((century) => century + head + tail);
    if (candidates.some((candidate) => parsePersonalIdentityNumber(candidate) !== undefined)) return true;
  }
  return false;
}

/**
 * The request's id: the caller's X-Request-Id if it is short and plain, so it can never forge a log
 * line, and carries no identity number, since the id is written to every log line and audit record
 * of the request; otherwise a fresh one.
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) && !carriesIdentityNumber(given) ? given : randomUUID();
}

/**
 * The service's own id of the request, for the audit trail: a caller can repeat or forge its
 * X-Request-Id, so the service keeps one of its own beside it. Where the service made the request
 * id itself, it is that one; else a fresh one, made once per request.
 */
export function serviceRequestIdOf(request: FastifyRequest): string {
  request.serviceRequestId ??= request.headers['x-request-id'] === request.id ? randomUUID() : request.id;
  return request.serviceRequestId;
}

import type { FastifyRequest } from 'fastify';
import type { LogViewer } from '../domain/access-log/access-log-entry.js';

/**
 * Who reads an access log, as both doors tell the log (routes/access-log-route.ts, fhir/audit-events.ts):
 * the person, whose own number an entry may show them (`viewer`), and whom a page cursor is bound to
 * (`caller`: the person and the app, a client token's app alone), so a `next` link handed to another
 * person or app is refused, not followed. Not the token's issuer or subject, which instances behind one
 * address may word differently.
 */
export function logReaderOf(request: FastifyRequest): { viewer: LogViewer; caller: string } {
  const token = request.token;
  return {
    viewer: token?.personId === undefined ? {} : { personId: token.personId },
    caller: JSON.stringify([token?.personId ?? '', token?.clientId ?? token?.subject ?? '']),
  };
}

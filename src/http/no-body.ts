import type { FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

/**
 * A route that reads no body refuses one (400), on both doors: a body it passed over would seem to be
 * taken and never be (a revoke "with a reason", categories on an accept). An empty body sent as JSON
 * is no body (src/http/json-body.ts). `route` names it as the caller called it: `DELETE /fhir/Consent/{id}`.
 */
export function refuseBody(request: FastifyRequest, route: string): void {
  if (request.body !== undefined) throw new DomainError('INVALID_REQUEST', `${route} takes no body: send none.`);
}

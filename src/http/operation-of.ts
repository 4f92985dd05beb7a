import type { FastifyRequest } from 'fastify';
import type { AuditedOperation } from '../domain/operations/fhir-operations.js';

/**
 * The operation a request is for, from its route's configuration: one route may serve two
 * operations told apart by `api-version` (the patient read and its v2 layout). Known before any
 * hook runs, so a request refused early is audited and counted under the right name; a route that
 * learns more of what it was asked (a Subscription's topic) names it in `request.audit.operation`.
 */
export function operationOf(request: FastifyRequest): AuditedOperation | undefined {
  // `audit` is set per request in onRequest; a request refused before it has none.
  const named = request.audit?.operation;
  if (named !== undefined) return named;
  const config = request.routeOptions.config;
  const version = (request.query as Record<string, unknown> | undefined)?.['api-version'];
  const byVersion = typeof version === 'string' && config?.operationByVersion !== undefined && Object.hasOwn(config.operationByVersion, version)
    ? config.operationByVersion[version]
    : undefined;
  return byVersion ?? config?.operation;
}

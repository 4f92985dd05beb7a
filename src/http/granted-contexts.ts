import type { FastifyRequest } from 'fastify';
import type { ScopeContext } from '../domain/fhir/smart-scopes.js';
import type { OperationName } from '../domain/operations/table.js';
import type { VerifiedToken } from '../ports/access-token-verifier.port.js';

/**
 * The contexts the token's scopes grant `operation` in on the COS door (ScopeGrants.operationContexts),
 * decided once a request and kept on it: the credentials check, whom the request may name and the
 * access decision each ask, and must each get the same answer.
 */
export function grantedContexts(request: FastifyRequest, token: VerifiedToken, operation: OperationName): ReadonlySet<ScopeContext> {
  const kept = request.operationGrant;
  if (kept !== undefined && kept.token === token && kept.operation === operation) return kept.contexts;
  const contexts = request.server.scopeGrants.operationContexts(token.grantedScopes ?? token.scopes, operation, token);
  request.operationGrant = { token, operation, contexts };
  return contexts;
}

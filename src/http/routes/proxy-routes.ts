/**
 * Sharing one's record (docs/contract.md §11): the COS door of the ProxyGrants use case. Only a
 * person acting for themselves reaches it; each request is audited in the grantor's access log,
 * naming the grant and the caller's side of it, and a change is audited as an attempt before
 * anything is kept (with the audit store down, nothing changes).
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { contextsReaching, reaches } from '../../domain/access/scope-reach.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { DomainError } from '../../domain/errors.js';
import type { ProxyOperation } from '../../domain/operations/operation.js';
import { OPERATIONS, type OperationName } from '../../domain/operations/table.js';
import type { BeforeChange, ProxyGrants } from '../../domain/proxies/proxy-grants.js';
import type { GrantRequest } from '../../domain/proxies/grant-request.js';
import { plainView, roleOf, type DatedGrantView } from '../../domain/proxies/grant.js';
import { grantedContexts } from '../granted-contexts.js';
import { refuseBody } from '../no-body.js';
import { readBeyondLaunchRefusal, SHARING_REFUSED } from '../sharing-refusals.js';
import { named } from '../openapi/schema-names.js';
import type { ApiRoute } from './api-routes.js';
import type { RouteDependencies } from './dependencies.js';
import type { RouteKind } from './route-parts.js';

const proxyOf = (route: ApiRoute): ProxyOperation => {
  const op = OPERATIONS[route.operations[0]];
  if (op.handler !== 'proxy') throw new Error(`${route.operations[0]} is not a sharing operation`);
  return op;
};

/**
 * The person the request is by, acting for themselves: a person token, without a `patient` header
 * naming someone else. A change needs a token not launched for another patient; a person reads their
 * own grants under a launch for someone else only where the token's scopes reach beyond the launch
 * patient (a `user/` form), as any read of their own would (scope-reach.ts). Anything else is 403.
 */
function selfOf(request: FastifyRequest, deps: RouteDependencies, name: OperationName, op: ProxyOperation): string {
  const header = request.headers.patient;
  // A malformed header is refused for its form (400) before any right is decided, as on every route.
  const named = header === undefined ? undefined : deps.accessPolicy.targetPatient({}, typeof header === 'string' ? header : '');
  // A refusal to act for another is audited under the patient named, as on every route.
  if (named !== undefined) request.audit.patientId = named;
  const token = request.token;
  const self = token?.personId === undefined ? undefined : parsePersonalIdentityNumber(token.personId);
  if (token === undefined || self === undefined) throw new DomainError('FORBIDDEN', SHARING_REFUSED.notAPerson);
  if (named !== undefined && named !== self) throw new DomainError('FORBIDDEN', SHARING_REFUSED.patientHeader);
  const caller = { personId: self, ...(token.smartPatient === undefined ? {} : { smartPatient: token.smartPatient }) };
  const launch = deps.accessPolicy.launchPatientOf(caller);
  if (launch === self) return self;
  if (op.changes) throw new DomainError('FORBIDDEN', SHARING_REFUSED.forSomeoneElse);
  if (!reaches(grantedContexts(request, token, name), contextsReaching(caller, launch, self))) throw readBeyondLaunchRefusal(op.scope.name, 'the sharing routes');
  return self;
}

/** The grant's side in the audit: the grantor's access log holds it, as the grantor's own act or a proxy's. */
function noteGrant(request: FastifyRequest, view: { id: string; grantor: string }, personId: string): void {
  request.audit.patientId = view.grantor;
  request.audit.proxyGrantId = view.id;
  request.audit.delegation = view.grantor === personId ? 'self' : 'proxy';
}

/** The BeforeChange of the use case: audit fields, then (for a change) the attempt stored before anything is kept. */
const beforeChange = (request: FastifyRequest, personId: string): BeforeChange => async (grant, changes) => {
  if (roleOf(grant, personId) === undefined) throw new Error('a grant not the caller\'s reached the change');
  noteGrant(request, grant, personId);
  if (changes) await request.server.recordWriteAttempt(request);
};

type Call = (grants: ProxyGrants, request: FastifyRequest, personId: string) => Promise<DatedGrantView | DatedGrantView[]>;

const idOf = (request: FastifyRequest): string => (request.params as { id: string }).id;

const CALLS: Readonly<Record<ProxyOperation['action'], Call>> = {
  list: (grants, _request, personId) => grants.list(personId),
  get: async (grants, request, personId) => {
    const view = await grants.get(personId, idOf(request));
    noteGrant(request, { id: view.id, grantor: view.grantor.identityNumber }, personId);
    return view;
  },
  grant: (grants, request, personId) => grants.give(personId, request.body as GrantRequest, beforeChange(request, personId)),
  accept: (grants, request, personId) => grants.accept(personId, idOf(request), beforeChange(request, personId)),
  decline: (grants, request, personId) => grants.decline(personId, idOf(request), beforeChange(request, personId)),
  revoke: (grants, request, personId) => grants.revoke(personId, idOf(request), beforeChange(request, personId)),
};

/** One sharing operation's route: answers serialised through the grant's schema, so nothing else leaves. */
export const proxyRoute: RouteKind = (route, deps) => {
  const [name] = route.operations;
  const op = proxyOf(route);
  const item = named(op.answer.item, op.answer.schemaName);
  const call = CALLS[op.action];
  return {
    ok: op.answer.array ? Type.Array(item, { maxItems: 10_000 }) : item,
    ...(op.answer.status === 201 ? { okStatus: 201 as const } : {}),
    ...(op.body === undefined ? {} : { body: op.body }),
    ...(op.params === undefined ? {} : { params: op.params }),
    handle: async (request, reply) => {
      if (deps.proxyGrants === undefined) throw new DomainError('FORBIDDEN', SHARING_REFUSED.notOffered);
      // A step of a grant changes nothing but its state: a body (categories, times) would seem to be taken and never be.
      if (op.body === undefined) refuseBody(request, `${op.method} ${op.path}`);
      const personId = selfOf(request, deps, name, op);
      // Until a grant names someone else, the request is the caller's own.
      request.audit.patientId = personId;
      request.audit.delegation = 'self';
      // The id asked about, of the path's form already: a refusal (someone else's, or a step not the caller's) names it too.
      if (op.params !== undefined) request.audit.proxyGrantId = idOf(request);
      const dated = await call(deps.proxyGrants, request, personId);
      const answer = Array.isArray(dated) ? dated.map(plainView) : plainView(dated);
      if (op.answer.status === 201 && !Array.isArray(answer)) {
        const path = (request.url.split('?')[0] ?? '').replace(/\/?$/, '/');
        reply.code(201).header('location', `${path}${answer.id}`);
      }
      return answer;
    },
  };
};

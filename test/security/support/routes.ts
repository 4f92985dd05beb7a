import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../../src/domain/operations/table.js';
import type { Operation } from '../../../src/domain/operations/operation.js';
import { DEMO, withCheckDigit } from './oracles.js';

/**
 * Every operation of the operation table as a row the security suites are driven from
 * (docs/contract.md#errors, #reads), derived from the table: a new operation is covered by the
 * BOLA, token, fuzzing, method and audit suites without an edit here. Each row says how to make a
 * valid request, which query parameters the route declares, which error shape it answers in and
 * which statuses it may answer at all.
 */
export interface RouteCase {
  operation: OperationName;
  method: Operation['method'];
  /** Path with its trailing slash, without a query; a path parameter (`{id}`) filled with a valid one nobody has. */
  path: string;
  /** Query of a valid request (without the leading `?`). */
  query: Record<string, string>;
  /** Query parameters the route declares; any other is 400. */
  declaredQuery: readonly string[];
  /** A valid body for the writes and a new grant. */
  body?: Record<string, unknown>;
  /** shape 1 `{statusCode, message}` or shape 2 `{error, path, status, timestamp}`. */
  errorShape: 'status' | 'error';
  /** Top-level JSON type of a 200 answer. */
  okType: 'array' | 'object';
  /** Takes a body and may change something (the two writes and a new grant): audited as an attempt first. */
  write: boolean;
  /** May change something (the two writes and the four sharing changes): a success is audited as an attempt first. */
  changes: boolean;
  /** Sharing (docs/contract.md §11): a person's own grants, 404 for an id that is not theirs, 409 for a change that cannot be made. */
  proxy: boolean;
  /** The status of a valid request's success (201 for a new grant). */
  okStatus: 200 | 201;
}

/** An id no patient has: answered `ERROR` / `CONTACT_NOT_FOUND`, and never changes state. */
export const UNKNOWN_CONTACT_ID = '99999999999';

/** A grant id of the right form that no grant has: answered 404, as another person's grant is. */
export const UNKNOWN_GRANT_ID = '0123456789abcdef0123456789abcdef';

/** Values for the path parameters, by name. */
const PATH_VALUES: Readonly<Record<string, string>> = { id: UNKNOWN_GRANT_ID };

/** A valid grant: Märta's number, one category. A request of the table (requestOf) names a fresh grantee instead. */
const GRANT_BODY = { grantee: '198112189876', categories: ['LabResult'] };

let granteeSerial = 0;
/**
 * A valid adult's number no one else was given a grant to in this process (born in 1960, never a demo
 * person): each valid grant the suites send is a new one (201), so a repeat (409) is never mistaken for it.
 */
export function freshGrantee(): string {
  const n = granteeSerial++;
  const month = String(1 + (Math.floor(n / 28_000) % 12)).padStart(2, '0');
  const day = String(1 + (Math.floor(n / 1000) % 28)).padStart(2, '0');
  return withCheckDigit(`1960${month}${day}${String(n % 1000).padStart(3, '0')}`);
}

/** The valid body of `route`'s request: a new grant names a fresh grantee every time. */
export function validBodyOf(route: RouteCase): Record<string, unknown> | undefined {
  return route.operation === 'grantProxy' && route.body !== undefined ? { ...route.body, grantee: freshGrantee() } : route.body;
}

/** Values for the query parameters an operation requires, by parameter name. */
const REQUIRED_QUERY_VALUES: Readonly<Record<string, string>> = { id: UNKNOWN_CONTACT_ID };

/** A valid body of each kind of write, naming no real appointment. */
const WRITE_BODIES: Readonly<Record<'arrival' | 'payment', Record<string, string>>> = {
  arrival: { status: 'arrived' },
  payment: { status: 'PAID', contactId: UNKNOWN_CONTACT_ID, paymentType: 'CARD' },
};

function validQuery(op: Operation): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of op.query.required ?? []) {
    const value = REQUIRED_QUERY_VALUES[name];
    if (value === undefined) throw new Error(`no test value for the required query parameter ${name}`);
    query[name] = value;
  }
  if (op.apiVersion?.value !== undefined) query['api-version'] = op.apiVersion.value;
  return query;
}

function filledPath(path: string): string {
  return path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const value = PATH_VALUES[name];
    if (value === undefined) throw new Error(`no test value for the path parameter ${name}`);
    return value;
  });
}

function bodyOf(op: Operation): Record<string, unknown> | undefined {
  if (op.handler === 'arrival' || op.handler === 'payment') return WRITE_BODIES[op.handler];
  if (op.handler === 'proxy' && op.body !== undefined) return GRANT_BODY;
  return undefined;
}

function routeCase(operation: OperationName): RouteCase {
  const op: Operation = OPERATIONS[operation];
  const body = bodyOf(op);
  const answer = op.handler === 'arrival' || op.handler === 'payment' || op.handler === 'proxy' ? op.answer : undefined;
  return {
    operation,
    method: op.method,
    path: filledPath(op.path),
    query: validQuery(op),
    declaredQuery: Object.keys(op.query.properties),
    ...(body === undefined ? {} : { body }),
    errorShape: op.errorShape,
    okType: answer !== undefined && !answer.array ? 'object' : 'array',
    write: body !== undefined,
    changes: body !== undefined || (op.handler === 'proxy' && op.changes),
    proxy: op.handler === 'proxy',
    okStatus: op.handler === 'proxy' ? op.answer.status : 200,
  };
}

export const ROUTES: readonly RouteCase[] = OPERATION_NAMES.map(routeCase);

/** What changes nothing: the reads, the access log, and the list and one grant of sharing. */
export const READ_ROUTES = ROUTES.filter((r) => !r.changes);

/** Of the demo people (src/dev/demo-data), those who may not give a grant: Lilla is a child, Sara's identity is protected. */
const MAY_NOT_SHARE: ReadonlySet<string> = new Set([DEMO.LILLA, DEMO.SARA]);

/**
 * What a valid request of `route` answers (docs/contract.md §11, #errors). `allowed`: whether the
 * caller may act for the patient the request names, which decides every read and write (200 or 403).
 * Sharing serves only a person acting for themselves (`self`: the person, no header naming another,
 * no launch for another patient): their list 200, a grant id they do not have 404, a new grant 201
 * (403 for a child or a protected identity); anyone acting for another, and every client token, 403.
 */
export function expectedAnswer(route: RouteCase, who: { allowed: boolean; self?: string }): number {
  if (!route.proxy) return who.allowed ? 200 : 403;
  if (who.self === undefined) return 403;
  if (route.operation === 'grantProxy') return MAY_NOT_SHARE.has(who.self) ? 403 : 201;
  return route.path.includes(UNKNOWN_GRANT_ID) ? 404 : 200;
}

export const WRITE_ROUTES = ROUTES.filter((r) => r.write);
/** The reads that take `fromDateTime`/`toDateTime`: six of the spec's and the access log. */
export const TIME_FILTERED_ROUTES = ROUTES.filter((r) => r.declaredQuery?.includes('fromDateTime'));

export function routeByOperation(operation: OperationName): RouteCase {
  const route = ROUTES.find((r) => r.operation === operation);
  if (!route) throw new Error(`no route ${operation}`);
  return route;
}

/** Encodes a query (names and values), in the order given. `extra` pairs may repeat names. */
export function queryString(query: Record<string, string>, extra: ReadonlyArray<readonly [string, string]> = []): string {
  const pairs = [...Object.entries(query), ...extra].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The URL of a valid request of `route`, with `extra` query pairs appended. */
export function urlOf(route: RouteCase, extra: ReadonlyArray<readonly [string, string]> = [], query: Record<string, string> = route.query): string {
  return `${route.path}${queryString(query, extra)}`;
}

/** Inject options of a valid request of `route` (body JSON-encoded for the writes). */
export function requestOf(route: RouteCase, overrides: { url?: string; body?: unknown } = {}): {
  method: RouteCase['method']; url: string; payload?: string; headers?: Record<string, string>;
} {
  const body = overrides.body ?? validBodyOf(route);
  return {
    method: route.method,
    url: overrides.url ?? urlOf(route),
    ...(route.write ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  };
}

/**
 * Statuses docs/contract.md#errors documents for a route of this service over the embedded EHR: 502/504 need a
 * remote EHR and are not expected here, 413/415 exist only where there is a body to refuse. 500 is
 * never documented for this service.
 */
export function documentedStatuses(route: RouteCase, options: { remoteEhr?: boolean } = {}): readonly number[] {
  const base = [route.okStatus, 400, 401, 403, 429, 503];
  if (route.write) base.push(413, 415);
  if (route.proxy) base.push(404, 409);
  if (options.remoteEhr) base.push(502, 504);
  return base;
}

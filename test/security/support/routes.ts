import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../../src/domain/operations/table.js';
import type { Operation } from '../../../src/domain/operations/operation.js';

/**
 * Every operation of the operation table as a row the security suites are driven from
 * (docs/contract.md#errors, #reads), derived from the table: a new operation is covered by the
 * BOLA, token, fuzzing, method and audit suites without an edit here. Each row says how to make a
 * valid request, which query parameters the route declares, which error shape it answers in and
 * which statuses it may answer at all.
 */
export interface RouteCase {
  operation: OperationName;
  method: 'GET' | 'PUT' | 'POST';
  /** Path with its trailing slash, without a query. */
  path: string;
  /** Query of a valid request (without the leading `?`). */
  query: Record<string, string>;
  /** Query parameters the route declares; any other is 400. */
  declaredQuery: readonly string[];
  /** A valid body for the two writes. */
  body?: Record<string, string>;
  /** shape 1 `{statusCode, message}` or shape 2 `{error, path, status, timestamp}`. */
  errorShape: 'status' | 'error';
  /** Top-level JSON type of a 200 answer. */
  okType: 'array' | 'object';
  write: boolean;
}

/** An id no patient has: answered `ERROR` / `CONTACT_NOT_FOUND`, and never changes state. */
export const UNKNOWN_CONTACT_ID = '99999999999';

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

function routeCase(operation: OperationName): RouteCase {
  const op: Operation = OPERATIONS[operation];
  const write = op.handler === 'arrival' || op.handler === 'payment' ? op : undefined;
  return {
    operation,
    method: op.method,
    path: op.path,
    query: validQuery(op),
    declaredQuery: Object.keys(op.query.properties),
    ...(write === undefined ? {} : { body: WRITE_BODIES[write.handler] }),
    errorShape: op.errorShape,
    okType: write !== undefined && !write.answer.array ? 'object' : 'array',
    write: write !== undefined,
  };
}

export const ROUTES: readonly RouteCase[] = OPERATION_NAMES.map(routeCase);

export const READ_ROUTES = ROUTES.filter((r) => !r.write);
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
  const body = overrides.body ?? route.body;
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
  const base = [200, 400, 401, 403, 429, 503];
  if (route.write) base.push(413, 415);
  if (options.remoteEhr) base.push(502, 504);
  return base;
}

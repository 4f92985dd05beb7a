import type { OperationName } from '../../../src/domain/access/operations.js';

/**
 * The ten operations of the spec and the patient's access log (CONTRACT §6) as a table the security suites are driven from (CONTRACT §3, §4).
 * Each row says how to make a valid request, which query parameters the route declares, which error
 * shape it answers in and which statuses it may answer at all.
 */
export interface RouteCase {
  operation: OperationName;
  method: 'GET' | 'PUT' | 'POST';
  /** Path with its trailing slash, without a query. */
  path: string;
  /** Query of a valid request (without the leading `?`). */
  query: Record<string, string>;
  /** Query parameters the route declares; any other is 400. `undefined`: the route declares no query schema. */
  declaredQuery: readonly string[] | undefined;
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

export const ROUTES: readonly RouteCase[] = [
  {
    operation: 'registerPayment', method: 'POST', path: '/patients/paymentnotice/', query: {}, declaredQuery: undefined,
    body: { status: 'PAID', contactId: UNKNOWN_CONTACT_ID, paymentType: 'CARD' }, errorShape: 'status', okType: 'array', write: true,
  },
  {
    operation: 'changeAppointment', method: 'PUT', path: '/patients/appointments/', query: { id: UNKNOWN_CONTACT_ID }, declaredQuery: ['id'],
    body: { status: 'arrived' }, errorShape: 'status', okType: 'object', write: true,
  },
  { operation: 'getAppointments', method: 'GET', path: '/patients/appointments/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime'], errorShape: 'status', okType: 'array', write: false },
  { operation: 'getPatient', method: 'GET', path: '/patients/patient/', query: {}, declaredQuery: ['api-version'], errorShape: 'status', okType: 'array', write: false },
  { operation: 'getPatientV2', method: 'GET', path: '/patients/patient/', query: { 'api-version': 'v2' }, declaredQuery: ['api-version'], errorShape: 'status', okType: 'array', write: false },
  { operation: 'getContacts', method: 'GET', path: '/patients/contacts/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime', 'api-version'], errorShape: 'error', okType: 'array', write: false },
  { operation: 'getAttentionSignals', method: 'GET', path: '/patients/attentionsignals/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime'], errorShape: 'error', okType: 'array', write: false },
  { operation: 'getVideoMeetings', method: 'GET', path: '/patients/videomeetings/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime'], errorShape: 'error', okType: 'array', write: false },
  { operation: 'getMedications', method: 'GET', path: '/patients/medications/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime'], errorShape: 'status', okType: 'array', write: false },
  { operation: 'getJournalNotes', method: 'GET', path: '/patients/journalnotes/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime'], errorShape: 'status', okType: 'array', write: false },
  {
    operation: 'getAccessLog', method: 'GET', path: '/patients/accesslog/', query: {}, declaredQuery: ['fromDateTime', 'toDateTime', 'limit', 'cursor'],
    errorShape: 'status', okType: 'array', write: false,
  },
];

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
 * Statuses CONTRACT §3 documents for a route of this service over the embedded EHR: 502/504 need a
 * remote EHR and are not expected here, 413/415 exist only where there is a body to refuse. 500 is
 * never documented for this service.
 */
export function documentedStatuses(route: RouteCase, options: { remoteEhr?: boolean } = {}): readonly number[] {
  const base = [200, 400, 401, 403, 429, 503];
  if (route.write) base.push(413, 415);
  if (options.remoteEhr) base.push(502, 504);
  return base;
}

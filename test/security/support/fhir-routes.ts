/**
 * Every route of the FHIR API (docs/fhir-api.md) as a row the security suites are driven
 * from, derived from what the API serves (`servedTypes(fhirForms())`, the list GET /fhir/metadata
 * declares): per type a search (GET), a `_search` (POST with a form body) and a read by id, under both
 * prefixes. A type the API starts serving is attacked by the BOLA, token, fuzzing, method and log
 * suites without an edit here. The checks of an answer (`fhirAnswerProblems`) are written from the
 * contract, not from src/: an OperationOutcome with one issue whose code follows the status.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { FHIR_PREFIXES, servedTypes, type TypeServing } from '../../../src/http/fhir/fhir-api.js';
import { SEARCH_PARAMETERS, type FhirType, type TypeSearch } from '../../../src/domain/fhir/search-parameters.js';
import type { OperationName } from '../../../src/domain/operations/table.js';
import { fhirForms } from '../../../src/start/fhir-api.js';
import { identityNumbersIn, isIdentityNumber, percentDecoded } from '../../support/log-grep.js';
import { TEST_FHIR_IDS } from '../../support/test-app.js';
import { LEAKS, type Answer } from './shape.js';

export type FhirPrefix = (typeof FHIR_PREFIXES)[number];
export type FhirInteraction = 'search' | 'search-post' | 'read';

export interface FhirRouteCase {
  type: FhirType;
  prefix: FhirPrefix;
  interaction: FhirInteraction;
  method: 'GET' | 'POST';
  /** The path below the base, without a query; a read's ends in the id, given per request. */
  path: string;
  /** The operation the type's requests are audited under: its first read's, the access log's for AuditEvent. */
  operation: OperationName;
  /** Served only as what a patient's records reference (Organization …). */
  referenced: boolean;
  /** The reads whose records are of the type, or (of a referenced type) may name it. */
  reads: readonly OperationName[];
  /** `<Type>:<param>` of every `_include` the type declares. */
  includes: string[];
  /** The type's date parameter, where it has one. */
  dateParam?: string;
  /** The type's token parameters (`status`, `category` …). */
  tokenParams: string[];
  label: string;
}

export const SERVED: readonly TypeServing[] = servedTypes(fhirForms());
export const FHIR_TYPES_SERVED: readonly FhirType[] = SERVED.map((s) => s.type);
/** Types with a read by id: AuditEvent is searched only (a read is 405). */
export const READABLE_TYPES: readonly FhirType[] = FHIR_TYPES_SERVED.filter((type) => type !== 'AuditEvent');

const operationOf = (serving: TypeServing): OperationName => {
  if (serving.type === 'AuditEvent') return 'getAccessLog';
  const [first] = serving.reads;
  if (first === undefined) throw new Error(`no read serves ${serving.type}`);
  return first;
};

const searchOf = (type: FhirType): TypeSearch => SEARCH_PARAMETERS[type];

function routeCase(serving: TypeServing, prefix: FhirPrefix, interaction: FhirInteraction): FhirRouteCase {
  const def = searchOf(serving.type);
  const path = interaction === 'search' ? `${prefix}/${serving.type}` : interaction === 'search-post' ? `${prefix}/${serving.type}/_search` : `${prefix}/${serving.type}/`;
  return {
    type: serving.type, prefix, interaction, method: interaction === 'search-post' ? 'POST' : 'GET', path,
    operation: operationOf(serving), referenced: serving.referenced, reads: serving.reads,
    includes: Object.keys(def.references ?? {}).map((param) => `${serving.type}:${param}`),
    ...(def.date === undefined ? {} : { dateParam: def.date.param }),
    tokenParams: Object.keys(def.tokens ?? {}),
    label: `${interaction === 'search-post' ? 'POST' : 'GET'} ${path}${interaction === 'read' ? '<id>' : ''}`,
  };
}

/** Every route: both prefixes, every type served, search, `_search` and (where served) read. */
export const FHIR_ROUTES: readonly FhirRouteCase[] = FHIR_PREFIXES.flatMap((prefix) => SERVED.flatMap((serving) => [
  routeCase(serving, prefix, 'search'), routeCase(serving, prefix, 'search-post'),
  ...(serving.type === 'AuditEvent' ? [] : [routeCase(serving, prefix, 'read')]),
]));
export const FHIR_SEARCH_ROUTES = FHIR_ROUTES.filter((r) => r.interaction !== 'read');

/**
 * The grants a person gave, as Consent (docs/contract.md §11 "FHIR", src/http/fhir/consent-routes.ts):
 * declared by the statement when PROXY_GRANTS is on, as in every security app (runs.ts STEADY). Not a
 * row of FHIR_ROUTES: no read of the record (no `_search`, no type search parameters), it is created
 * and deleted, and only a scope naming Consent reaches it: a wildcard such as `patient/*.read` is 403.
 */
export const CONSENT = 'Consent';

export interface ConsentPath {
  prefix: FhirPrefix;
  /** The path below the base; a grant's ends in the id, given per request. */
  path: string;
  byId: boolean;
  /** What follows the id (an operation, `/$status`). */
  suffix?: string;
  /** The methods the path serves, as its Allow names them. */
  allow: readonly string[];
}

/** The URL of `path` with `id` where it takes one. */
export const pathUrl = (path: ConsentPath, id: string): string => (path.byId ? `${path.path}${id}${path.suffix ?? ''}` : path.path);

/** The Consent paths under both prefixes: the search and create, and a grant's read and delete. */
export const CONSENT_PATHS: readonly ConsentPath[] = FHIR_PREFIXES.flatMap((prefix) => [
  { prefix, path: `${prefix}/${CONSENT}`, byId: false, allow: ['GET', 'HEAD', 'POST'] },
  { prefix, path: `${prefix}/${CONSENT}/`, byId: true, allow: ['GET', 'HEAD', 'DELETE'] },
]);

/**
 * A person's Subscriptions (docs/fhir-api.md#subscriptions, src/http/fhir/subscription-routes.ts): declared when
 * SUBSCRIPTIONS is on, as in every security app (runs.ts STEADY). Not a row of FHIR_ROUTES either: no
 * read of the record; created and deleted, asked after by `$status` and `$events`, and only a scope
 * naming Subscription reaches it: a wildcard such as `patient/*.read` is 403.
 */
export const SUBSCRIPTION = 'Subscription';

/** The Subscription paths under both prefixes: the search and create, one's read and delete, and its two operations. */
export const SUBSCRIPTION_PATHS: readonly ConsentPath[] = FHIR_PREFIXES.flatMap((prefix) => [
  { prefix, path: `${prefix}/${SUBSCRIPTION}`, byId: false, allow: ['GET', 'HEAD', 'POST'] },
  { prefix, path: `${prefix}/${SUBSCRIPTION}/`, byId: true, allow: ['GET', 'HEAD', 'DELETE'] },
  { prefix, path: `${prefix}/${SUBSCRIPTION}/`, byId: true, suffix: '/$status', allow: ['GET', 'HEAD'] },
  { prefix, path: `${prefix}/${SUBSCRIPTION}/`, byId: true, suffix: '/$events', allow: ['GET', 'HEAD'] },
]);

/** Every type the CapabilityStatement declares with sharing and subscriptions on: the record's types, Consent and Subscription. */
export const FHIR_STATEMENT_TYPES: readonly string[] = [...FHIR_TYPES_SERVED, CONSENT, SUBSCRIPTION];
export const FHIR_READ_ROUTES = FHIR_ROUTES.filter((r) => r.interaction === 'read');

/** Every `_revinclude` any type declares (`<Type>:<param>`): a revinclude names the type that refers. */
export const ALL_REVINCLUDES: readonly string[] = [...new Set(FHIR_ROUTES.flatMap((r) => r.includes))];

/** A demo person's Patient id under the test apps' key. */
export const pid = (identityNumber: string): string => TEST_FHIR_IDS.patientId(identityNumber);

/** The id with one character changed to another the FHIR id alphabet allows: what an attacker editing an id sends. */
export function flipped(id: string, at = Math.floor(id.length / 2)): string {
  const c = id[at] ?? 'A';
  return `${id.slice(0, at)}${c === 'A' ? 'B' : 'A'}${id.slice(at + 1)}`;
}

/** An id of the FHIR id alphabet that names no resource and no Patient. */
export const MADE_UP_ID = 'no-such-resource-0';

/** The app a SMART token names (client_id): apps send no subscription key, the token names the app. */
export const APP = 'smart-app-security';

/** `a=1&b=2`, each name and value encoded, in the order given. */
export const formOf = (params: ReadonlyArray<readonly [string, string]>): string =>
  params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/**
 * Inject options of a request of `route` with `params` (query for GET, form body for `_search`), the
 * id for a read, and extra query pairs that stay in the URL whatever the route (`query`).
 */
export function fhirRequest(route: FhirRouteCase, options: {
  id?: string; params?: ReadonlyArray<readonly [string, string]>; query?: ReadonlyArray<readonly [string, string]>; headers?: Record<string, string>;
} = {}): InjectOptions & { method: 'GET' | 'POST'; url: string } {
  const params = options.params ?? [];
  if (route.interaction === 'read' && options.id === undefined) throw new Error(`${route.label} needs an id`);
  const inUrl = [...(route.interaction === 'search-post' ? [] : params), ...(options.query ?? [])];
  const query = inUrl.length === 0 ? '' : `?${formOf(inUrl)}`;
  const url = `${route.path}${route.interaction === 'read' ? encodeURIComponent(options.id ?? '') : ''}${query}`;
  if (route.interaction !== 'search-post') return { method: 'GET', url, ...(options.headers ? { headers: options.headers } : {}) };
  return {
    method: 'POST', url, payload: formOf(params),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
  };
}

/** docs/fhir-api.md#errors: the OperationOutcome issue code of each status. */
export const OUTCOME_CODES: Readonly<Record<number, string>> = {
  400: 'invalid', 401: 'login', 403: 'forbidden', 404: 'not-found', 405: 'not-supported', 406: 'not-supported',
  // Not named by §7; FHIR's IssueType for a body too large and for a media type not taken.
  413: 'too-costly', 415: 'not-supported',
  429: 'throttled', 500: 'exception', 502: 'transient', 503: 'transient', 504: 'timeout',
};

const FHIR_JSON = /^application\/fhir\+json; charset=utf-8$/;
const keysOf = (v: object): string => Object.keys(v).sort().join(',');
const contentTypeOf = (answer: Answer): string => String(answer.headers['content-type'] ?? '');

/**
 * Every way an answer of the FHIR API breaks §7: a status not allowed, a server failure, internals
 * shown, an error that is not exactly an OperationOutcome of one issue whose code follows the status
 * (401 with a challenge, 405 with Allow), an identity number in an error body, a 200 that is not
 * the type's resource or a searchset Bundle, or an identity number in an id, a fullUrl or a link.
 * Empty when the answer is fine.
 */
export function fhirAnswerProblems(route: FhirRouteCase | undefined, answer: Answer, options: { allowed?: readonly number[]; method?: string } = {}): string[] {
  const problems: string[] = [];
  const status = answer.statusCode;
  const allowed = options.allowed ?? [200, 400, 401, 403, 404, 406, 413, 415, 429, 503];
  if (!allowed.includes(status)) problems.push(`status ${status} is not one of ${allowed.join('/')}`);
  if (status >= 500 && status !== 503 && options.allowed?.includes(status) !== true) problems.push(`status ${status} is a server failure`);
  for (const [what, pattern] of LEAKS) if (pattern.test(answer.body)) problems.push(`the body shows ${what}`);
  if (options.method === 'HEAD') {
    if (answer.body !== '') problems.push('a HEAD answer has a body');
    return problems;
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  if (status >= 400) {
    if (!FHIR_JSON.test(contentTypeOf(answer))) problems.push(`content-type ${contentTypeOf(answer)} is not application/fhir+json`);
    if (keysOf(body) !== 'issue,resourceType' || body.resourceType !== 'OperationOutcome') return [...problems, `not an OperationOutcome: keys ${keysOf(body)}`];
    const issues = body.issue as Array<Record<string, unknown>>;
    if (!Array.isArray(issues) || issues.length !== 1) return [...problems, 'not exactly one issue'];
    const issue = issues[0] as Record<string, unknown>;
    if (keysOf(issue) !== 'code,diagnostics,severity') problems.push(`issue keys ${keysOf(issue)}`);
    if (issue.severity !== 'error') problems.push(`severity ${String(issue.severity)}`);
    if (issue.code !== OUTCOME_CODES[status]) problems.push(`code ${String(issue.code)} for status ${status}`);
    if (typeof issue.diagnostics !== 'string' || issue.diagnostics.length === 0 || issue.diagnostics.length > 400) problems.push('diagnostics is not a short text');
    if (identityNumbersIn(answer.body).length > 0) problems.push('an error body holds an identity number');
    if (status === 401 && answer.headers['www-authenticate'] === undefined) problems.push('a 401 without WWW-Authenticate');
    if (status === 405 && answer.headers.allow === undefined) problems.push('a 405 without Allow');
    return problems;
  }
  if (status === 200 && route !== undefined) {
    if (route.interaction === 'read' ? body.resourceType !== route.type : body.resourceType !== 'Bundle' || body.type !== 'searchset') {
      problems.push(`a 200 of ${route.label} is a ${String(body.resourceType)}`);
    }
    const inAddresses = addressesOf(body).flatMap(identityNumbersInAddress);
    if (inAddresses.length > 0) problems.push(`an id, fullUrl or link holds an identity number (${inAddresses.join(', ')})`);
  }
  return problems;
}

/** Every id, fullUrl, link and reference of an answer: where §7 says no identity number ever appears. */
export function addressesOf(body: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string') {
      if (['id', 'fullUrl', 'url', 'reference'].includes(key)) out.push(v);
    } else if (Array.isArray(v)) {
      v.forEach((x) => walk(x, key));
    } else if (v !== null && typeof v === 'object') {
      // An Identifier's value is the record's identifier, not an address: a Patient carries its number there by design.
      for (const [k, x] of Object.entries(v)) if (!(k === 'value' || k === 'identifier')) walk(x, k);
    }
  };
  walk(body, '');
  return out;
}

/**
 * The identity numbers an address shows as a person reads it, percent-encoding undone and fullwidth
 * digits folded: a whole run of 12 digits, or 8 and 4 around a hyphen, that is a valid number. Unlike a
 * log grep it neither joins digits across other separators nor looks inside longer runs (as
 * UsedSecrets.foundIn): an `_id` list of 14-digit product codes joined by commas names nobody.
 */
export function identityNumbersInAddress(address: string): string[] {
  const found = new Set<string>();
  for (const [run] of percentDecoded(address).normalize('NFKC').matchAll(/(?<![0-9])(?:[0-9]{12}|[0-9]{8}-[0-9]{4})(?![0-9])/g)) {
    const digits = run.replace('-', '');
    if (isIdentityNumber(digits)) found.add(digits);
  }
  return [...found];
}

/** Throws, naming the request, unless the answer keeps §7 (fhirAnswerProblems). */
export function expectFhirAnswer(route: FhirRouteCase | undefined, res: Answer | LightMyRequestResponse, label: string, options: { allowed?: readonly number[]; method?: string } = {}): void {
  const answer: Answer = { statusCode: res.statusCode, headers: res.headers, body: res.body };
  const problems = fhirAnswerProblems(route, answer, options);
  if (problems.length > 0) throw new Error(`${label}: ${problems.join('; ')} (status ${answer.statusCode}, body ${answer.body.slice(0, 300)})`);
}

/** The one issue of an OperationOutcome answer. */
export function issueOf(res: Answer | LightMyRequestResponse): { code: string; diagnostics: string } {
  const body = JSON.parse(res.body) as { issue?: Array<{ code: string; diagnostics: string }> };
  const issue = body.issue?.[0];
  if (issue === undefined) throw new Error(`not an OperationOutcome: ${res.body.slice(0, 200)}`);
  return issue;
}

export interface SearchBundle {
  resourceType: string;
  total?: number;
  link?: Array<{ relation: string; url: string }>;
  entry?: Array<{ fullUrl: string; resource: { resourceType: string; id: string }; search: { mode: string } }>;
}

/** `Type/id` of every entry of a Bundle answer (matches and includes). */
export function entryKeys(res: LightMyRequestResponse): string[] {
  const body = JSON.parse(res.body) as SearchBundle;
  return (body.entry ?? []).map((e) => `${e.resource.resourceType}/${e.resource.id}`);
}

/** The next link of a Bundle answer, as a path below the base (the links are absolute from PUBLIC_BASE_URL). */
export function nextPathOf(res: LightMyRequestResponse, publicBase: string): string | undefined {
  const next = (JSON.parse(res.body) as SearchBundle).link?.find((l) => l.relation === 'next')?.url;
  return next === undefined ? undefined : next.slice(publicBase.length);
}

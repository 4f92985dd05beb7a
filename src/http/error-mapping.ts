import type { FastifyError, FastifySchemaValidationError } from 'fastify';
import { EXPECTED } from '../domain/operations/parameters.js';
import { DomainError, type DomainErrorCode } from '../domain/errors.js';
import { ProxyGrantsUnavailableError } from '../ports/proxy-grants.port.js';
import { SubscriptionStoreUnavailableError } from '../ports/subscription-store.port.js';
import { AccessLogUnavailableError } from '../ports/access-log.port.js';
import { AnswerAbandonedError, AnswerMemoryFullError } from '../ports/answer-memory.port.js';
import { InvalidTokenError, TokenStatusUnavailableError, type TokenFault } from '../ports/access-token-verifier.port.js';
import { EhrError } from '../domain/ehr-error.js';
import { EndNotRecordedError } from '../domain/notifications/notification-deps.js';
import { ReadUnavailableError } from '../domain/read-availability/unavailable-read.js';
import { WriteStillInProgressError, WriteTurnUnavailableError } from '../ports/write-coordinator.port.js';
import { ApiError, MESSAGES } from './api-error.js';
import { AuditUnavailableError, ChangeUnrecordedError } from './plugins/audit-errors.js';
import { RepeatedMemberError } from './repeated-members.js';
import { shownPath } from './shown-names.js';
import type { ErrorShape } from './types.js';

export interface HttpFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Whether this is a fault of ours or upstream's, to be logged with its cause. */
  fault: boolean;
  /** The body's shape where the route does not decide it. */
  errorShape?: ErrorShape;
}

/**
 * RFC 6750 §3's `error_description` of each token fault: what is wrong and what to do, never a part
 * of the token. Its characters are those §3 allows (no double quote, no backslash).
 */
const TOKEN_FAULTS: Readonly<Record<TokenFault, string>> = {
  expired: 'The access token has expired: get a new one.',
  'not-yet-valid': 'The access token is not valid yet (nbf is in the future): check the issuer clock.',
  signature: 'The access token signature does not verify with a key the issuer publishes, or its algorithm is not allowed.',
  issuer: 'The access token is from another issuer than the one this service trusts.',
  audience: 'The access token is for another audience than this service.',
  form: 'The access token is malformed: send a signed JWT as Authorization: Bearer <token>.',
  claims: 'The access token lacks a claim this service needs (sub, exp, a valid patient claim) or is from a client that is not listed.',
  revoked: 'The access token\'s grant has ended (revoked, replaced or signed out): sign in again.',
};

/** The challenge of a refused token (RFC 6750 §3), saying why. */
export const invalidTokenHeaders = (fault: TokenFault): Record<string, string> =>
  ({ 'www-authenticate': `Bearer error="invalid_token", error_description="${TOKEN_FAULTS[fault]}"` });

/** A request without any token gets the bare challenge, no error code (RFC 6750 §3.1). */
export const NO_TOKEN_HEADERS: Readonly<Record<string, string>> = { 'www-authenticate': 'Bearer' };

/** Which door a request came in by: the media types a body may have differ. */
export type Door = 'cos' | 'fhir';

/**
 * What a body's Content-Type must be, said once per door: the COS API reads JSON alone (src/http/app.ts);
 * the FHIR API's creates read `application/fhir+json` and plain JSON too (src/http/fhir/fhir-json-body.ts).
 */
export const MEDIA_TYPE_MESSAGES: Readonly<Record<Door, string>> = {
  cos: 'Content-Type must be application/json.',
  fhir: 'Content-Type must be application/fhir+json or application/json.',
};

/**
 * What a person is told when the EHR did not answer usefully: what happened, and what to do. None
 * retries by itself; each says when trying again can help, and where the fault is the EHR's data,
 * whom to tell and how they will find the answer (its X-Request-Id, hostile review helper-216, F11).
 */
export const EHR_MESSAGES = {
  unreachable: 'The EHR could not be reached. Try again in a few minutes.',
  badResponse: 'The EHR answered with an error, or with data this service cannot show exactly as written, so nothing is shown. '
    + 'If it is the same later, tell the region\'s support, giving the X-Request-Id of this answer.',
  timeout: 'The EHR did not answer in time. Try again in a few minutes.',
  unavailable: 'The EHR is unavailable. Try again later.',
} as const;

/**
 * A body that is no JSON, said per door: the COS API's are documented in /openapi.json, the FHIR API's are
 * FHIR resources, which only its creates take (hostile review helper-141, F3: a DELETE on /fhir named /openapi.json).
 */
export const INVALID_JSON_MESSAGES: Readonly<Record<Door, string>> = {
  cos: 'The body is not valid JSON: send a JSON object, as /openapi.json documents it.',
  fhir: 'The body is not JSON a FHIR resource can be (valid JSON, no __proto__ or constructor key): a create takes the resource as '
    + 'application/fhir+json; any other interaction takes no body.',
};
const EMPTY_JSON_MESSAGES: Readonly<Record<Door, string>> = {
  cos: 'The body is empty: send a JSON object, as /openapi.json documents it.',
  fhir: 'The body is empty: a create takes the resource as application/fhir+json; any other interaction takes no body, and no Content-Type.',
};

// Fixed texts: a framework's or upstream's message may echo input, so none is passed through.
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is larger than 16 KiB.',
  FST_ERR_BAD_URL: 'The request URL is malformed.',
};

const STATUS_MESSAGES: Record<number, string> = {
  404: 'Not found.', 405: 'Method not allowed.', 408: 'Request timeout.',
  413: 'Request body is larger than 16 KiB.',
  431: 'Request headers are too large.',
};

/** How a message names a field of each part of the request. */
const PART_NAMES: Readonly<Record<string, string>> = { querystring: 'Query parameter', headers: 'Header', body: 'Body member', params: 'Path parameter' };
const WHOLE_PART: Readonly<Record<string, string>> = { querystring: 'The query', headers: 'The headers', body: 'The body', params: 'The path' };

type SchemaObject = Record<string, unknown> & { properties?: Record<string, SchemaObject> };

/** A JSON pointer's segments (`/a~1b` is `a/b`), each as the caller sent it. */
/** A validator's JSON pointer as a path: an index as a number, shown in brackets (`categories[0]`, not `categories.0`: helper-127). */
const segments = (pointer: string): (string | number)[] => pointer.split('/').slice(1)
  .map((s) => (/^(0|[1-9]\d{0,8})$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));

function fieldLabel(part: string, path: readonly (string | number)[]): string {
  if (path.length === 0) return WHOLE_PART[part] ?? 'The request';
  return `${PART_NAMES[part] ?? part} ${shownPath(path)}`;
}

/** A body member by its path, an array's index in brackets: `Body member provision.actor[0].reference`. */
const memberLabel = (path: readonly (string | number)[]): string => `${PART_NAMES.body} ${shownPath(path)}`;

/** What a value must be, in words: the schema's own (`x-expected`), else the allowed values or the type. */
function expectation(schema: SchemaObject | undefined): string {
  if (schema === undefined) return 'as documented in /openapi.json';
  if (typeof schema[EXPECTED] === 'string') return schema[EXPECTED];
  if (schema.const !== undefined) return String(schema.const as string);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(String).join(', ')}`;
  if (schema.type === 'object') {
    const members = Object.keys(schema.properties ?? {});
    return members.length === 0 ? 'a JSON object' : `a JSON object with ${members.join(', ')}`;
  }
  return typeof schema.type === 'string' ? `a ${schema.type}` : 'as documented in /openapi.json';
}

/** What an object takes, for a message refusing a member it does not. */
function takes(part: string, schema: SchemaObject | undefined): string {
  const members = Object.keys(schema?.properties ?? {});
  if (part === 'querystring') return members.length === 0 ? 'this path takes no query parameters' : `this path takes ${members.join(', ')}`;
  return `${(WHOLE_PART[part] ?? 'the request').toLowerCase()} takes ${members.length === 0 ? 'nothing' : members.join(', ')}`;
}

/**
 * A 400 message that names the offending field and what it must be (docs/contract.md#errors), built
 * from the failing schema, never from the validator's wording or the input's value.
 */
function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0] as (FastifySchemaValidationError & { parentSchema?: SchemaObject }) | undefined;
  const part = err.validationContext ?? 'request';
  const path = segments(first?.instancePath ?? '');
  if (!first) return `${fieldLabel(part, [])} is invalid.`;
  const params = first.params as Record<string, unknown>;
  // A query string's repeated name reaches the schema as a list: say so, not what one value must be.
  if (part === 'querystring' && Array.isArray((first as { data?: unknown }).data)) return `${fieldLabel(part, path)} is given twice: send it once.`;
  if (first.keyword === 'additionalProperties') {
    return `${fieldLabel(part, [...path, String(params.additionalProperty)])} is not allowed: ${takes(part, first.parentSchema)}.`;
  }
  if (first.keyword === 'required') {
    const missing = String(params.missingProperty);
    return `${fieldLabel(part, [...path, missing])} is required: ${expectation(first.parentSchema?.properties?.[missing])}.`;
  }
  return `${fieldLabel(part, path)} must be ${expectation(first.parentSchema)}.`;
}

/** A write the EHR may have made: the same request again tells, and changes nothing if it was (domain/ehr-error.ts). */
const UNCONFIRMED_WRITE = 'The EHR did not confirm the registration, so it may or may not have been made: send the same request again, '
  + 'which answers INFO if it was (a check-in whose arrival window has closed: ask at the reception).';

/**
 * A change whose outcome record could not be stored (plugins/audit.ts): it may have been made. A payment's or an
 * arrival's repeat tells, and is recorded; any other change is looked at first: a repeat may make it again (a
 * second subscription), or answer as done (helper-131, F2).
 */
const UNRECORDED_WRITE = 'The service could not record this registration, so it may have been made: send the same request '
  + 'again, which answers INFO if it was, and is recorded (a check-in whose arrival window has closed: ask at the reception).';
const UNRECORDED_CHANGE = 'The service could not record this change, so it may have been made: look (GET) before you send it again.';

function fromEhr(err: EhrError): HttpFailure {
  if (err.unconfirmedWrite) return { status: err.failure === 'timeout' ? 504 : 502, message: UNCONFIRMED_WRITE, headers: {}, fault: true };
  switch (err.failure) {
    case 'patient-not-found':
      return { status: 403, message: 'Access to the requested patient is not allowed.', headers: {}, fault: false };
    case 'timeout':
      return { status: 504, message: EHR_MESSAGES.timeout, headers: {}, fault: true };
    case 'unavailable':
      return {
        status: 503, message: EHR_MESSAGES.unavailable,
        headers: { 'retry-after': String(err.retryAfterSeconds ?? 5) }, fault: true,
      };
    case 'unreachable':
      return { status: 502, message: EHR_MESSAGES.unreachable, headers: {}, fault: true };
    case 'bad-response':
      return { status: 502, message: EHR_MESSAGES.badResponse, headers: {}, fault: true };
  }
}

/** Each way a use case refuses, as a status; a code without one does not compile. */
const DOMAIN_STATUS: Readonly<Record<DomainErrorCode, number>> = {
  ACCESS_DENIED: 403, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409,
  PATIENT_HEADER_REQUIRED: 400, INVALID_PATIENT_HEADER: 400, INVALID_TIME_RANGE: 400, INVALID_PAGE: 400, INVALID_SEARCH: 400, INVALID_REQUEST: 400,
};

/** The one place where an error becomes a status, a message and headers; `door` says which media types a refused body could have had. */
export function toHttpFailure(err: unknown, door: Door = 'cos'): HttpFailure {
  if (err instanceof ApiError) {
    const failure: HttpFailure = { status: err.statusCode, message: err.message, headers: { ...err.headers }, fault: false };
    if (err.errorShape !== undefined) failure.errorShape = err.errorShape;
    return failure;
  }
  if (err instanceof DomainError) return { status: DOMAIN_STATUS[err.code], message: err.message, headers: {}, fault: false };
  if (err instanceof RepeatedMemberError) return { status: 400, message: `${memberLabel(err.path)} is given twice: send each member once.`, headers: {}, fault: false };
  if (err instanceof SubscriptionStoreUnavailableError) {
    return { status: 503, message: 'Subscriptions cannot be read or kept right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  if (err instanceof WriteTurnUnavailableError) {
    return {
      status: 503, message: 'Registrations cannot be coordinated between the service\'s instances right now, so nothing was changed. Try again in a few seconds.',
      headers: { 'retry-after': '5' }, fault: true,
    };
  }
  if (err instanceof WriteStillInProgressError) {
    return {
      // The turn is the visit's, whoever asked: the write that holds it may be another caller's (docs/contract.md#errors).
      status: 503, message: 'Another registration of the same visit is under way, or may still be made by the EHR: send the same request again in a few seconds, '
        + 'and it answers INFO if the visit was registered already.',
      headers: { 'retry-after': '5' }, fault: false,
    };
  }
  if (err instanceof ProxyGrantsUnavailableError) {
    return { status: 503, message: 'Sharing cannot be checked right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  if (err instanceof EhrError) return fromEhr(err);
  // 501, not 503: the read is not offered here, and no retry brings it (docs/contract.md#errors); no Retry-After.
  if (err instanceof ReadUnavailableError) return { status: 501, message: err.message, headers: {}, fault: false };
  if (err instanceof InvalidTokenError) return { status: 401, message: MESSAGES.invalidToken, headers: invalidTokenHeaders(err.fault), fault: false };
  if (err instanceof TokenStatusUnavailableError) {
    return { status: 503, message: 'The access token cannot be checked right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  if (err instanceof AccessLogUnavailableError) {
    return { status: 503, message: 'The access log cannot be read right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  if (err instanceof AnswerMemoryFullError) {
    return { status: 503, message: 'The service is overloaded. Try again later.', headers: { 'retry-after': String(err.retryAfterSeconds) }, fault: false };
  }
  if (err instanceof AnswerAbandonedError) {
    // Nobody is left to read it; the status is for the audit trail, the log and the metrics.
    return { status: 503, message: 'The request was withdrawn before it was answered.', headers: {}, fault: false };
  }
  if (err instanceof ChangeUnrecordedError) return { status: 503, message: err.registration ? UNRECORDED_WRITE : UNRECORDED_CHANGE, headers: { 'retry-after': '5' }, fault: true };
  if (err instanceof AuditUnavailableError || err instanceof EndNotRecordedError) {
    return { status: 503, message: 'The service cannot record this access right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  const fe = err as Partial<FastifyError>;
  if (fe.validation) return { status: 400, message: validationMessage(fe as FastifyError), headers: {}, fault: false };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    // JSON.parse and the prototype-poisoning guard raise plain 400s without a code.
    if (status === 415) return { status, message: MEDIA_TYPE_MESSAGES[door], headers: {}, fault: false };
    if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return { status, message: EMPTY_JSON_MESSAGES[door], headers: {}, fault: false };
    const fallback = status === 400 ? INVALID_JSON_MESSAGES[door] : STATUS_MESSAGES[status] ?? 'Request refused.';
    return { status, message: FRAMEWORK_MESSAGES[fe.code ?? ''] ?? fallback, headers: {}, fault: false };
  }
  return { status: 500, message: 'Internal server error.', headers: {}, fault: true };
}


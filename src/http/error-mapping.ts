import type { FastifyError } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { AccessLogUnavailableError } from '../ports/access-log.port.js';
import { InvalidTokenError } from '../ports/access-token-verifier.port.js';
import { EhrError } from '../ports/ehr-records.port.js';
import { ApiError, MESSAGES } from './api-error.js';
import { AuditUnavailableError } from './plugins/audit-errors.js';

export interface HttpFailure {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Whether this is a fault of ours or upstream's, to be logged with its cause. */
  fault: boolean;
}

const INVALID_TOKEN_HEADERS = { 'www-authenticate': 'Bearer error="invalid_token"' };

// Fixed texts: a framework's or upstream's message may echo input, so none is passed through.
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is larger than 16 KiB.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'body must be a JSON object.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'body is not valid JSON.',
  FST_ERR_BAD_URL: 'The request URL is malformed.',
};

const STATUS_MESSAGES: Record<number, string> = {
  404: 'Not found.', 405: 'Method not allowed.', 408: 'Request timeout.',
  413: 'Request body is larger than 16 KiB.', 415: 'Content-Type must be application/json.',
  431: 'Request headers are too large.',
};

// Control characters, line and paragraph separators and lone surrogates: shown as \uXXXX, never sent raw.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAME_LIMIT = 64;

/** A field name exactly as the caller sent it (`$where` stays `$where`), cut at 64 characters, unshowable ones escaped. */
function fieldName(name: unknown): string {
  const chars = [...String(name)];
  const shown = chars.slice(0, NAME_LIMIT).join('').replace(UNSHOWABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return chars.length > NAME_LIMIT ? `${shown}…` : shown;
}

/** A 400 message that names the offending field, built from the validation result, never from input values. */
function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  const where = `${err.validationContext ?? 'request'}${first?.instancePath ?? ''}`;
  if (!first) return `${where} is invalid.`;
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'additionalProperties') {
    return `${where}/${fieldName(params.additionalProperty)} is not allowed.`;
  }
  if (first.keyword === 'required') return `${where}/${String(params.missingProperty)} is required.`;
  return `${where} ${first.message ?? 'is invalid'}.`;
}

function fromEhr(err: EhrError): HttpFailure {
  switch (err.failure) {
    case 'patient-not-found':
      return { status: 403, message: 'Access to the requested patient is not allowed.', headers: {}, fault: false };
    case 'timeout':
      return { status: 504, message: 'The EHR did not answer in time.', headers: {}, fault: true };
    case 'unavailable':
      return {
        status: 503, message: 'The EHR is unavailable. Try again later.',
        headers: { 'retry-after': String(err.retryAfterSeconds ?? 5) }, fault: true,
      };
    case 'bad-response':
      return { status: 502, message: 'The EHR answered with an error or malformed data.', headers: {}, fault: true };
  }
}

/** The one place where an error becomes a status, a message and headers. */
export function toHttpFailure(err: unknown): HttpFailure {
  if (err instanceof ApiError) return { status: err.statusCode, message: err.message, headers: { ...err.headers }, fault: false };
  if (err instanceof DomainError) {
    return { status: err.code === 'ACCESS_DENIED' ? 403 : 400, message: err.message, headers: {}, fault: false };
  }
  if (err instanceof EhrError) return fromEhr(err);
  if (err instanceof InvalidTokenError) return { status: 401, message: MESSAGES.invalidToken, headers: INVALID_TOKEN_HEADERS, fault: false };
  if (err instanceof AccessLogUnavailableError) {
    return { status: 503, message: 'The access log cannot be read right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  if (err instanceof AuditUnavailableError) {
    return { status: 503, message: 'The service cannot record this access right now. Try again later.', headers: { 'retry-after': '5' }, fault: true };
  }
  const fe = err as Partial<FastifyError>;
  if (fe.validation) return { status: 400, message: validationMessage(fe as FastifyError), headers: {}, fault: false };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    // JSON.parse and the prototype-poisoning guard raise plain 400s without a code.
    const fallback = status === 400 ? 'body is not valid JSON.' : STATUS_MESSAGES[status] ?? 'Request refused.';
    return { status, message: FRAMEWORK_MESSAGES[fe.code ?? ''] ?? fallback, headers: {}, fault: false };
  }
  return { status: 500, message: 'Internal server error.', headers: {}, fault: true };
}

export { INVALID_TOKEN_HEADERS };

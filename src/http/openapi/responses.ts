/**
 * The headers and error answers of the OpenAPI document, as components every operation refers to:
 * what a client can rely on, in its words. Shape 1 is `{statusCode, message}`, shape 2
 * `{error, path, status, timestamp}` (the operations whose entry says `errorShape: 'error'`).
 */
import { MESSAGES } from '../api-error.js';
import { EHR_MESSAGES, MEDIA_TYPE_MESSAGES } from '../error-mapping.js';
import type { ErrorShape } from '../types.js';

const integer = (description: string, maximum: number) => ({ description, schema: { type: 'integer', format: 'int32', minimum: 0, maximum } });

export const HEADERS: Record<string, object> = {
  'X-Request-Id': {
    description: 'The service\'s own id of this request (a UUID), in its log line, its audit record and the patient\'s access log; '
      + 'quote it when asking about a call. A caller\'s own X-Request-Id is never echoed: it is kept beside this id for operators.',
    schema: { type: 'string', format: 'uuid', maxLength: 36 },
  },
  'X-RateLimit-Limit': integer('Requests allowed per window: per person under a subscription key (or the key\'s ceiling for all its callers, on the 429 it gave), or per source address for requests without a valid key.', 1_000_000),
  'X-RateLimit-Remaining': integer('Requests left in the current window.', 1_000_000),
  'X-RateLimit-Reset': integer('Seconds until the current window ends.', 86_400),
  'RateLimit-Policy': {
    description: 'The limit as draft-ietf-httpapi-ratelimit-headers gives it: `"subscription-person";q=100;w=5` (q requests per w seconds), '
      + '`"subscription"` when the key\'s ceiling for all its callers refused the request, '
      + 'or `"address"` for requests without a valid key. Absent while the shared counters (Redis) are unreachable.',
    schema: { type: 'string', maxLength: 128 },
  },
  RateLimit: {
    description: 'What is left of it: `"subscription-person";r=42;t=3` (r requests left, t seconds until the window ends).',
    schema: { type: 'string', maxLength: 128 },
  },
  'Retry-After': integer('Seconds to wait before trying again.', 86_400),
  'WWW-Authenticate': {
    description: 'Why the token was refused (RFC 6750): `Bearer` when none was sent; `Bearer error="invalid_token", error_description="..."` '
      + 'saying which fault (expired, not yet valid, signature or key, issuer, audience, malformed, a claim missing); or '
      + '`Bearer error="insufficient_scope", scope="<the scope this operation needs>"`. Absent when the subscription key was the problem.',
    schema: { type: 'string', maxLength: 256 },
  },
  'Patient-Data-Filtered': {
    description: '`true` when the region\'s release policy (RELEASE_POLICY_FILE) withheld anything from this answer; absent '
      + 'otherwise. What was withheld is never said.',
    schema: { type: 'string', enum: ['true'] },
  },
  Location: {
    description: 'The address of what the request made: a new grant\'s, to read it at (GET).',
    schema: { type: 'string', maxLength: 256 },
  },
  'Access-Control-Allow-Origin': {
    description: 'Only for a browser calling from an origin listed in CORS_ORIGINS; absent otherwise (CORS is off by default).',
    schema: { type: 'string', maxLength: 256 },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The header of a successful answer the release policy may have filtered. */
export const FILTERED_HEADERS = { 'Patient-Data-Filtered': ref('Patient-Data-Filtered') };
const COMMON = ['X-Request-Id', 'Access-Control-Allow-Origin'];
const LIMITED = [...COMMON, 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'];

/** The headers of an answer with this status. */
export function headersFor(status: number): Record<string, object> {
  const names = status >= 500 ? [...COMMON] : [...LIMITED];
  if (status === 401 || status === 403) names.push('WWW-Authenticate');
  if (status === 429 || status === 503) names.push('Retry-After');
  return Object.fromEntries(names.map((name) => [name, ref(name)]));
}

/** `shape1Only`: answered only by operations of shape 1 (sharing's own), so documented in that shape alone. */
const ERRORS: Record<number, { name: string; description: string; message: string; shape1Only?: true }> = {
  400: { name: 'BadRequest', description: 'A query parameter, header or body field is wrong; the message names it.', message: 'Query parameter fromDateTime must be a real local date-time YYYY-MM-DDThh:mm:ss, without a time zone (no Z or offset), e.g. 2025-01-31T08:00:00.' },
  401: {
    name: 'Unauthorized',
    description: 'The subscription key is missing, unknown or given twice differently, or the access token is missing, expired or not valid.',
    message: MESSAGES.invalidToken,
  },
  403: {
    name: 'Forbidden',
    description: 'The token lacks this operation\'s scope (see WWW-Authenticate), or the caller may not act for the patient named in the '
      + '`patient` header (also when the EHR does not know that patient).',
    message: MESSAGES.insufficientScope,
  },
  // Sharing's own (docs/contract.md §11); every other operation's 404 is an unknown path's, not its answer.
  404: {
    name: 'NotFound',
    description: 'No grant of the caller\'s has this id: one that does not exist and another person\'s answer the same.',
    message: 'No grant of yours has this id: GET /patients/proxies/ lists the grants you gave and received.',
    shape1Only: true,
  },
  409: {
    name: 'Conflict',
    description: 'The grant cannot change so as it is now (it has ended), or a second open grant to the same person, or more open grants than the region allows.',
    message: 'This grant has already ended: nothing is shared through it.',
    shape1Only: true,
  },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than 16 KiB.', message: 'Request body is larger than 16 KiB.' },
  415: { name: 'UnsupportedMediaType', description: 'A body that is not `application/json`.', message: MEDIA_TYPE_MESSAGES.cos },
  429: { name: 'TooManyRequests', description: 'Too many requests for this subscription key; wait Retry-After seconds.', message: 'Rate limit is exceeded. Try again in 5 seconds.' },
  500: { name: 'InternalServerError', description: 'A fault of the service; nothing about it is shown.', message: 'Internal server error.' },
  501: {
    name: 'NotImplemented',
    description: 'This read is not available in this region: the region turned it off (READS_OFF), or its EHR does not offer the searches it needs. '
      + 'Every other read is served; retrying does not help (no Retry-After), and the service\'s /health/ready names the reads not served.',
    message: 'getDiagnoses is not available in this region: the region has turned it off (READS_OFF). Every other read is served.',
  },
  502: { name: 'BadGateway', description: 'The EHR refused the call or sent something unreadable.', message: EHR_MESSAGES.badResponse },
  503: {
    name: 'ServiceUnavailable',
    description: 'The EHR or the audit store is unavailable, or the service is overloaded; wait Retry-After seconds. No data is given '
      + 'out while an access cannot be recorded.',
    message: EHR_MESSAGES.unavailable,
  },
  504: { name: 'GatewayTimeout', description: 'The EHR did not answer in time.', message: EHR_MESSAGES.timeout },
};

const EXAMPLE_PATH = '/patients/contacts/';
const EXAMPLE_TIME = 1_767_225_600_000;

/** The component name of the error answer for a status in a shape. */
export function errorResponseName(status: number, shape: ErrorShape): string {
  const base = ERRORS[status]?.name ?? `Status${status}`;
  return shape === 'status' ? base : `${base}Shape2`;
}

/** Every error answer in both shapes, each with its headers, schema and an example body. */
export function errorResponses(): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [code, error] of Object.entries(ERRORS)) {
    const status = Number(code);
    for (const shape of error.shape1Only === true ? ['status'] as const : ['status', 'error'] as const) {
      const example = shape === 'status'
        ? { statusCode: status, message: error.message }
        : { error: error.message, path: EXAMPLE_PATH, status, timestamp: EXAMPLE_TIME };
      out[errorResponseName(status, shape)] = {
        description: error.description,
        headers: headersFor(status),
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${shape === 'status' ? 'StatusError' : 'ErrorResponse'}` },
            example,
          },
        },
      };
    }
  }
  return out;
}

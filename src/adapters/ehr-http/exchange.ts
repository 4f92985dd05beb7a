/**
 * One request to the EHR under one deadline. The deadline covers connecting, the headers, every
 * retry and the whole body, so a trickling answer cannot outlive it; undici's own timeouts (300 s
 * by default) are only a backstop. Bodies are read only up to a cap and never past it, and only
 * in the media type the adapter reads (an HTML error page of a front proxy is refused unread).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { EhrError } from '../../domain/ehr-error.js';
import { BodyTooLargeError, readCappedBytes } from '../http-client/read-capped.js';
import { AnswerFaultError } from './answer-fault.js';
import { madeByCache, PAST_CACHES } from './past-caches.js';
import { neverSent, SENDING, sendingNotStarted, type Sending } from './sending.js';
import { tlsFailureReason } from './tls-failure.js';
import { untilAborted } from '../http-client/until-aborted.js';

/** What an adapter asks for and reads: legacy XML, FHIR JSON. */
export interface MediaType {
  /** The Accept header of every request. */
  accept: string;
  /** The Content-Type of a request body, unless the request names its own. */
  body: string;
  /** Whether an answer in this Content-Type is read at all. */
  readable(contentType: string | undefined): boolean;
}

export interface UpstreamRequest {
  method: 'GET' | 'PUT' | 'POST' | 'PATCH';
  /** The path below the base URL's, with its query. */
  path: string;
  body?: string;
  /** Further headers (a Content-Type of its own, If-Match, If-None-Exist, Authorization); never logged. */
  headers?: Readonly<Record<string, string>>;
  /** Reads may be sent twice; a write never is, since the first one may have been committed (threat 30 of docs/threat-model.md#the-upstream-ehr-api10). */
  retryOnConnectionLoss: boolean;
  /** What is left of the deadline when the caller spent some of it before asking (never more than EHR_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /**
   * The body's bytes, for the statuses whose body is read at all. Bytes, not text: a document of a
   * megabyte is read piece by piece and never held as one string (ehr-xml/document-pieces.ts).
   */
  body: Buffer | undefined;
}

export interface ExchangeSettings {
  timeoutMs: number;
  media: MediaType;
  /** How much of the body to read for a status: 0 drains or drops it unread. */
  bodyLimit: (status: number) => number;
  onRetry: () => void;
  /** A TLS error a connection to the EHR received since then (ehr-connector.ts); undici reports some only as a lost connection. */
  tlsErrorSince?: (since: number) => unknown;
  /** Whether a connection to the EHR has been waiting for half the deadline or more (ehr-connector.ts): it is not taking connections. */
  stuckConnecting?: () => boolean;
  /** Filled in as the request goes out, where the pool notes it (sending.ts); the caller's, to tell a write that never left. */
  sending?: Sending;
}

// The connection went away before a whole answer arrived: the request may be sent again if it is a read.
const CONNECTION_LOST = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
  // The connection closed before the promised Content-Length arrived: a body cut off mid-way.
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'PDAS_BODY_LENGTH_MISMATCH',
]);
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
// No connection to the EHR could be made, so it never saw the request: refused, its name not found, no
// route to it, or no answer to connecting. A read is still sent once more: the EHR may be restarting.
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'UND_ERR_CONNECT_TIMEOUT']);

/** A request that changes something: never sent twice, and never told as unsent once it may have gone. */
export const isWrite = (request: Pick<UpstreamRequest, 'method'>): boolean => request.method !== 'GET';

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** Whether `value` names one of `types` in UTF-8 (or no charset at all). */
export function isContentType(value: string | undefined, types: readonly string[]): boolean {
  if (value === undefined) return false;
  const [type, ...params] = value.split(';').map((p) => p.trim().toLowerCase());
  if (type === undefined || !types.includes(type)) return false;
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/^"|"$/g, '');
  return charset === undefined || charset === 'utf-8';
}

const refused = (reason: string): EhrError => new EhrError('bad-response', reason);
const notReached = (code: string): EhrError => new EhrError('unreachable', `EHR could not be reached (${code})`);

/**
 * The deadline passed while a connection to the EHR had been waiting for half of it or more: the EHR
 * is not taking connections, which the caller is told as such rather than as a slow answer.
 */
export class NoConnectionInTimeError extends EhrError {
  constructor() {
    super('unreachable', 'EHR could not be reached: no connection within the deadline');
  }
}
/** The call's deadline (EHR_TIMEOUT_MS, or what was left of it) passed before a whole answer came. */
export const deadlinePassed = (): EhrError => new EhrError('timeout', 'EHR did not answer within the deadline');
/** The answer came, but this service will not read it: a fault of this answer alone. */
const unreadable = (reason: string): EhrError => new AnswerFaultError(reason);

async function readBody(response: Dispatcher.ResponseData, limit: number, media: MediaType): Promise<Buffer> {
  const { headers, body } = response;
  // Dropping a body makes undici emit an abort error on it; the reason to drop it is reported instead.
  body.on('error', () => undefined);
  const encoding = header(headers, 'content-encoding');
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    body.destroy();
    throw unreadable('EHR answer has a content encoding');
  }
  if (!media.readable(header(headers, 'content-type'))) {
    body.destroy();
    throw unreadable(`EHR answer is not ${media.accept}`);
  }
  const length = header(headers, 'content-length');
  const declared = length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : undefined;
  if (declared !== undefined && declared > limit) {
    body.destroy();
    throw unreadable('EHR answer declares a length over the limit');
  }
  try {
    return await readCappedBytes(body, limit, declared);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw unreadable('EHR answer is larger than the limit');
    throw err;
  }
}

async function once(pool: Dispatcher, request: UpstreamRequest, signal: AbortSignal, settings: ExchangeSettings, sending: Sending): Promise<UpstreamAnswer> {
  const headers: Record<string, string> = { accept: settings.media.accept, ...(request.method === 'GET' ? PAST_CACHES : {}) };
  if (request.body !== undefined) headers['content-type'] = settings.media.body;
  Object.assign(headers, request.headers);
  const options: Dispatcher.RequestOptions & { [SENDING]: Sending } = {
    method: request.method, path: request.path, headers, body: request.body ?? null, signal, [SENDING]: sending,
  };
  const response = await pool.request(options);
  if (request.method === 'GET' && madeByCache(response.headers.age)) {
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    throw unreadable('EHR answer made by a cache in between, not the EHR (Age)');
  }
  const limit = settings.bodyLimit(response.statusCode);
  if (limit <= 0) {
    // Dropping a small unread body keeps the connection for the next call; a large one is cut off.
    await response.body.dump({ limit: 64 * 1024 });
    return { status: response.statusCode, headers: response.headers, body: undefined };
  }
  return { status: response.statusCode, headers: response.headers, body: await readBody(response, limit, settings.media) };
}

/** Sends `request`, retrying a read once after a lost connection. Throws EhrError `timeout`, `unreachable` or `bad-response`. */
export async function exchange(pool: Dispatcher, request: UpstreamRequest, settings: ExchangeSettings): Promise<UpstreamAnswer> {
  const deadline = new AbortController();
  // Asked as the deadline passes: the attempt ends, and is forgotten, only later.
  let connecting = false;
  const timer = setTimeout(() => {
    connecting = settings.stuckConnecting?.() ?? false;
    deadline.abort(new Error('EHR deadline passed'));
  }, settings.timeoutMs);
  const started = Date.now();
  const sending = settings.sending ?? sendingNotStarted();
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await untilAborted(once(pool, request, deadline.signal, settings, sending), deadline.signal, () => deadline.signal.reason);
      } catch (err) {
        const code = codeOf(err) ?? '';
        // A write may have reached the EHR on a connection it already had, whatever others were doing: it is a
        // timeout (the write "may have been made"), never "could not be reached" (domain/ehr-error.ts asUnconfirmedWrite),
        // unless the pool saw that none of it ever left (sending.ts; hostile review helper-138, F3).
        if (deadline.signal.aborted || TIMED_OUT.has(code)) {
          throw (isWrite(request) ? neverSent(sending) : connecting) ? new NoConnectionInTimeError() : deadlinePassed();
        }
        if (err instanceof EhrError) throw err;
        if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') throw unreadable('EHR answer is larger than the limit');
        // A certificate problem does not go away by sending again; it is told as what to check.
        const tls = tlsFailureReason(err) ?? tlsFailureReason(settings.tlsErrorSince?.(started));
        if (tls !== undefined) throw refused(tls);
        if (!CONNECTION_LOST.has(code) && !NOT_REACHED.has(code)) throw refused('EHR exchange failed');
        // A write whose connection was lost before any of it left never reached the EHR either (helper-140, F4).
        if (!request.retryOnConnectionLoss || attempt > 1) {
          throw NOT_REACHED.has(code) || (isWrite(request) && neverSent(sending)) ? notReached(code) : refused('EHR connection lost');
        }
        settings.onRetry();
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The rest-hook channel (docs/notifications.md): a notification is one POST of the Bundle to the
 * subscription's endpoint, through an undici Agent of its own. Each receiver's origin has a few
 * keep-alive connections (`connectionsPerOrigin`), so a receiver that holds its sockets holds only its
 * own deliveries; no redirect is followed (a 3xx is an answer: refused); one deadline bounds the
 * attempt from connecting to the answer's head; the answer's body is read up to a small cap, and past
 * it (or past the deadline) the connection is cut, so an endless answer holds neither memory nor a
 * socket. The connector refuses blocked addresses at every connection (guarded-connector.ts). Nothing
 * is logged: a header value may be the receiver's credential, and the body is about a patient.
 */
import { isReservedHeader, checkChannelHeaders } from '../../domain/notifications/channel-headers.js';
import type { Delivery, DeliveryOutcome, NotificationChannel } from '../../ports/notification-channel.port.js';
import { tlsFailureReason } from '../ehr-http/tls-failure.js';
import type { Dispatcher } from 'undici';
import { Agent } from '../http-client/undici-parts.js';
import { untilAborted } from '../http-client/until-aborted.js';
import { BLOCKED_ADDRESS, guardedConnector, type GuardOptions } from './guarded-connector.js';

export const FHIR_JSON_UTF8 = 'application/fhir+json; charset=utf-8';

export interface RestHookOptions extends Pick<GuardOptions, 'allowLoopback' | 'lookup' | 'ca'> {
  /** Connections kept to one receiver's origin, and so its deliveries at once; 2 unless set. */
  connectionsPerOrigin?: number;
  /** Bytes of an answer's body read before its connection is cut; 64 KiB unless set. */
  maxAnswerBytes?: number;
  /** How long opening a connection may take, within each delivery's own deadline; 10 s unless set. */
  connectTimeoutMs?: number;
}

type Unreachable = Extract<DeliveryOutcome, { kind: 'unreachable' }>['reason'];

const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

function codes(err: unknown): string[] {
  const found: string[] = [];
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') found.push(code);
  }
  return found;
}

function unreachable(err: unknown, deadlinePassed: boolean): Unreachable {
  const found = codes(err);
  if (found.includes(BLOCKED_ADDRESS)) return 'blocked-address';
  if (deadlinePassed || found.some((code) => TIMED_OUT.has(code))) return 'timeout';
  return tlsFailureReason(err) === undefined ? 'connection' : 'tls';
}

/** The endpoint as undici's origin and path; a RangeError for one no subscription could have been allowed with. */
function target(endpoint: string): { origin: string; path: string } {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    throw new RangeError('a notification endpoint is an absolute http(s) URL without userinfo (src/domain/notifications/endpoint-rules.ts)');
  }
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

/** Ours, then the subscription's (never one the service or the connection sets), as undici's flat list. */
function requestHeaders(given: Delivery['headers']): string[] {
  const theirs = given.filter(([name]) => !isReservedHeader(name));
  const checked = checkChannelHeaders(theirs.map(([name, value]) => `${name}: ${value}`), 'kept');
  if (!checked.allowed) throw new RangeError(`a delivery's headers are checked when the subscription is made: ${checked.problem}`);
  return ['content-type', FHIR_JSON_UTF8, ...checked.headers.flat()];
}

/** Reads the answer's body up to `cap`, or until `signal`; past either the body, and its connection, is dropped. */
async function drain(body: Dispatcher.ResponseData['body'], cap: number, signal: AbortSignal): Promise<void> {
  try {
    await body.dump({ limit: cap, signal });
  } catch {
    body.destroy();
  }
}

export class RestHookChannel implements NotificationChannel {
  private readonly agent: Agent;
  private readonly maxAnswerBytes: number;
  private closed = false;

  constructor(options: RestHookOptions) {
    this.maxAnswerBytes = options.maxAnswerBytes ?? 64 * 1024;
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 2,
      pipelining: 1,
      connect: guardedConnector({ ...options, connectTimeoutMs: options.connectTimeoutMs ?? 10_000 }),
    });
  }

  async send(delivery: Delivery): Promise<DeliveryOutcome> {
    const { origin, path } = target(delivery.endpoint);
    const headers = requestHeaders(delivery.headers);
    const { timeoutMs } = delivery;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError('a delivery\'s timeoutMs is a positive number of milliseconds');
    if (this.closed) return { kind: 'unreachable', reason: 'connection' };
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('notification deadline passed')), timeoutMs);
    try {
      const answer = await untilAborted(this.agent.request({
        origin, path, method: 'POST', headers, body: delivery.body, signal: deadline.signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
      }), deadline.signal, () => deadline.signal.reason);
      await drain(answer.body, this.maxAnswerBytes, deadline.signal);
      const status = answer.statusCode;
      return status >= 200 && status < 300 ? { kind: 'delivered', status } : { kind: 'refused', status };
    } catch (err) {
      return { kind: 'unreachable', reason: unreachable(err, deadline.signal.aborted) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends every connection; deliveries under way end as unreachable (connection), to be sent again. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.destroy();
  }
}

/**
 * The HTTP transport every remote EHR adapter shares, whatever it speaks (legacy XML, FHIR R4): a
 * bounded keep-alive pool to EHR_BASE_URL, one deadline per port call (EHR_TIMEOUT_MS, body
 * included), one retry of a read after a lost connection and never of a write, bodies capped while
 * they stream, a circuit breaker that counts only the EHR's own failures, and the TLS client
 * certificate of EHR_TLS_*, replaceable without a restart. What an answer means is the adapter's.
 */
import { createSecureContext } from 'node:tls';
import { asUnconfirmedWrite, EhrError } from '../../domain/ehr-error.js';
import { Pool } from '../http-client/undici-parts.js';
import { AnswerFaultError } from './answer-fault.js';
import { CircuitBreaker, CircuitOpenError, type BreakerChange } from './circuit-breaker.js';
import { EhrConnector } from './ehr-connector.js';
import { exchange, isWrite, NoConnectionInTimeError, type MediaType, type UpstreamAnswer, type UpstreamRequest } from './exchange.js';
import { neverSent, noteSending, sendingNotStarted } from './sending.js';

const MIB = 1024 * 1024;

export type TransportEvent = BreakerChange | { type: 'retry' | 'upstream-error'; detail?: string };

/** EHR_TLS_*: the CA bundle to trust instead of the system's, and the client certificate to present (mutual TLS). */
export interface EhrTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export interface TransportOptions {
  /** EHR_BASE_URL; a path prefix is kept, credentials, query or fragment are refused. */
  baseUrl: string;
  /** EHR_TIMEOUT_MS: the deadline of one call, retry and body included. */
  timeoutMs: number;
  media: MediaType;
  /** Larger answers are refused while streaming; 10 MiB unless set. */
  maxBodyBytes?: number;
  tls?: EhrTls;
  /** Upper bound of open connections to the EHR; 16 unless set. */
  connections?: number;
  /** Opens after `failureThreshold` consecutive infrastructure failures (5) for `openMs` (10 s). */
  breaker?: { failureThreshold?: number; openMs?: number };
  /** Retries, breaker changes and upstream errors, with short fixed reasons (never upstream text). */
  onEvent?: (event: TransportEvent) => void;
  /** The breaker's clock, for tests. */
  now?: () => number;
}

/** How much of an answer's body to read for its status (0: none); by default a 200's, up to the cap. */
export type BodyLimit = (status: number, maxBodyBytes: number) => number;

const successBodies: BodyLimit = (status, max) => (status === 200 ? max : 0);

/**
 * Only transport faults, timeouts and 5xx (503 and 429 among them) count against the EHR. A fault of
 * one answer (a malformed document, another patient's record, a body over the cap, a refusal of
 * this request) is that request's 502 alone (issue 12 item 3).
 */
const isInfrastructureFailure = (err: unknown): boolean =>
  err instanceof EhrError && err.failure !== 'patient-not-found' && !(err instanceof AnswerFaultError);

export class EhrHttpTransport {
  /** The base URL's path, without a trailing slash: every request path goes below it. */
  readonly prefix: string;
  readonly maxBodyBytes: number;
  private readonly pool: Pool;
  private readonly breaker: CircuitBreaker;
  private readonly connector: EhrConnector;
  private readonly emit: (event: TransportEvent) => void;

  constructor(private readonly options: TransportOptions) {
    const url = new URL(options.baseUrl);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
      throw new RangeError('baseUrl must be a plain http(s) URL without credentials, query or fragment');
    }
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.maxBodyBytes = options.maxBodyBytes ?? 10 * MIB;
    for (const [name, value] of [['timeoutMs', options.timeoutMs], ['maxBodyBytes', this.maxBodyBytes], ['connections', options.connections ?? 16]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
    this.emit = options.onEvent ?? (() => undefined);
    this.connector = new EhrConnector({ timeout: options.timeoutMs, ...options.tls });
    // Each request's sending noted, so that a write none of which left is told as never sent (sending.ts).
    this.pool = noteSending(new Pool(url.origin, {
      connections: options.connections ?? 16,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: this.connector.connect,
      maxResponseSize: this.maxBodyBytes,
    }));
    this.breaker = new CircuitBreaker(
      { failureThreshold: options.breaker?.failureThreshold ?? 5, openMs: options.breaker?.openMs ?? 10_000 },
      options.now ?? Date.now, (change) => this.emit(change));
  }

  /**
   * Sends `request` (its path below the base URL's) through the breaker and under the deadline, and
   * turns the answer into the port's result with `interpret`, whose EhrErrors count as the EHR's
   * failures unless they are an AnswerFaultError (a fault of this answer alone).
   */
  async call<T>(request: UpstreamRequest, interpret: (answer: UpstreamAnswer) => T | Promise<T>, bodyLimit: BodyLimit = successBodies): Promise<T> {
    // A call given only part of the deadline (its caller waited for its turn first) that runs out of
    // it says nothing sure about the EHR: counting it would let a queue of our own open the breaker.
    const shortened = request.timeoutMs !== undefined && request.timeoutMs < this.options.timeoutMs;
    const counts = (err: unknown): boolean | undefined =>
      shortened && (err instanceof NoConnectionInTimeError || (err instanceof EhrError && err.failure === 'timeout')) ? undefined : isInfrastructureFailure(err);
    // An answer came: whatever it says of a write, the request reached the EHR, or a gateway that forwarded it.
    let answered = false;
    const sending = sendingNotStarted();
    try {
      return await this.breaker.run(async () => {
        const answer = await exchange(this.pool, { ...request, path: this.prefix + request.path }, {
          timeoutMs: Math.min(request.timeoutMs ?? this.options.timeoutMs, this.options.timeoutMs),
          media: this.options.media,
          bodyLimit: (status) => bodyLimit(status, this.maxBodyBytes),
          onRetry: () => this.emit({ type: 'retry', detail: `${request.method} after a lost connection` }),
          tlsErrorSince: (since) => this.connector.since(since),
          stuckConnecting: () => this.stuckConnecting(),
          sending,
        });
        answered = true;
        return interpret(answer);
      }, counts);
    } catch (err) {
      if (err instanceof EhrError && err.failure !== 'patient-not-found' && !(err instanceof CircuitOpenError)) {
        this.emit({ type: 'upstream-error', detail: err.message });
      }
      // An open circuit is `unavailable`: the EHR never saw the write, and asUnconfirmedWrite leaves it so; nor did it see
      // one none of whose bytes left (its TLS handshake failed, no connection came in time: helper-138, F3).
      throw isWrite(request) && !neverSent(sending) ? asUnconfirmedWrite(err, answered) : err;
    }
  }

  /** Whether a connection to the EHR has been waiting for half of EHR_TIMEOUT_MS or more: the EHR is not taking connections. */
  stuckConnecting(): boolean {
    const since = this.connector.connectingSince();
    return since !== undefined && Date.now() - since >= this.options.timeoutMs / 2;
  }

  /**
   * Readiness: one request past the breaker both ways, so readiness shows the EHR's real state;
   * `isUp` judges the answer (its body is not read). Any failure to get one is not up.
   */
  async probe(path: string, isUp: (answer: UpstreamAnswer) => boolean): Promise<boolean> {
    try {
      const answer = await exchange(this.pool, { method: 'GET', path: this.prefix + path, retryOnConnectionLoss: false }, {
        timeoutMs: this.options.timeoutMs, media: this.options.media, bodyLimit: () => 0, onRetry: () => undefined,
      });
      return isUp(answer);
    } catch {
      return false;
    }
  }

  /**
   * A rotated client certificate (or CA): connections opened from now on present it, open ones keep
   * theirs. Files that make no usable TLS context (a key of another certificate, a half-written file)
   * throw, and the options in use stay.
   */
  useTls(tls: EhrTls): void {
    createSecureContext(tls);
    this.connector.replace({ timeout: this.options.timeoutMs, ...tls });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

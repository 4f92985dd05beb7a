/**
 * Open-loop load: requests start on a fixed schedule (`rate` per second) whatever the service's
 * latency, so a slow service shows as latency and requests in flight, not as a politely lower
 * rate. Bounded in count (rate × duration), in time (duration, then every request in flight is
 * bounded by its own timeout) and in requests in flight (past the cap a request is not sent and the
 * run fails).
 */
import { Pool } from 'undici';
import type { PlannedRequest, RequestClass } from './plan.js';

export interface Outcome {
  requestId: string;
  label: string;
  kind: RequestClass;
  method: string;
  expect: number;
  /** 0: no answer (connection error or client timeout). */
  status: number;
  ms: number;
  audited: boolean;
  /** Seconds since the load started, when the request was sent. */
  at: number;
  /** A 2xx body that failed its check, or why there was no answer. */
  problem?: string;
  rateLimitHeader?: string;
}

export interface LoadSettings {
  api: string;
  rate: number;
  durationS: number;
  maxInFlight: number;
  requestTimeoutMs: number;
  /** Prefix of every X-Request-Id; the sequence number follows. */
  requestIdPrefix: string;
  next: () => PlannedRequest;
  signal: AbortSignal;
  /** Stops the load early (the service died, say); checked on every tick. */
  shouldStop?: () => string | undefined;
}

export interface LoadResult {
  outcomes: Outcome[];
  /** Requests due while `maxInFlight` were in flight, and so never sent. */
  notSent: number;
  elapsedS: number;
  stoppedEarly?: string;
  maxInFlightSeen: number;
}

/** The form of the service's own request ids (a UUID). */
const SERVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function sendPlanned(pool: Pool, planned: PlannedRequest, requestId: string, timeoutMs: number, at: number): Promise<Outcome> {
  const base = { requestId, label: planned.label, kind: planned.kind, method: planned.method, expect: planned.expect, audited: planned.audited, at };
  const started = performance.now();
  try {
    const res = await pool.request({
      method: planned.method, path: planned.path,
      headers: { ...planned.headers, 'x-request-id': requestId },
      body: planned.body ?? null,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.body.text();
    const ms = performance.now() - started;
    let problem: string | undefined;
    if (res.statusCode >= 200 && res.statusCode < 300 && planned.check) {
      try {
        problem = planned.check(JSON.parse(text));
      } catch {
        problem = 'body is not JSON';
      }
    }
    // The service answers an id of its own, never the caller's (docs/contract.md#request-ids).
    const answeredId = res.headers['x-request-id'];
    if (typeof answeredId !== 'string' || !SERVICE_ID.test(answeredId)) problem ??= 'X-Request-Id is not the service\'s own id';
    // A server error says why in its (fixed-text) body; kept short for the report.
    if (res.statusCode >= 500) problem ??= `body ${text.slice(0, 100)}`;
    const limit = res.headers['x-ratelimit-limit'];
    return { ...base, status: res.statusCode, ms, ...(problem ? { problem } : {}), ...(typeof limit === 'string' ? { rateLimitHeader: limit } : {}) };
  } catch (err) {
    const name = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { ...base, status: 0, ms: performance.now() - started, problem: `no answer (${name.slice(0, 120)})` };
  }
}

export async function runLoad(s: LoadSettings): Promise<LoadResult> {
  const pool = new Pool(s.api, {
    connections: Math.min(s.maxInFlight, 128), keepAliveTimeout: 30_000,
    headersTimeout: s.requestTimeoutMs, bodyTimeout: s.requestTimeoutMs,
  });
  const outcomes: Outcome[] = [];
  const inFlight = new Set<Promise<void>>();
  const total = Math.ceil(s.rate * s.durationS);
  let started = 0;
  let notSent = 0;
  let maxInFlightSeen = 0;
  let stoppedEarly: string | undefined;
  const t0 = performance.now();

  try {
    await new Promise<void>((resolve) => {
      const tick = (): void => {
        const elapsedS = (performance.now() - t0) / 1000;
        const reason = s.signal.aborted ? 'aborted' : s.shouldStop?.();
        if (reason !== undefined) stoppedEarly = reason;
        if (stoppedEarly !== undefined || started >= total) {
          resolve();
          return;
        }
        // Once the duration is over every request is due: a late last tick must not drop the last of them.
        const due = elapsedS >= s.durationS ? total : Math.min(total, Math.floor(elapsedS * s.rate) + 1);
        while (started < due) {
          started += 1;
          if (inFlight.size >= s.maxInFlight) {
            notSent += 1;
            continue;
          }
          const planned = s.next();
          const requestId = `${s.requestIdPrefix}${started}`;
          const p: Promise<void> = sendPlanned(pool, planned, requestId, s.requestTimeoutMs, elapsedS)
            .then((outcome) => void outcomes.push(outcome))
            .finally(() => inFlight.delete(p));
          inFlight.add(p);
          maxInFlightSeen = Math.max(maxInFlightSeen, inFlight.size);
        }
        setTimeout(tick, 2);
      };
      tick();
    });
    // Every request still in flight ends by its own timeout at the latest.
    await Promise.all([...inFlight]);
  } finally {
    await pool.close().catch(() => undefined);
  }
  return { outcomes, notSent, elapsedS: (performance.now() - t0) / 1000, maxInFlightSeen, ...(stoppedEarly ? { stoppedEarly } : {}) };
}

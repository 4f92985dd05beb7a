import { Redis } from 'ioredis';
import { SkippedChecks, causeOf } from './skipped-checks.js';

/** What readiness and metrics need to know about the rate-limit Redis. */
export interface RedisHealth {
  /** True when Redis answered PING; false within about `commandTimeoutMs` otherwise, never a rejection. */
  ping(): Promise<boolean>;
  /** Requests answered without a limit check because Redis failed (fail-open events) since start. */
  readonly skippedChecks: number;
  /** Counts one fail-open event and warns (rate-limited); the rate-limit plugin's `onStoreError`. */
  recordSkippedCheck(err: unknown): void;
}

export interface RateLimitRedis {
  client: Redis;
  health: RedisHealth;
  /** Quits gracefully when Redis answers, else drops the connection; stops reconnecting. Idempotent. */
  close(): Promise<void>;
}

export interface RateLimitRedisOptions {
  url: string;
  onWarning: (message: string) => void;
  /** Where "Redis is back" goes; warnings channel when absent, so the count of the last interval is never lost. */
  onInfo?: (message: string) => void;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  warningIntervalMs?: number;
  now?: () => number;
}

/** Backoff between reconnect attempts: 200 ms doubling to 2 s, then every 2 s for as long as it takes. */
export const reconnectDelay = (attempt: number): number => Math.min(100 * 2 ** Math.min(attempt, 5), 2000);

/**
 * The Redis connection behind the shared rate limits, built to fail fast and heal by itself
 * (THREATS 22): a request never waits for Redis to come back, start-up never waits for Redis at
 * all, and the connection is rebuilt when Redis stops answering on it.
 */
export function createRateLimitRedis(options: RateLimitRedisOptions): RateLimitRedis {
  const commandTimeoutMs = options.commandTimeoutMs ?? 250;
  const checks = new SkippedChecks({
    intervalMs: options.warningIntervalMs ?? 10_000,
    now: options.now ?? Date.now,
    warn: options.onWarning,
    info: options.onInfo ?? options.onWarning,
  });
  const client = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs ?? 500,
    // Also bounds the handshake (INFO), so a server that accepts but never answers is left and retried.
    commandTimeout: commandTimeoutMs,
    // A limit check is worth nothing late: refused at once while disconnected, never queued or retried.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A timed-out INCR resent after a reconnect would count one request twice.
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay,
    // A connection given up on is half-closed first; a peer that never answers would hold it for 2 s.
    disconnectTimeout: commandTimeoutMs,
  });
  let closed = false;
  client.on('error', (err: unknown) => checks.failed(causeOf(err)));
  client.on('ready', () => checks.recovered());

  const ping = async (): Promise<boolean> => {
    // commandTimeout already bounds PING; the race also covers a driver state that never settles.
    const answer = client.ping().then((reply) => reply === 'PONG', () => false);
    return withTimeout(answer, commandTimeoutMs + 100, false);
  };

  // A connection that stays open while Redis stops answering (paused, or a peer gone without a
  // reset) would make every request wait out commandTimeout until TCP gives up, minutes later.
  // One failed check on a "ready" connection is not proof: a PING decides whether to rebuild it.
  let probing = false;
  const probe = (): void => {
    if (probing || closed || client.status !== 'ready') return;
    probing = true;
    void ping().then((ok) => {
      probing = false;
      if (!ok && !closed && client.status === 'ready') client.disconnect(true);
    });
  };

  const health: RedisHealth = {
    ping,
    get skippedChecks() {
      return checks.count;
    },
    recordSkippedCheck: (err: unknown) => {
      checks.skipped(causeOf(err));
      probe();
    },
  };

  // Connects in the background: start-up neither waits nor fails; failures reach the 'error' handler.
  client.connect().catch(() => undefined);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= (async () => {
    closed = true;
    if (client.status === 'ready') await withTimeout(client.quit().then(() => undefined, () => undefined), commandTimeoutMs + 100, undefined);
    if (client.status === 'end') return;
    // Between attempts there is no socket to wait for: disconnect only cancels the next attempt.
    const socketOpen = client.status !== 'reconnecting' && client.status !== 'close';
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    client.disconnect();
    if (socketOpen) await withTimeout(ended, commandTimeoutMs + 100, undefined);
  })());

  return { client, health, close };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../ports/clock.port.js';
import { UNAVAILABILITY_TEXT, type UnavailableReads } from '../../domain/read-availability/unavailable-read.js';

/** A dependency the service needs to answer: the EHR, the audit store, Redis when configured. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

/** How old an answer of /health/ready may be: at most one call per dependency per this long. */
export const READINESS_MAX_AGE_MS = 1000;

interface Report {
  ready: boolean;
  checks: Record<string, 'up' | 'down'>;
  /** The reads not served, each with why in words: the service stays ready for the others (issue 57 item 4). */
  unavailableReads: Record<string, string>;
}

const settle = (check: () => Promise<boolean>): Promise<boolean> => check().catch(() => false);

/** Monotonic: a wall clock set back would keep an old answer for as long as it was set back. */
const MONOTONIC: Clock = { now: () => performance.now() };

/**
 * The readiness checks, run at most once per READINESS_MAX_AGE_MS whatever the request rate
 * (issue 20 item 5a, threat 47 of docs/threat-model.md#found-by-independent-review): the route
 * needs no credentials, so without this anyone could turn each request into one EHR, PostgreSQL and
 * Redis call. Requests while a check is in flight share it; a failed check is kept like a good one.
 */
class Readiness {
  private last: { startedAt: number; report: Promise<Report>; settled: boolean } | undefined;

  constructor(private readonly checks: ReadinessChecks, private readonly clock: Clock, private readonly unavailable: () => UnavailableReads) {}

  report(): Promise<Report> {
    const now = this.clock.now();
    const last = this.last;
    if (last !== undefined && (!last.settled || now - last.startedAt < READINESS_MAX_AGE_MS)) return last.report;
    const names = Object.keys(this.checks);
    const current = {
      startedAt: now,
      settled: false,
      report: Promise.all(names.map((name) => settle(this.checks[name] ?? (async () => false)))).then((results): Report => ({
        ready: results.every(Boolean),
        checks: Object.fromEntries(names.map((n, i) => [n, results[i] ? 'up' : 'down'])),
        // As the checks just found them (the EHR's ping reads what its server offers).
        unavailableReads: Object.fromEntries([...this.unavailable()].map(([read, why]) => [read, UNAVAILABILITY_TEXT[why]])),
      })),
    };
    void current.report.finally(() => {
      current.settled = true;
    });
    this.last = current;
    return current.report;
  }
}

/** Liveness and readiness for orchestrators: unauthenticated, so they say nothing about any patient. */
export async function healthRoutes(
  app: FastifyInstance, opts: { checks: ReadinessChecks; clock?: Clock; unavailableReads?: () => UnavailableReads },
): Promise<void> {
  const readiness = new Readiness(opts.checks, opts.clock ?? MONOTONIC, opts.unavailableReads ?? (() => new Map()));
  app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const { ready, checks, unavailableReads } = await readiness.report();
    reply.code(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', checks, unavailableReads };
  });
}

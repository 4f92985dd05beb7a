import type { FastifyInstance } from 'fastify';

/** A dependency the service needs to answer: the EHR, the audit store, Redis when configured. */
export type ReadinessChecks = Record<string, () => Promise<boolean>>;

const settle = (check: () => Promise<boolean>): Promise<boolean> => check().catch(() => false);

/** Liveness and readiness for orchestrators: unauthenticated, so they say nothing about any patient. */
export async function healthRoutes(app: FastifyInstance, opts: { checks: ReadinessChecks }): Promise<void> {
  app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const names = Object.keys(opts.checks);
    const results = await Promise.all(names.map((name) => settle(opts.checks[name] ?? (async () => false))));
    const ready = results.every(Boolean);
    reply.code(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', checks: Object.fromEntries(names.map((n, i) => [n, results[i] ? 'up' : 'down'])) };
  });
}

import type { FastifyInstance } from 'fastify';
import type { AuditTrail } from '../../ports/audit-trail.port.js';
import type { EhrRecords } from '../../ports/ehr-records.port.js';

const settle = (p: Promise<boolean>): Promise<boolean> => p.catch(() => false);

/** Liveness and readiness for orchestrators: unauthenticated, so they say nothing about any patient. */
export async function healthRoutes(app: FastifyInstance, opts: { ehr: EhrRecords; auditTrail: AuditTrail }): Promise<void> {
  app.get('/health/live', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const [ehr, audit] = await Promise.all([settle(opts.ehr.ping()), settle(opts.auditTrail.ping())]);
    const ready = ehr && audit;
    reply.code(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not ready', checks: { ehr: ehr ? 'up' : 'down', audit: audit ? 'up' : 'down' } };
  });
}

import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { MetricsExposition } from '../ports/metrics.port.js';

/**
 * `/metrics` for Prometheus, on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by
 * default), never on the API port: operation counts and the breaker state are for the monitoring
 * network, not for anyone who can reach the API. Like buildApp, it never listens by itself.
 */
export async function buildMetricsApp(opts: { metrics: MetricsExposition; logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: opts.logger, logController: new LogController({ disableRequestLogging: true }) });
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', opts.metrics.contentType);
    return opts.metrics.render();
  });
  return app;
}

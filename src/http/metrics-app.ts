import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { MetricsExposition } from '../ports/metrics.port.js';
import { routedMethods } from './routed-methods.js';

/**
 * `/metrics` for Prometheus, on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by
 * default), never on the API port: operation counts and the breaker state are for the monitoring
 * network, not for anyone who can reach the API. Like buildApp, it never listens by itself. Another
 * method at `/metrics` is 405 with `Allow`, and any other path 404, in the error shape of the API
 * port's pages (docs/contract.md#errors), not fastify's own.
 */
export async function buildMetricsApp(opts: { metrics: MetricsExposition; logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: opts.logger, logController: new LogController({ disableRequestLogging: true }) });
  const notAllowed = routedMethods(app, {});
  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', opts.metrics.contentType);
    return opts.metrics.render();
  });
  app.setNotFoundHandler(async (request, reply) => {
    const refusal = notAllowed(request.url);
    if (refusal === undefined) return reply.code(404).send({ statusCode: 404, message: 'Not found.' });
    return reply.code(405).headers(refusal.headers).send({ statusCode: 405, message: refusal.message });
  });
  return app;
}

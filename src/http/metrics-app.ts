import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { MetricsExposition } from '../ports/metrics.port.js';
import { routedMethods } from './routed-methods.js';

/**
 * `/metrics` for Prometheus, on a listener of its own (METRICS_HOST:METRICS_PORT, loopback by
 * default), never on the API port: operation counts and the breaker state are for the monitoring
 * network, not for anyone who can reach the API. Like buildApp, it never listens by itself. Another
 * method at `/metrics` is 405 with `Allow`, and any other path 404, in the error shape of the API
 * port's pages (docs/contract.md#errors), not fastify's own. It holds at most METRICS_MAX_CONNECTIONS
 * connections, and closes one that has not sent its request's head within METRICS_HEADERS_TIMEOUT_MS.
 */
/** How long a connection may take to send its request's head; one that sends nothing is closed then too. */
export const METRICS_HEADERS_TIMEOUT_MS = 5000;
/** Connections the listener holds at once: a scraper needs one or two. */
export const METRICS_MAX_CONNECTIONS = 16;

export async function buildMetricsApp(opts: { metrics: MetricsExposition; logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.logger,
    logController: new LogController({ disableRequestLogging: true }),
    // A scrape is one small GET: nothing to wait long for. Node checks the deadlines only this often (30 s by default).
    http: { connectionsCheckingInterval: 1000, headersTimeout: METRICS_HEADERS_TIMEOUT_MS },
    requestTimeout: 2 * METRICS_HEADERS_TIMEOUT_MS,
    // The head's deadline starts at its first byte: one that sends nothing is closed for its silence.
    connectionTimeout: METRICS_HEADERS_TIMEOUT_MS,
    keepAliveTimeout: METRICS_HEADERS_TIMEOUT_MS,
    bodyLimit: 1024,
  });
  // One process serves the API too: whoever reaches this listener must not hold its file descriptors by the thousand.
  app.server.maxConnections = METRICS_MAX_CONNECTIONS;
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

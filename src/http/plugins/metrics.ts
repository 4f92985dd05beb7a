import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PrometheusMetrics } from '../../adapters/metrics/prometheus-metrics.js';
import { operationOf } from '../operation-of.js';

/** Request counts and latency per operation and status; scraped apart from the API (src/http/metrics-app.ts). */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { metrics: PrometheusMetrics }) => {
  const { metrics } = opts;
  app.addHook('onResponse', (request, reply, done) => {
    const operation = operationOf(request);
    if (operation !== undefined) {
      const labels = { operation, status: String(reply.statusCode) };
      metrics.requests.inc(labels);
      metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) metrics.rateLimitRejections.inc();
    }
    done();
  });
}, { name: 'metrics' });

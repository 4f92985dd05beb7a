import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RequestMetrics } from '../../ports/metrics.port.js';
import { operationOf } from '../operation-of.js';

/** Request counts and latency per operation and status; scraped apart from the API (src/http/metrics-app.ts). */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { metrics: RequestMetrics }) => {
  const { metrics } = opts;
  app.addHook('onResponse', (request, reply, done) => {
    const operation = operationOf(request);
    if (operation !== undefined) metrics.requestAnswered(operation, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}, { name: 'metrics' });

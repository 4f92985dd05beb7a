import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** OpenAPI 3 generated from the routes' own schemas, at /openapi.json, browsable at /docs. */
export const openapi = fp(async (app: FastifyInstance, opts: { basePath: string }) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Patient Data Access Service',
        version: '1.0.0',
        description: "One patient's booked appointments, care contacts, attention signals, video meetings, demographics, medications and journal notes, and two writes (arrival, payment).",
      },
      servers: [{ url: opts.basePath === '' ? '/' : opts.basePath }],
      components: {
        securitySchemes: {
          subscriptionKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
      security: [{ subscriptionKey: [], bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}, { name: 'openapi' });

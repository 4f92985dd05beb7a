import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { baseDocument } from '../openapi/document.js';
import { nameOf } from '../openapi/named-schemas.js';
import { refineDocument } from '../openapi/refine.js';
import { DEFAULT_OAUTH, type OAuthDocumentation } from '../openapi/security.js';

export interface OpenApiOptions {
  basePath: string;
  /** The authorization server the document's OAuth 2.0 scheme points at; the demo issuer's default address when absent. */
  oauth?: OAuthDocumentation;
}

/** OpenAPI 3 generated from the routes' own schemas and refined for client generators, at /openapi.json, browsable at /docs. */
export const openapi = fp(async (app: FastifyInstance, opts: OpenApiOptions) => {
  await app.register(swagger, {
    openapi: baseDocument(opts.basePath, opts.oauth ?? DEFAULT_OAUTH),
    // Schemas with their own $id (the self-nesting ArchetypeRecord) are named by it, not `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => nameOf(json as Record<string, unknown>) ?? `def-${i}` },
    transformObject: (documents) => {
      if (!('openapiObject' in documents)) throw new Error('the service publishes OpenAPI 3 only');
      return refineDocument(documents.openapiObject as Record<string, unknown>) as typeof documents.openapiObject;
    },
  });
  // "Try it out" sends both credentials; "Authorize" gets a person's token from the demo issuer as
  // its client `api-docs` (authorization code with PKCE; the demo issuer knows this page's redirect).
  const oauth = opts.oauth ?? DEFAULT_OAUTH;
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { persistAuthorization: false, displayOperationId: true },
    ...(oauth.kind === 'demo' ? { initOAuth: { clientId: 'api-docs', usePkceWithAuthorizationCodeGrant: true, scopes: ['openid'] } } : {}),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}, { name: 'openapi' });

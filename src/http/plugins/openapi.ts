import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, onSendHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AUTHORIZE_DIALOG_CSS, forTheDocsPage } from '../openapi/authorize-dialog.js';
import { baseDocument } from '../openapi/document.js';
import { nameOf } from '../openapi/named-schemas.js';
import { refineDocument } from '../openapi/refine.js';
import { DEFAULT_OAUTH, scopes, SIGN_IN_SCOPE, type OAuthDocumentation } from '../openapi/security.js';

export interface OpenApiOptions {
  basePath: string;
  /** The authorization server the document's OAuth 2.0 scheme points at; the demo issuer's default address when absent. */
  oauth?: OAuthDocumentation;
  /** Demo mode only: the demo subscription key, filled in on the page. */
  demoKey?: string;
  /** The FHIR API is served (FHIR_API=on): the page and GET / point at it. */
  fhirApi?: boolean;
}

/**
 * swagger-ui's `onComplete`, filling in the demo key once the page has loaded. @fastify/swagger-ui
 * writes a function of uiConfig into the page as its source text (`toString`), so the key travels as
 * a JSON string literal inside that text; `ui` is the page's SwaggerUI instance there.
 */
function fillInKey(key: string): () => void {
  const source = `function () { ui.preauthorizeApiKey('subscriptionKey', ${JSON.stringify(key)}); }`;
  return Object.assign(() => undefined, { toString: () => source });
}

/** An up segment (`..`, with `\\` read as `/`, as @fastify/send reads it), or a NUL, which it refuses too: no file of the page's. */
// eslint-disable-next-line no-control-regex -- a NUL in a path is what is refused
const UP_SEGMENT = /(?:^|[\\/])\.\.(?:[\\/]|$)|\u0000/;

/**
 * The page's files answer a path with an up segment 404 in shape 1, as every path that is not the
 * service's does, rather than @fastify/static's bare 403, which says nothing a person can act on.
 */
const noUpSegment: preHandlerAsyncHookHandler = async (request, reply) => {
  const rest = (request.params as { '*'?: unknown } | undefined)?.['*'];
  if (typeof rest === 'string' && UP_SEGMENT.test(rest)) return reply.callNotFound();
};

const docsPageHeaders: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('x-frame-options', 'DENY');
  reply.header('content-security-policy', "frame-ancestors 'none'");
  reply.header('referrer-policy', 'no-referrer');
  done(null, payload);
};

/** OpenAPI 3 generated from the routes' own schemas and refined for client generators, at /openapi.json, browsable at /docs. */
export const openapi = fp(async (app: FastifyInstance, opts: OpenApiOptions) => {
  await app.register(swagger, {
    openapi: baseDocument(opts.basePath, opts.oauth ?? DEFAULT_OAUTH, opts.fhirApi === true),
    // Schemas with their own $id (the self-nesting ArchetypeRecord) are named by it, not `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => nameOf(json as Record<string, unknown>) ?? `def-${i}` },
    transformObject: (documents) => {
      if (!('openapiObject' in documents)) throw new Error('the service publishes OpenAPI 3 only');
      return refineDocument(documents.openapiObject as Record<string, unknown>) as typeof documents.openapiObject;
    },
  });
  // "Try it out" sends both credentials; "Authorize" gets a person's token from the demo issuer as
  // its client `api-docs` (authorization code with PKCE; the demo issuer knows this page's redirect).
  // In demo mode the sign-in has every scope ticked, so its token earns answers and not 403s.
  const oauth = opts.oauth ?? DEFAULT_OAUTH;
  // The page holds a person's token once Authorize is done: no other site may frame it (a click
  // made for something else lands on Try it out) or learn its address. Only framing is restricted
  // by CSP: swagger-ui's own pages run inline code a fuller policy would stop. Given to each of
  // swagger-ui's routes as it is registered, so the router decides what is the page (/docs?x and
  // /%64ocs are), not a look at the path on every request.
  app.addHook('onRoute', (route) => {
    if (route.url !== '/docs' && !route.url.startsWith('/docs/')) return;
    route.onSend = [...[route.onSend ?? []].flat(), docsPageHeaders];
    if (route.url.endsWith('*')) route.preHandler = [...[route.preHandler ?? []].flat(), noUpSegment];
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The Authorize dialog shows the filled-in key, then the OAuth sign-in, and no empty block (authorize-dialog.ts).
    transformSpecification: (document) => forTheDocsPage(document),
    theme: { css: [{ filename: 'authorize-dialog.css', content: AUTHORIZE_DIALOG_CSS }] },
    uiConfig: {
      persistAuthorization: false, displayOperationId: true,
      ...(opts.demoKey === undefined ? {} : { onComplete: fillInKey(opts.demoKey) }),
    },
    ...(oauth.kind === 'demo'
      ? { initOAuth: { clientId: 'api-docs', usePkceWithAuthorizationCodeGrant: true, scopes: [SIGN_IN_SCOPE, ...Object.keys(scopes())] } }
      : {}),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The address the start-up banner prints leads a person to the documentation, not to a 404.
  // Its Link header names the machine-readable descriptions too (RFC 8288, RFC 8631): the OpenAPI
  // document, and the FHIR API's CapabilityStatement where it is served.
  const links = ['</docs>; rel="service-doc"', '</openapi.json>; rel="service-desc"; type="application/json"',
    ...(opts.fhirApi === true ? [`<${opts.basePath}/fhir/metadata>; rel="service-desc"; type="application/fhir+json"`] : [])].join(', ');
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.header('link', links).redirect('/docs', 302));
}, { name: 'openapi' });

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServerMount } from '../ports/auth-server.port.js';
import { limitPerSource, type AuthServerLimit } from './auth-server-limit.js';
import { HSTS } from './plugins/api-protection.js';

/**
 * `{PUBLIC_BASE_URL}/auth`: every method and path below it goes, unparsed, to the service's own
 * authorization server (docs/sign-in.md), which reads its forms and answers itself; the API's JSON-only
 * body rules, subscription keys and audit hooks are the API's, not its. Its own limit per source
 * address comes first (src/http/auth-server-limit.ts).
 */
export async function authServerRoutes(app: FastifyInstance, opts: { server: AuthServerMount; limit: AuthServerLimit }): Promise<void> {
  await limitPerSource(app, opts.server, opts.limit);
  app.removeAllContentTypeParsers();
  // The body stays in the request stream for the server to read (and bound) itself.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // A hijacked answer skips the app's onSend hooks: its request id, and over HTTPS the HSTS every API answer carries, set here.
    reply.raw.setHeader('x-request-id', request.id);
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
    reply.hijack();
    await opts.server.handle(request.raw, reply.raw);
  };
  // Described by the server's own discovery, not the COS API's OpenAPI document, which has an
  // operation of the table for each of its paths: listed there, /docs and /openapi.json failed with 500.
  const hidden = { schema: { hide: true } };
  app.all('/', hidden, handle);
  app.all('/*', hidden, handle);
}

import cors from '@fastify/cors';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../api-error.js';
import { FILTERED_HEADER } from '../release-header.js';
import { helmetEachRequest, precomputedSecurityHeaders, securityHeaderFields } from '../security-headers.js';

export interface ProtectionOptions {
  /** Origins allowed to call from a browser; none (CORS off) by default. */
  corsOrigins: readonly string[];
  maxEventLoopDelayMs: number;
  maxHeapUsedBytes: number;
  /** The security headers (protectionHeaders), made once for the app: unserved paths get the same (src/http/app.ts). */
  headers: (request: FastifyRequest, reply: FastifyReply) => void;
}

const RETRY_AFTER_S = 5;
/** helmet's own default value. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers of an answer no browser should render or frame: helmet's as a list made once
 * (src/http/security-headers.ts), not its middleware chain per request, and HSTS over HTTPS. For
 * every API answer, and for a path or method no route serves (src/http/app.ts). `helmetPerRequest`:
 * helmet run for each request, the path the precomputed headers are held equal to (set only by that test).
 */
export function protectionHeaders(helmetPerRequest = false): (request: FastifyRequest, reply: FastifyReply) => void {
  const securityHeaders = helmetPerRequest ? helmetEachRequest() : precomputedSecurityHeaders();
  return (request, reply) => {
    // Directly over TLS, or from a trusted proxy (TRUST_PROXY) that says its side was HTTPS.
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
    securityHeaders(request.raw, reply.raw);
  };
}

/**
 * The same headers as fields, for an answer Node's parser refused, written on the socket with no reply
 * (src/http/transport-errors.ts): HSTS when that socket is TLS (a trusted proxy's word is in a request, which there is none of).
 */
export function protectionFields(): (encrypted: boolean) => Readonly<Record<string, string>> {
  const plain = securityHeaderFields();
  const overTls = { 'strict-transport-security': HSTS, ...plain };
  return (encrypted) => (encrypted ? overTls : plain);
}

/**
 * What every API answer needs around it: headers for a JSON API that no browser should render or
 * frame, CORS only for configured origins, and shedding load with 503 + Retry-After while the
 * process is overloaded, instead of letting every request slow down until it collapses.
 */
export const apiProtection = fp(async (app: FastifyInstance, opts: ProtectionOptions) => {
  if (opts.corsOrigins.length > 0) {
    // Before the credential checks, so a preflight (which carries none) is answered here.
    await app.register(cors, {
      origin: [...opts.corsOrigins],
      methods: ['GET', 'HEAD', 'PUT', 'POST'],
      allowedHeaders: ['Authorization', 'Ocp-Apim-Subscription-Key', 'patient', 'Content-Type', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'Retry-After', FILTERED_HEADER],
      maxAge: 600,
    });
  }
  app.addHook('onRequest', (request, reply, done) => {
    opts.headers(request, reply);
    done();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    maxHeapUsedBytes: opts.maxHeapUsedBytes,
    sampleInterval: 250,
    pressureHandler: async (_request, _reply, type, value) => {
      // A sample window with no delay samples in it is reported as an infinite delay: that is a
      // stall already over, not overload, and must not shed every request for the next window.
      if (type === 'eventLoopDelay' && !Number.isFinite(value)) return;
      throw new ApiError(503, 'The service is overloaded. Try again later.', { 'retry-after': String(RETRY_AFTER_S) });
    },
  });
}, { name: 'api-protection' });

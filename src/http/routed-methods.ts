/**
 * A page that is not an operation (the OpenAPI document, /docs, the health checks, the favicon, the
 * patient app) asked with a method it does not serve is 405 with `Allow` (RFC 9110 §15.5.6), as an
 * operation's path and a FHIR path are (method-not-allowed.ts, fhir-routes.ts), in the error shape of
 * every path that is not an operation's (docs/contract.md#errors). Its methods are read off the routes
 * as they are registered (fastify's `onRoute`), not listed here, and a request's path is matched by
 * find-my-way, the router fastify itself routes with, under the same options: a path is known exactly
 * when fastify routes some method of it to a route of its own. A wildcard route (the patient app's
 * files, the docs page's) is left out: its handler answers 404 for a file that does not exist, so a
 * path under it is not known by its route alone, and another method there stays 404. Routes are read
 * without constraints (version, host), which the service sets on none.
 */
import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';

/** The order `Allow` names methods in; a method outside it is named after them. */
const ORDER = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];
/** A request target the router reads as a path: origin-form, or absolute-form (`*` is mapped onto `/` by find-my-way). */
const PATH_TARGET = /^(?:\/|https?:\/\/)/i;
const nothing = (): void => undefined;

/**
 * Starts collecting `app`'s routes: call before any route is registered, with the router options
 * `app` was made with. The function it gives answers, for a request the router found no route for,
 * the 405 to throw when some other method of its path is routed, else undefined (a 404).
 */
export function routedMethods(app: FastifyInstance, routerOptions: { ignoreTrailingSlash?: boolean }): (url: string) => ApiError | undefined {
  const router = FindMyWay({ ...routerOptions });
  const methods = new Set<string>();
  const added = new Set<string>();
  const add = (method: string, url: string): void => {
    if (added.has(`${method} ${url}`)) return;
    added.add(`${method} ${url}`);
    methods.add(method);
    router.on(method as FindMyWay.HTTPMethod, url, nothing);
  };
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    for (const method of [route.method].flat()) {
      add(method, route.url);
      // fastify serves HEAD wherever it serves GET unless the route says otherwise (exposeHeadRoutes).
      if (method === 'GET' && route.exposeHeadRoute !== false) add('HEAD', route.url);
    }
  });
  const rank = (method: string): number => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);
  return (url) => {
    if (!PATH_TARGET.test(url)) return undefined;
    const allowed = [...methods].filter((method) => router.find(method as FindMyWay.HTTPMethod, url) !== null);
    if (allowed.length === 0) return undefined;
    const allow = allowed.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(', ');
    return new ApiError(405, `Method not allowed: this path takes ${allow}.`, { allow });
  };
}

/**
 * A path asked with a method it does not serve is 405 with `Allow` (RFC 9110 §15.5.6), not the 404 of
 * an unknown path, in that path's error shape (docs/contract.md#errors): an operation's path in its
 * operation's shape, a page (the OpenAPI document, /docs, the health checks, the favicon, the patient
 * app) in shape 1. FHIR paths answer their own 405s first (fhir-routes.ts). The methods and shapes are
 * read off the routes as they are registered (fastify's `onRoute`), not listed here, and a request's
 * path is matched by find-my-way, the router fastify itself routes with, under the same options: a path
 * is known exactly when fastify routes some method of it to a route of its own. A wildcard route (the
 * patient app's files, the docs page's) is left out: its handler answers 404 for a file that does not
 * exist, so a path under it is not known by its route alone, and another method there stays 404. Routes
 * are read without constraints (version, host), which the service sets on none.
 */
import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';
import type { ErrorShape } from './types.js';

/** The order `Allow` names methods in; a method outside it is named after them. */
const ORDER = ['GET', 'HEAD', 'PUT', 'POST', 'PATCH', 'DELETE', 'OPTIONS'];
/** A request target the router reads as a path: origin-form, or absolute-form (`*` is mapped onto `/` by find-my-way). */
const PATH_TARGET = /^(?:\/|https?:\/\/)/i;
const nothing = (): void => undefined;
/** What a path's 405 is written in: the shape of the first route registered at it (an operation's), else shape 1. */
interface PathShape { errorShape: ErrorShape | undefined }

/**
 * Starts collecting `app`'s routes: call before any route is registered, with the router options
 * `app` was made with. The function it gives answers, for a request the router found no route for,
 * the 405 to throw when some other method of its path is routed, else undefined (a 404).
 */
export function routedMethods(app: FastifyInstance, routerOptions: { ignoreTrailingSlash?: boolean }): (url: string) => ApiError | undefined {
  const router = FindMyWay({ ...routerOptions });
  const methods = new Set<string>();
  const shapes = new Map<string, PathShape>();
  const add = (method: string, url: string, errorShape: ErrorShape | undefined): void => {
    const known = shapes.get(url);
    const shape = known ?? { errorShape };
    shapes.set(url, shape);
    // fastify reports the HEAD it adds beside a GET as a route too: one entry a method and path.
    if (known !== undefined && router.findRoute(method as FindMyWay.HTTPMethod, url) !== null) return;
    methods.add(method);
    router.on(method as FindMyWay.HTTPMethod, url, nothing, shape);
  };
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const errorShape = (route.config as { errorShape?: ErrorShape } | undefined)?.errorShape;
    for (const method of [route.method].flat()) {
      add(method, route.url, errorShape);
      // fastify serves HEAD wherever it serves GET unless the route says otherwise (exposeHeadRoutes).
      if (method === 'GET' && route.exposeHeadRoute !== false) add('HEAD', route.url, errorShape);
    }
  });
  const rank = (method: string): number => (ORDER.includes(method) ? ORDER.indexOf(method) : ORDER.length);
  return (url) => {
    if (!PATH_TARGET.test(url)) return undefined;
    let shape: PathShape | undefined;
    const allowed: string[] = [];
    for (const method of methods) {
      const found = router.find(method as FindMyWay.HTTPMethod, url);
      if (found === null) continue;
      allowed.push(method);
      shape ??= found.store as PathShape;
    }
    if (allowed.length === 0) return undefined;
    const allow = allowed.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(', ');
    return new ApiError(405, `Method not allowed: this path takes ${allow}.`, { allow }, shape?.errorShape);
  };
}

/**
 * A documented path asked with a method it does not serve is 405 with `Allow` (RFC 9110 §15.5.6),
 * in that path's error shape (docs/contract.md#errors), not the 404 of an unknown path. The paths,
 * their methods and shapes come from the route table; HEAD is served wherever GET is.
 */
import { ApiError } from './api-error.js';
import { apiRoutes } from './routes/api-routes.js';
import type { ErrorShape } from './types.js';

interface PathMethods { methods: Set<string>; errorShape: ErrorShape }

const withoutSlash = (path: string): string => (path.length > 1 ? path.replace(/\/$/, '') : path);

/** A path with a parameter (`/patients/proxies/{id}`) as a pattern of the request's path: one segment per parameter. */
const PARAMETER = /\{[A-Za-z]+\}/g;
const patternOf = (path: string): RegExp =>
  new RegExp(`^${path.split(PARAMETER).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+')}$`);

/** For a request the router found no route for: a 405 to throw when its path is documented, else undefined (a 404). */
export function methodNotAllowed(basePath: string): (url: string) => ApiError | undefined {
  const paths = new Map<string, PathMethods>();
  for (const route of apiRoutes()) {
    for (const path of [route.path, ...route.vendorPaths]) {
      const key = withoutSlash(`${basePath}${path}`);
      const entry = paths.get(key) ?? { methods: new Set<string>(), errorShape: route.errorShape };
      entry.methods.add(route.method);
      if (route.method === 'GET') entry.methods.add('HEAD');
      paths.set(key, entry);
    }
  }
  // A path with a parameter matches any value of it (a grant id): its methods are those of the path.
  const templates = [...paths].filter(([path]) => path.includes('{')).map(([path, entry]) => [patternOf(path), entry] as const);
  const order = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'];
  return (url) => {
    const path = withoutSlash(url.split('?')[0] ?? '');
    const entry = paths.get(path) ?? templates.find(([pattern]) => pattern.test(path))?.[1];
    if (entry === undefined) return undefined;
    const allow = order.filter((m) => entry.methods.has(m)).join(', ');
    return new ApiError(405, `Method not allowed: this path takes ${allow}.`, { allow }, entry.errorShape);
  };
}

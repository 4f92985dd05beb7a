/**
 * Which file of the built app a request names, if any: a path of plain names below the app's
 * folder with a known type. `..`, a backslash, an encoded separator that decoded into one, a
 * hidden file or anything outside the allowed characters names nothing, whatever the router made
 * of the URL; the resolved path is checked to stay inside the folder as well.
 */
import path from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export interface AppFile { path: string; type: string }

/** The file `relative` (the part of the URL after `/app/`, decoded) names in `root`; `''` is index.html. */
export function appFileOf(root: string, relative: string): AppFile | undefined {
  const name = relative === '' ? 'index.html' : relative;
  const segments = name.split('/');
  if (!segments.every((s) => SEGMENT.test(s) && !s.includes('..'))) return undefined;
  const type = TYPES[path.extname(name)];
  if (type === undefined) return undefined;
  const resolved = path.resolve(root, ...segments);
  if (!resolved.startsWith(path.resolve(root) + path.sep)) return undefined;
  return { path: resolved, type };
}

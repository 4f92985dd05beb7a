/**
 * What a log line or a span says of a request's path (issue 44 item 11): the matched route's
 * template (`/fhir/:type/:id`, `/patients/journalnotes/`), never what the caller wrote, which may
 * spell an identity number in ways no scrubber foresees (`/x/_19121212--1212.json/`). A path no
 * route matched is a fixed marker and its length. The scrubber (src/domain/redaction/scrub-text.ts)
 * stays for the texts that must be logged.
 */
export const UNMATCHED_PATH = '(unmatched path)';

/** A fastify request, or the bare IncomingMessage of a request fastify never routed. */
interface RequestLike {
  url?: string;
  routeOptions?: { url?: string };
  is404?: boolean;
}

export interface LoggedPath {
  path: string;
  /** Only for an unmatched path: how many characters it had, its query not counted. */
  pathLength?: number;
}

export function loggedPath(request: RequestLike): LoggedPath {
  const route = request.is404 === true ? undefined : request.routeOptions?.url;
  if (route !== undefined && route !== '') return { path: route };
  const raw = request.url ?? '';
  const query = raw.indexOf('?');
  return { path: UNMATCHED_PATH, pathLength: query < 0 ? raw.length : query };
}

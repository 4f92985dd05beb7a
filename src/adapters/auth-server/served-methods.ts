// The methods each endpoint of oidc-provider takes as provider-config.ts configures it (its `routes` at
// their defaults, the features it turns on): a request of another method is 405 with `Allow` (RFC 9110
// §15.5.6), one for a path not here 404 (provider-pages.ts). What apps call (token, revocation,
// introspection, discovery, the signing keys) answers in OAuth errors, everything else a person may
// land on with the service's page.

export interface Served {
  /** The methods, in `Allow`'s order. */
  methods: readonly string[];
  /** An endpoint an app calls, discovery and the keys too (OAuth JSON errors whatever it accepts), not a page a browser shows. */
  backChannel: boolean;
  /** Where only a person's browser is sent (authorization, signing out): answered with a page whatever it accepts. */
  page: boolean;
}

const PAGE_GET = { methods: ['GET', 'HEAD'], backChannel: false, page: true };
/** Discovery and the signing keys: read by anyone, cross-origin too (an OPTIONS preflight). */
const OPEN_GET = { methods: ['GET', 'HEAD', 'OPTIONS'], backChannel: true, page: false };
const BACK_CHANNEL = { methods: ['POST', 'OPTIONS'], backChannel: true, page: false };

const SERVED: ReadonlyMap<string, Served> = new Map<string, Served>([
  // POST too: smart-token-endpoint.ts hands a POSTed authorization request on as GET.
  ['/auth', { methods: ['GET', 'HEAD', 'POST'], backChannel: false, page: true }],
  ['/token', BACK_CHANNEL],
  ['/token/revocation', BACK_CHANNEL],
  ['/token/introspection', BACK_CHANNEL],
  ['/jwks', OPEN_GET],
  ['/.well-known/openid-configuration', OPEN_GET],
  ['/.well-known/oauth-authorization-server', OPEN_GET],
  ['/session/end', PAGE_GET],
  ['/session/end/confirm', { methods: ['POST'], backChannel: false, page: true }],
  ['/session/end/success', PAGE_GET],
]);

/** `path` as oidc-provider's router reads it: in any letter case (`/TOKEN` is its token endpoint). */
const routedPath = (path: string): string => path.toLowerCase();

/**
 * The endpoint `path` (below the mount) routes to, as the table writes it (`/TOKEN/` is `/token`: any
 * letter case, one closing slash ignored, as oidc-provider's router reads it); undefined for a path
 * that is no endpoint here.
 */
export function endpointOf(path: string): string | undefined {
  const routed = routedPath(path);
  if (SERVED.has(routed)) return routed;
  const bare = routed.length > 1 && routed.endsWith('/') ? routed.slice(0, -1) : undefined;
  return bare !== undefined && SERVED.has(bare) ? bare : undefined;
}

/** What `path` (below the mount, as endpointOf reads it) serves; undefined for a path it does not. */
export function servedAt(path: string): Served | undefined {
  const endpoint = endpointOf(path);
  return endpoint === undefined ? undefined : SERVED.get(endpoint);
}

/**
 * Whether `path` is a person's page: an endpoint a browser is sent to, or the resume of a sign-in
 * (`/auth/<uid>`, which oidc-provider routes by a pattern). What refuses it is the service's page, never
 * JSON, however the request negotiates: no app reads these answers, and oidc-provider's own error handler
 * would answer JSON to any request that does not put HTML first (docs/sign-in.md, "Every page is the service's").
 */
export function forPerson(path: string): boolean {
  return servedAt(path)?.page === true || routedPath(path).startsWith('/auth/');
}

// SIGN_IN_CLIENTS_FILE (docs/sign-in.md): the apps a region registers, as a JSON array of client metadata
// with RFC 7591 names and some of ours (`offline_access`, `loopback_redirects`, `manages_grants`,
// `notification_endpoints`). A bad entry stops the start, naming the entry and the field; nothing is guessed.
import { scopeLetters, smartGrants, type ScopeLetters } from '../../domain/fhir/smart-scopes.js';
import { prefixProblem } from '../../domain/notifications/endpoint-rules.js';
import { API_SCOPES, type AuthClient } from './clients.js';
import { isLoopbackRedirect, isPersonScope, SMART_OIDC_SCOPES } from './smart-launch.js';

export class ClientsFileError extends Error {
  override name = 'ClientsFileError';
}

const API_SCOPE_SET: ReadonlySet<string> = new Set(API_SCOPES);
const OIDC_SCOPES: ReadonlySet<string> = new Set(SMART_OIDC_SCOPES);
/** How a registered app authenticates: public (PKCE), or with its own key; never a shared secret. */
export const AUTH_METHODS = ['none', 'private_key_jwt'] as const;

/**
 * A registered SMART scope covers an asked one of the same context: its type or `*`, every letter asked (of
 * `cruds`, writing and managing too, not only the reads this API serves: helper-128, F1), no narrower category.
 */
function covers(registered: ScopeLetters, asked: ScopeLetters): boolean {
  if (registered.context !== asked.context || (registered.type !== '*' && registered.type !== asked.type)) return false;
  if (![...asked.letters].every((l) => registered.letters.has(l))) return false;
  return registered.category === undefined
    || (asked.category?.code === registered.category.code && (registered.category.system === undefined || asked.category.system === registered.category.system));
}

/** Whether `scope` is one the entry registered, exactly or under a SMART wildcard. */
function allowedBy(registered: readonly string[]): (scope: string) => boolean {
  const exact = new Set(registered);
  const listed = registered.map(scopeLetters).filter((l) => l !== undefined);
  return (scope) => {
    if (exact.has(scope)) return true;
    const asked = scopeLetters(scope);
    return asked !== undefined && listed.some((l) => covers(l, asked));
  };
}

type Entry = Record<string, unknown>;

function redirectUris(entry: Entry, where: string): string[] {
  const uris = entry.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string' && URL.canParse(u))) {
    throw new ClientsFileError(`${where}: redirect_uris must list the app's exact redirect URIs (absolute URIs), e.g. ["https://app.example.se/callback"]`);
  }
  for (const uri of uris as string[]) {
    const url = new URL(uri);
    if (url.hash !== '') throw new ClientsFileError(`${where}: redirect URI ${uri} must have no fragment`);
    if (url.protocol === 'http:' && !isLoopbackRedirect(uri)) {
      throw new ClientsFileError(`${where}: redirect URI ${uri} must be https (plain http only on 127.0.0.1 or [::1], with no query)`);
    }
  }
  // Every app gets pairwise subjects, which oidc-provider derives from the redirect URIs' one host (its
  // port included): on two, it refuses each authorization of the app as invalid_client_metadata.
  const hosts = [...new Set((uris as string[]).map((u) => new URL(u).host))];
  if (hosts.length > 1) {
    const [first, second] = (uris as string[]).filter((u, i, all) => all.findIndex((v) => new URL(v).host === new URL(u).host) === i);
    throw new ClientsFileError(`${where}: redirect_uris must all be on one host (and port), as pairwise subject ids are made per host: ${first ?? ''} and ${second ?? ''} are not; register a second app for the other`);
  }
  return uris as string[];
}

function scopes(entry: Entry, where: string): string[] {
  if (typeof entry.scope !== 'string' || entry.scope.trim() === '') {
    throw new ClientsFileError(`${where}: scope must list, space-separated, what the app may ask for, e.g. "openid fhirUser launch/patient patient/*.rs"`);
  }
  const listed = entry.scope.split(' ').filter((s) => s !== '');
  // SMART's forms of the API's scopes count (`patient/Appointment.write`: the check-in of the launch patient only).
  const unknown = listed.filter((s) => !OIDC_SCOPES.has(s) && !API_SCOPE_SET.has(s) && smartGrants([s]).length === 0 && !isPersonScope(s, API_SCOPE_SET));
  if (unknown.length > 0) {
    throw new ClientsFileError(`${where}: scope names what this service does not grant: ${unknown.join(' ')}`
      + ' (a write is named as the API names it or in SMART\'s v1 form, e.g. patient/Appointment.write)');
  }
  if (listed.includes('offline_access')) throw new ClientsFileError(`${where}: say "offline_access": true instead of listing offline_access in scope`);
  return listed;
}

function flag(entry: Entry, name: string, where: string): boolean {
  const value = entry[name] ?? false;
  if (typeof value !== 'boolean') throw new ClientsFileError(`${where}: ${name} must be true or false`);
  return value;
}

function authMethod(entry: Entry, where: string): (typeof AUTH_METHODS)[number] {
  const method = entry.token_endpoint_auth_method;
  if (!AUTH_METHODS.includes(method as never)) {
    throw new ClientsFileError(`${where}: token_endpoint_auth_method must be none (a public app, PKCE) or private_key_jwt (with jwks or jwks_uri); shared secrets are not taken`);
  }
  if (method === 'private_key_jwt' && entry.jwks === undefined && entry.jwks_uri === undefined) {
    throw new ClientsFileError(`${where}: private_key_jwt needs the app's public keys: jwks or jwks_uri`);
  }
  return method as (typeof AUTH_METHODS)[number];
}

// What the pages and the access log can show (its displayName is at most 128 characters): no control characters.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const SHOWABLE_NAME = /^[^\u0000-\u001f\u007f-\u009f]{1,128}$/;

function clientName(entry: Entry, where: string): Record<string, string> {
  const names: Record<string, string> = {};
  for (const key of ['client_name', 'client_name#sv', 'client_name#en']) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !SHOWABLE_NAME.test(value)) throw new ClientsFileError(`${where}: ${key} must be 1 to 128 printable characters`);
    names[key] = value;
  }
  return names;
}

const MAX_NOTIFICATION_ENDPOINTS = 20;

/**
 * The URL prefixes the app's notifications may go to (docs/notifications.md), each one the endpoint
 * rules take; a loopback one is held to SUBSCRIPTION_ALLOW_LOOPBACK at start (subscription-settings.ts).
 */
function notificationEndpoints(entry: Entry, where: string): string[] | undefined {
  const prefixes = entry.notification_endpoints;
  if (prefixes === undefined) return undefined;
  if (!Array.isArray(prefixes) || prefixes.length > MAX_NOTIFICATION_ENDPOINTS || !prefixes.every((p) => typeof p === 'string')) {
    throw new ClientsFileError(`${where}: notification_endpoints must be a list of URL prefixes (at most ${MAX_NOTIFICATION_ENDPOINTS}), e.g. ["https://app.example.se/fhir-notifications/"]`);
  }
  for (const [i, prefix] of (prefixes as string[]).entries()) {
    const problem = prefixProblem(prefix, true);
    if (problem !== undefined) throw new ClientsFileError(`${where}: notification_endpoints entry ${i + 1} ${problem}`);
  }
  return prefixes as string[];
}

function toAuthClient(entry: Entry, where: string): AuthClient {
  const clientId = entry.client_id;
  const method = authMethod(entry, where);
  const uris = redirectUris(entry, where);
  const listed = scopes(entry, where);
  const offline = flag(entry, 'offline_access', where);
  const loopback = flag(entry, 'loopback_redirects', where);
  // The region's own app (its patient app): its person's tokens may list and revoke the person's connected apps.
  const managesGrants = flag(entry, 'manages_grants', where);
  const notifiedAt = notificationEndpoints(entry, where);
  const allows = allowedBy([...listed, ...(offline ? ['offline_access'] : [])]);
  // A public app in a browser exchanges its code by a cross-origin call (Chromium sends Origin even to
  // its own origin): its redirect URIs' one origin may call the token endpoint, no other.
  // A native app's own scheme has the opaque origin "null", never to be allowed.
  const origins = new Set(uris.map((u) => new URL(u)).map((u) => (['https:', 'http:'].includes(u.protocol) ? u.origin : 'null')));
  const corsOrigin = method === 'none' && origins.size === 1 && !origins.has('null') ? [...origins][0] : undefined;
  return {
    metadata: {
      client_id: clientId as string, ...clientName(entry, where), token_endpoint_auth_method: method,
      ...(method === 'private_key_jwt' ? { token_endpoint_auth_signing_alg: 'RS256' } : {}),
      ...(entry.jwks === undefined ? {} : { jwks: entry.jwks }), ...(entry.jwks_uri === undefined ? {} : { jwks_uri: entry.jwks_uri }),
      application_type: uris.every((u) => u.startsWith('https:')) ? 'web' : 'native',
      grant_types: offline ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
      response_types: ['code'], redirect_uris: uris, subject_type: 'pairwise',
      // oidc-provider's own `scope` names only OpenID scopes; the rest is held to `allows` (provider-config.ts).
      scope: listed.filter((s) => OIDC_SCOPES.has(s)).concat(offline ? ['offline_access'] : []).join(' ') || 'openid',
    },
    apiScopes: listed.filter((s) => API_SCOPE_SET.has(s)),
    smart: true,
    allows,
    ...(loopback ? { redirectAllowed: isLoopbackRedirect } : {}),
    ...(corsOrigin === undefined ? {} : { corsOrigin: () => corsOrigin }),
    ...(managesGrants ? { managesGrants } : {}),
    ...(notifiedAt === undefined ? {} : { notificationEndpoints: notifiedAt }),
  };
}

/** The clients of a clients file's text; `file` names it in every refusal. */
export function parseClientsFile(text: string, file: string): AuthClient[] {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (err) {
    throw new ClientsFileError(`${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!Array.isArray(entries) || entries.length === 0) throw new ClientsFileError(`${file} must be a JSON array with one object per app`);
  const seen = new Set<string>();
  return entries.map((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ClientsFileError(`${file} entry ${index + 1} must be an object`);
    const id = (entry as Entry).client_id;
    if (typeof id !== 'string' || !/^[A-Za-z0-9._~-]{1,100}$/.test(id)) {
      throw new ClientsFileError(`${file} entry ${index + 1}: client_id must be 1 to 100 letters, digits or ._~-`);
    }
    if (seen.has(id)) throw new ClientsFileError(`${file} lists client_id ${id} twice`);
    seen.add(id);
    return toAuthClient(entry as Entry, `${file} entry ${index + 1} (${id})`);
  });
}

/**
 * Where a notification may go (docs/notifications.md, threat 66): `channel.endpoint` only under a
 * prefix the region allows for the app (its clients-file `notification_endpoints`, and
 * SUBSCRIPTION_ENDPOINTS), compared as URLs, never as strings: the same origin, and the prefix's path
 * a prefix of the endpoint's at a segment boundary, both normalised first (WHATWG URL parsing, dot
 * segments, percent-encoded unreserved characters). What cannot be compared so is refused: userinfo,
 * a fragment, an encoded slash or backslash, a dot segment with parameters (`..;`, which some servers
 * climb by). `https`, or `http` on a loopback address literal where loopback is allowed. No I/O: what
 * a name resolves to is the channel's to hold, at every connection (blocked-addresses.ts).
 */
import { addressKind, refusedAddress } from './blocked-addresses.js';

export const MAX_URL_LENGTH = 2048;

/** Allowed: `endpoint` is the normalised URL, the one to keep and send to. Refused: a message for a 400 naming channel.endpoint. */
export type EndpointVerdict = { allowed: true; endpoint: string } | { allowed: false; problem: string };

interface Place {
  scheme: string;
  host: string;
  /** '' for the scheme's default. */
  port: string;
  /** Whether the text names a port (a loopback prefix without one admits any). */
  portWritten: boolean;
  path: string;
  query: string;
}

type Parsed = { place: Place; href: string } | { problem: string };

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const NOT_WRITTEN_AS_IS = /[\u0000-\u0020\u007f\\]/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const LOOPBACK_LITERAL = /^(?:127\.\d+\.\d+\.\d+|\[::1\])$/;
const LOOPBACK_HINT = 'name loopback by its address, 127.0.0.1 or [::1]: localhost is a name, which may resolve anywhere';

/** A segment with every escape decoded, as a lenient receiver reads it (an escape that is not one stays as written). */
function fullyDecoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path with percent-encoded unreserved characters decoded and other escapes in upper case; or what makes it incomparable. */
function normalisedPath(pathname: string): { path: string } | { problem: string } {
  const path = pathname.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  if (/%25[0-9A-Fa-f]{2}/.test(path)) {
    return { problem: 'must not hold an encoded percent sign before two hex digits (such as %252E): a receiver decoding twice reads another path' };
  }
  if (/%(?:2F|5C|[01][0-9A-F]|7F)/.test(path)) {
    return { problem: 'must not hold an encoded slash, backslash or control character (%2F, %5C, %00…) in its path: a receiver may decode it into another path' };
  }
  if (path.split('/').some((segment) => /^\.\.?(?:;.*)?$/.test(fullyDecoded(segment)))) {
    return { problem: 'must not hold a dot segment with parameters (such as "..;" or "..%3B"): some servers climb by it' };
  }
  return { path };
}

function hostProblem(host: string, allowLoopback: boolean): string | undefined {
  if (/(?:^|\.)localhost\.?$/.test(host)) return `must not name localhost: ${LOOPBACK_HINT}`;
  const kind = refusedAddress(host.replace(/^\[|\]$/g, ''), allowLoopback);
  if (kind === 'loopback') return 'names a loopback address, which notifications reach only where the region allows it (SUBSCRIPTION_ALLOW_LOOPBACK=true)';
  if (kind !== undefined) return `names a ${kind} address, where nothing is ever sent`;
  return undefined;
}

function parse(raw: string, allowLoopback: boolean): Parsed {
  if (raw.length > MAX_URL_LENGTH) return { problem: `must be at most ${MAX_URL_LENGTH} characters` };
  if (NOT_WRITTEN_AS_IS.test(raw)) return { problem: 'must not hold spaces, control characters or a backslash' };
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(raw)?.[1];
  if (authority === undefined || !URL.canParse(raw)) return { problem: 'must be an absolute URL, e.g. https://app.example.se/notifications' };
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must be an https URL' };
  if (authority.includes('@')) return { problem: 'must not hold userinfo (a user name or password before @)' };
  if (raw.includes('#')) return { problem: 'must not hold a fragment (#)' };
  const host = hostProblem(url.hostname, allowLoopback);
  if (host !== undefined) return { problem: host };
  if (url.protocol === 'http:' && !(allowLoopback && LOOPBACK_LITERAL.test(url.hostname))) {
    return { problem: allowLoopback ? 'must be https (plain http only on 127.0.0.1 or [::1])' : 'must be https' };
  }
  const path = normalisedPath(url.pathname);
  if ('problem' in path) return path;
  const place = { scheme: url.protocol, host: url.hostname, port: url.port, portWritten: /:\d*$/.test(authority), path: path.path, query: url.search };
  return { place, href: `${place.scheme}//${place.host}${place.port === '' ? '' : `:${place.port}`}${place.path}${place.query}` };
}

function parsePrefix(prefix: string, allowLoopback: boolean): Parsed {
  const parsed = parse(prefix, allowLoopback);
  if (!('problem' in parsed) && parsed.place.query !== '') return { problem: 'must not hold a query (?): a prefix is an origin and a path' };
  return parsed;
}

/** Why `prefix` cannot be an allowed prefix (for the setting or the clients file that names it), or undefined. */
export function prefixProblem(prefix: string, allowLoopback: boolean): string | undefined {
  const parsed = parsePrefix(prefix, allowLoopback);
  return 'problem' in parsed ? parsed.problem : undefined;
}

function isUnder(endpoint: Place, prefix: Place): boolean {
  const anyPort = !prefix.portWritten && addressKind(prefix.host.replace(/^\[|\]$/g, '')) === 'loopback';
  if (endpoint.scheme !== prefix.scheme || endpoint.host !== prefix.host || (!anyPort && endpoint.port !== prefix.port)) return false;
  return prefix.path.endsWith('/') ? endpoint.path.startsWith(prefix.path) : endpoint.path === prefix.path || endpoint.path.startsWith(`${prefix.path}/`);
}

/** The endpoints one app may use: its allowed prefixes, and whether loopback is allowed (SUBSCRIPTION_ALLOW_LOOPBACK). */
export class EndpointRules {
  private readonly prefixes: readonly Place[];

  /** Throws a RangeError for a prefix that is not one (prefixProblem): the settings refuse those at start. */
  constructor(prefixes: readonly string[], readonly allowLoopback: boolean) {
    this.prefixes = prefixes.map((prefix) => {
      const parsed = parsePrefix(prefix, allowLoopback);
      if ('problem' in parsed) throw new RangeError(`notification endpoint prefix ${prefix} ${parsed.problem}`);
      return parsed.place;
    });
  }

  check(endpoint: string): EndpointVerdict {
    const parsed = parse(endpoint, this.allowLoopback);
    if ('problem' in parsed) return { allowed: false, problem: `channel.endpoint ${parsed.problem}` };
    if (this.prefixes.length === 0) {
      return { allowed: false, problem: 'channel.endpoint cannot be allowed: no notification endpoint is registered for this app; ask the region to register your endpoint\'s prefix (notification_endpoints in its clients file, or SUBSCRIPTION_ENDPOINTS)' };
    }
    if (!this.prefixes.some((prefix) => isUnder(parsed.place, prefix))) {
      return { allowed: false, problem: 'channel.endpoint is not under a notification endpoint registered for this app (the same scheme, host and port, and a path below the registered one); ask the region to register its prefix (notification_endpoints in its clients file, or SUBSCRIPTION_ENDPOINTS)' };
    }
    return { allowed: true, endpoint: parsed.href };
  }
}

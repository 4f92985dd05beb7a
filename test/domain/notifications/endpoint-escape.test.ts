/**
 * Issue 54, threat 66: no spelling of a URL escapes an allowed prefix. The oracle reads an allowed
 * endpoint the way a lenient receiver might (every escape decoded, backslashes and `;` parameters
 * taken as a router would, dot segments resolved) and holds it to the prefix's origin and path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointRules } from '../../../src/domain/notifications/endpoint-rules.js';
import { assertProperty } from '../../support/seeds.js';

const PREFIXES = [
  { prefix: 'https://app.example/hooks/', allowLoopback: false },
  { prefix: 'https://app.example/hooks', allowLoopback: false },
  { prefix: 'https://app.example', allowLoopback: false },
  { prefix: 'https://app.example:8443/a/b/', allowLoopback: false },
  { prefix: 'http://127.0.0.1/cb/', allowLoopback: true },
] as const;

const SCHEMES = ['https://', 'http://', 'HTTPS://', 'https:/', 'https:', 'https:\\\\', '//', ''];
const AUTHORITIES = [
  'app.example', 'APP.Example', 'app.example.', 'app.example:443', 'app.example:8443', 'app.example:', 'app.example.evil.org',
  'evil.org', 'app.example@evil.org', 'evil.org@app.example', '@app.example', 'app.example%2eevil.org', 'app.example%40evil.org',
  'app.example#@evil.org', 'app.example?@evil.org', 'app.example\\@evil.org', 'app.example%00', 'app.exa\tmple',
  '127.0.0.1', '127.0.0.1:8080', '127.0.0.2', '2130706433', '0x7f.1', '[::1]', '[::ffff:127.0.0.1]', 'localhost', '169.254.169.254',
];
const SEGMENTS = [
  'hooks', 'Hooks', 'hooksx', 'a', 'b', 'cb', 'x', '', '.', '..', '%2e', '%2e%2e', '%2E.', '.%2e', '..;', '.;x', '..%3B', '%2f', '%2F..',
  '..%2f', '%5c', '..%5c', '\\..', '%68ooks', 'ho%6Fks', '%252e%252e', ';', ';x=..', 'a?b', '#', '@evil.org', '%00', '%0a', '%',
  '%zz', 'é', '%C3%A9', '~', 'a b',
];
const SEPARATORS = ['/', '/', '/', '\\', '%2f', '//'];
const TAILS = ['', '?q=1', '?../..', '#frag', '#', '?x#y'];

/** Mostly the plain pieces, so that many spellings get past the first checks and the prefix comparison is what is tried. */
const mostly = <T>(plain: readonly T[], hostile: readonly T[]): fc.Arbitrary<T> =>
  fc.oneof({ arbitrary: fc.constantFrom(...plain), weight: 3 }, { arbitrary: fc.constantFrom(...hostile), weight: 2 });

const spelling = fc.tuple(
  mostly(['https://', 'http://'], SCHEMES), mostly(['app.example', 'app.example:8443', '127.0.0.1', '127.0.0.1:8080'], AUTHORITIES),
  fc.array(fc.tuple(mostly(['/'], SEPARATORS), mostly(['hooks', 'a', 'b', 'cb'], SEGMENTS)), { maxLength: 6 }), mostly([''], TAILS),
).map(([scheme, authority, path, tail]) => `${scheme}${authority}${path.map(([sep, seg]) => sep + seg).join('')}${tail}`);

/** The path as a lenient receiver routes it: each escape decoded, `\` a slash, `;` parameters dropped, dot segments resolved. */
function routed(pathname: string): string[] | 'climbs' {
  const decoded = pathname.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }).join('/');
  const out: string[] = [];
  for (const raw of decoded.split(/[/\\]/).slice(1)) {
    const segment = raw.replace(/;.*$/, '');
    if (segment === '..') {
      if (out.pop() === undefined) return 'climbs';
    } else if (segment !== '.') {
      out.push(segment);
    }
  }
  return out;
}

function safelyUnder(endpoint: string, prefixText: string): boolean {
  const url = new URL(endpoint);
  const prefix = new URL(prefixText);
  const loopback = prefix.hostname === '127.0.0.1' && !/:\d+\//.test(prefixText);
  if (url.username !== '' || url.password !== '' || url.hash !== '' || url.protocol !== prefix.protocol || url.hostname !== prefix.hostname) return false;
  if (!loopback && url.port !== prefix.port) return false;
  const path = routed(url.pathname);
  const wanted = routed(prefix.pathname);
  if (path === 'climbs' || wanted === 'climbs') return false;
  const need = wanted.at(-1) === '' ? wanted.slice(0, -1) : wanted;
  return need.every((segment, i) => path[i] === segment);
}

describe('issue 54: no URL spelling escapes an allowed prefix (property, threat 66)', () => {
  it('whatever is allowed stays under the prefix as a lenient receiver reads it, and is allowed again as normalised', async () => {
    let allowed = 0;
    await assertProperty(fc.property(fc.constantFrom(...PREFIXES), spelling, ({ prefix, allowLoopback }, endpoint) => {
      const rules = new EndpointRules([prefix], allowLoopback);
      const verdict = rules.check(endpoint);
      if (!verdict.allowed) return;
      allowed += 1;
      expect(safelyUnder(verdict.endpoint, prefix), `${endpoint} -> ${verdict.endpoint} under ${prefix}`).toBe(true);
      expect(rules.check(verdict.endpoint)).toEqual(verdict);
    }), { seeds: [5401, 5402, 5403, 5404], numRuns: 20_000 });
    // The generator reaches allowed spellings too, so the property is not checked on refusals alone.
    expect(allowed).toBeGreaterThan(100);
  });

  it('an endpoint written plainly under a prefix is allowed as written (property)', async () => {
    const segment = fc.stringMatching(/^[a-z0-9_~-][a-z0-9._~-]{0,11}$/);
    await assertProperty(fc.property(fc.constantFrom(...PREFIXES), fc.array(segment, { maxLength: 5 }), fc.integer({ min: 1024, max: 65535 }),
      ({ prefix, allowLoopback }, segments, port) => {
        const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
        const written = base.replace('127.0.0.1/', `127.0.0.1:${port}/`) + segments.join('/');
        expect(new EndpointRules([prefix], allowLoopback).check(written)).toEqual({ allowed: true, endpoint: written });
      }), { seeds: [5411, 5412], numRuns: 2000 });
  });
});

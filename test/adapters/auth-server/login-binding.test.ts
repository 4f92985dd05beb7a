/**
 * The sign-in's own cookies read by their exact name (src/adapters/auth-server/login-binding.ts): on https
 * the name carries the `__Host-` prefix, which no other site may set, so a cookie whose name only looks
 * like it once trimmed must never count. Found by the third review: `\xA0__Host-pdas_login_<state>` (then one per login),
 * a name a sibling subdomain may set (a browser checks the prefix on the name as written), was read as
 * `__Host-pdas_login_<state>` because String.prototype.trim strips U+00A0 (Node reads header bytes as
 * latin1), and the attacker's login finished with the victim's login at the region. Failed before:
 * the planted value was read.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bindingMatches, browserBinding, cookieValues, type CookieScope } from '../../../src/adapters/auth-server/login-binding.js';

const NAME = '__Host-pdas_login';
const request = (cookie: string): IncomingMessage => ({ headers: { cookie } }) as unknown as IncomingMessage;

describe('cookieValues: a cookie by its exact name', () => {
  it('reads the name as sent, around the separators\' spaces and tabs only', () => {
    expect(cookieValues(request(`a=1; ${NAME}=good`), NAME)).toEqual(['good']);
    expect(cookieValues(request(`a=1;\t${NAME}=good ; b=2`), NAME)).toEqual(['good']);
  });

  it.each([
    ['a no-break space (a latin1 0xA0 byte)', '\u00a0'],
    ['an en quad', '\u2000'],
    ['a line separator', '\u2028'],
    ['a byte-order mark', '\ufeff'],
    ['a vertical tab', '\v'],
    ['a form feed', '\f'],
  ])('never takes a name with %s before it for the prefixed one', (_what, space) => {
    expect(cookieValues(request(`${space}${NAME}=planted`), NAME)).toEqual([]);
    expect(cookieValues(request(`a=1;${space}${NAME}=planted`), NAME)).toEqual([]);
    expect(cookieValues(request(`${NAME}${space}=planted`), NAME)).toEqual([]);
  });
});

describe('browserBinding: one binding cookie per browser', () => {
  const https: CookieScope = { secure: true };
  const valueOf = (cookie: string): string => cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));

  it('gives a browser that holds none a new random value, and keeps only its hash', () => {
    const first = browserBinding(request(''), https, 600);
    const second = browserBinding(request(''), https, 600);
    expect(first.cookie).toMatch(/^__Host-pdas_login=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
    expect(valueOf(first.cookie)).not.toBe(valueOf(second.cookie));
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.hash).not.toContain(valueOf(first.cookie));
  });

  it('renews the value the browser holds, so every login it begins is bound to the same cookie', () => {
    const held = browserBinding(request(''), https, 600);
    const again = browserBinding(request(`other=1; ${NAME}=${valueOf(held.cookie)}`), https, 600);
    expect([again.cookie, again.hash]).toEqual([held.cookie, held.hash]);
    expect(bindingMatches(request(`${NAME}=${valueOf(held.cookie)}`), again.hash, https)).toBe(true);
  });

  it.each([
    ['a value it never makes', `${NAME}=short`],
    ['two values (another path\'s, on loopback http)', `${NAME}=${'a'.repeat(43)}; ${NAME}=${'b'.repeat(43)}`],
    ['only the plain name, which any page of the domain may set', `pdas_login=${'a'.repeat(43)}`],
  ])('makes a new value for a browser holding %s', (_what, cookie) => {
    const binding = browserBinding(request(cookie), https, 600);
    expect(valueOf(binding.cookie)).not.toMatch(/^(a|b){43}$/);
    expect(bindingMatches(request(cookie), binding.hash, https)).toBe(false);
  });

  it('matches only the value whose hash was kept, under the scope\'s own name', () => {
    const binding = browserBinding(request(''), https, 600);
    const value = valueOf(binding.cookie);
    expect(bindingMatches(request(`pdas_login=${value}`), binding.hash, https)).toBe(false);
    expect(bindingMatches(request(`${NAME}=${value}x`), binding.hash, https)).toBe(false);
    expect(bindingMatches(request(`${NAME}=${value}`), 'not a hash', https)).toBe(false);
    expect(bindingMatches(request(`pdas_login=${value}`), binding.hash, { secure: false, path: '/auth' })).toBe(true);
  });
});

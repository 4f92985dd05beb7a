import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkChannelHeaders, isReservedHeader, MAX_HEADER_LINE_LENGTH, MAX_HEADER_LINES } from '../../../src/domain/notifications/channel-headers.js';
import { assertProperty } from '../../support/seeds.js';

const problem = (lines: readonly string[]): string => {
  const verdict = checkChannelHeaders(lines);
  return verdict.allowed ? 'allowed' : verdict.problem;
};

describe('issue 54: channel.header, the lines sent with each notification', () => {
  it('`Name: value` lines become [name, value] pairs, the value without surrounding spaces, in order, repeats kept', () => {
    expect(checkChannelHeaders(['Authorization: Bearer abc.def', 'X-Tenant:\tsouth ', 'x-tenant: north', 'X-Empty-Ok: a b'])).toEqual({
      allowed: true, headers: [['Authorization', 'Bearer abc.def'], ['X-Tenant', 'south'], ['x-tenant', 'north'], ['X-Empty-Ok', 'a b']],
    });
    expect(checkChannelHeaders([])).toEqual({ allowed: true, headers: [] });
  });

  it(`at most ${MAX_HEADER_LINES} lines of at most ${MAX_HEADER_LINE_LENGTH} characters`, () => {
    expect(checkChannelHeaders(Array.from({ length: MAX_HEADER_LINES }, (_, i) => `X-${i}: v`)).allowed).toBe(true);
    expect(problem(Array.from({ length: MAX_HEADER_LINES + 1 }, (_, i) => `X-${i}: v`))).toMatch(/at most 10 lines/);
    const name = 'X-Long: ';
    expect(checkChannelHeaders([name + 'v'.repeat(MAX_HEADER_LINE_LENGTH - name.length)]).allowed).toBe(true);
    expect(problem([name + 'v'.repeat(MAX_HEADER_LINE_LENGTH - name.length + 1)])).toMatch(/line 1 .*at most 1024 characters/);
  });

  it.each([
    ['X-A: b\r\nHost: evil', /line 1 .*CR, LF or NUL/],
    ['X-A: b\nX-B: c', /CR, LF or NUL/],
    ['X-A: b\u0000', /CR, LF or NUL/],
    ['X-A\r: b', /CR, LF or NUL/],
    ['X-A: b\u0007', /control/],
    ['X-A: é', /printable ASCII/],
    ['no colon here', /Name: value/],
    [': value', /Name: value/],
    ['X A: b', /token/],
    ['X-A : b', /token/],
    ['X(A): b', /token/],
    ['X-A:', /value/],
    ['X-A:   ', /value/],
  ])('%j is refused', (line, reason) => {
    expect(problem([line])).toMatch(reason);
  });

  it.each(['Host', 'content-length', 'CONTENT-TYPE', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'TE', 'Trailer', 'Expect', 'Proxy-Authorization', 'proxy-connection'])(
    '%s is the service\'s or the connection\'s, never a subscription\'s', (name) => {
      expect(isReservedHeader(name)).toBe(true);
      expect(problem(['X-Ok: 1', `${name}: x`])).toMatch(new RegExp(`line 2 names ${name}`));
    });

  // Hostile review helper-161 F6: two Authorization lines were kept, and which one a receiver takes depends on its HTTP stack.
  it('refuses Authorization or Cookie named twice, whatever its case, naming the second line', () => {
    expect(problem(['Authorization: Bearer a', 'X-Ok: 1', 'authorization: Bearer b'])).toBe('channel.header line 3 names authorization again, which holds one value: send it once');
    expect(problem(['Cookie: a=1', 'COOKIE: b=2'])).toBe('channel.header line 2 names COOKIE again, which holds one value: send it once');
    // Re-review helper-165 F5: lines a subscription made before holds are sent as they were taken, not dropped all at once.
    expect(checkChannelHeaders(['Authorization: Bearer a', 'X-Ok: 1', 'authorization: Bearer b'], 'kept')).toEqual({
      allowed: true, headers: [['Authorization', 'Bearer a'], ['X-Ok', '1'], ['authorization', 'Bearer b']],
    });
  });

  it('never echoes a value (it may be a secret), and names the line', () => {
    const said = problem(['Authorization: Bearer s3cret\u0001token']);
    expect(said).toMatch(/^channel\.header line 1 /);
    expect(said).not.toContain('s3cret');
  });

  it('a line holding CR, LF or NUL anywhere is refused (property)', async () => {
    const printable = fc.stringMatching(/^[ -~]{0,20}$/);
    await assertProperty(fc.property(printable, fc.constantFrom('\r', '\n', '\u0000', '\r\n'), printable, (before, bad, after) => {
      const line = `X-A: ${before}${bad}${after}`;
      expect(checkChannelHeaders([line]).allowed, JSON.stringify(line)).toBe(false);
    }), { seeds: [5421, 5422], numRuns: 1000 });
  });
});

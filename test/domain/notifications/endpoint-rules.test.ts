import { describe, expect, it } from 'vitest';
import { EndpointRules, MAX_URL_LENGTH, prefixProblem } from '../../../src/domain/notifications/endpoint-rules.js';

const APP = new EndpointRules(['https://app.example/hooks/', 'https://other.example'], false);
const LOOPBACK = new EndpointRules(['http://127.0.0.1/', 'http://[::1]/', 'https://app.example/hooks'], true);

const allowed = (rules: EndpointRules, endpoint: string) => rules.check(endpoint);
const problem = (rules: EndpointRules, endpoint: string): string => {
  const verdict = rules.check(endpoint);
  return verdict.allowed ? `allowed as ${verdict.endpoint}` : verdict.problem;
};

describe('issue 54: where a notification may go (channel.endpoint)', () => {
  it('an https URL under an allowed prefix is allowed, as its normalised form, which is where it is sent', () => {
    expect(allowed(APP, 'https://app.example/hooks/lab')).toEqual({ allowed: true, endpoint: 'https://app.example/hooks/lab' });
    expect(allowed(APP, 'https://APP.example:443/hooks/a/./b/../c?x=1')).toEqual({ allowed: true, endpoint: 'https://app.example/hooks/a/c?x=1' });
    expect(allowed(APP, 'https://other.example/anything')).toEqual({ allowed: true, endpoint: 'https://other.example/anything' });
    expect(allowed(APP, 'https://other.example')).toEqual({ allowed: true, endpoint: 'https://other.example/' });
    // Percent-encoded unreserved characters are the characters themselves (RFC 3986 §6.2.2.2).
    expect(allowed(APP, 'https://app.example/%68ooks/x%7e')).toEqual({ allowed: true, endpoint: 'https://app.example/hooks/x~' });
  });

  it.each([
    ['https://app.example.evil.org/hooks/', /not under/],
    ['https://app.example@evil.org/hooks/', /userinfo/],
    ['https://@app.example/hooks/', /userinfo/],
    ['https://user:pw@app.example/hooks/', /userinfo/],
    ['https://evil.org#@app.example/hooks/', /fragment/],
    ['https://app.example/hooks/x#', /fragment/],
    ['https://app.example:8443/hooks/', /not under/],
    ['http://app.example/hooks/', /https/],
    ['https://app.example/hooksevil', /not under/],
    ['https://app.example/hooks', /not under/],
    ['https://app.example/Hooks/x', /not under/],
    ['https://app.example/hooks/../admin', /not under/],
    ['https://app.example/hooks/%2e%2e/admin', /not under/],
    ['https://app.example/hooks/.%2E/admin', /not under/],
    ['https://app.example/hooks/%2E%2E%2fadmin', /encoded/],
    ['https://app.example/hooks%2F..%2Fadmin', /encoded/],
    ['https://app.example/hooks/..%5Cadmin', /encoded/],
    ['https://app.example/hooks/x%00', /encoded/],
    // A receiver that decodes twice reads %252e%252e as .. (the second review).
    ['https://app.example/hooks/%252e%252e/admin', /encoded percent sign/],
    ['https://app.example/hooks/%252F', /encoded percent sign/],
    ['https://app.example/hooks\\..\\admin', /backslash|control|space/],
    ['https://app.example/hooks/..;/admin', /dot segment/],
    ['https://app.example/hooks/.;x/y', /dot segment/],
    ['https://app.example/hooks/..%3B/admin', /dot segment/],
    ['https://app.example/hooks/%2e%2e%3bx/admin', /dot segment/],
    ['https://app.exa\tmple/hooks/', /space|control/],
    [' https://app.example/hooks/', /space|control/],
    ['https://app.example/hooks/a b', /space|control/],
    ['https:app.example/hooks/', /absolute/],
    ['https:/app.example/hooks/', /absolute/],
    ['//app.example/hooks/', /absolute/],
    ['/hooks/x', /absolute/],
    ['ftp://app.example/hooks/', /https/],
    ['javascript:alert(1)//app.example/hooks/', /absolute|https/],
    ['not-a-url', /absolute/],
    ['', /absolute/],
  ])('%s is refused', (endpoint, reason) => {
    const said = problem(APP, endpoint);
    expect(said).toMatch(/^channel\.endpoint /);
    expect(said).toMatch(reason);
  });

  it(`is at most ${MAX_URL_LENGTH} characters`, () => {
    const base = 'https://app.example/hooks/';
    expect(allowed(APP, base + 'a'.repeat(MAX_URL_LENGTH - base.length)).allowed).toBe(true);
    expect(problem(APP, base + 'a'.repeat(MAX_URL_LENGTH - base.length + 1))).toMatch(/at most 2048 characters/);
  });

  it('never echoes the endpoint, and says what to do when it is not under a prefix', () => {
    const said = problem(APP, 'https://secret-token-in-host.example/x');
    expect(said).not.toContain('secret-token');
    expect(said).toMatch(/notification_endpoints|SUBSCRIPTION_ENDPOINTS/);
    expect(problem(new EndpointRules([], false), 'https://app.example/hooks/')).toMatch(/no notification endpoint is registered for this app/);
  });

  it('plain http only with loopback allowed, on a loopback address literal; under a loopback prefix without a port, any port (RFC 8252 §7.3)', () => {
    expect(allowed(LOOPBACK, 'http://127.0.0.1:9999/notify')).toEqual({ allowed: true, endpoint: 'http://127.0.0.1:9999/notify' });
    expect(allowed(LOOPBACK, 'http://127.0.0.1/notify')).toEqual({ allowed: true, endpoint: 'http://127.0.0.1/notify' });
    expect(allowed(LOOPBACK, 'http://[::1]:8000/')).toEqual({ allowed: true, endpoint: 'http://[::1]:8000/' });
    expect(allowed(LOOPBACK, 'http://[0:0::1]:8000/')).toEqual({ allowed: true, endpoint: 'http://[::1]:8000/' });
    expect(problem(LOOPBACK, 'http://127.0.0.2:9999/')).toMatch(/not under/);
    expect(problem(LOOPBACK, 'http://localhost:9999/')).toMatch(/localhost.*127\.0\.0\.1/);
    expect(problem(LOOPBACK, 'https://localhost:9999/')).toMatch(/localhost/);
    expect(problem(LOOPBACK, 'http://app.example/hooks')).toMatch(/https/);
    expect(allowed(LOOPBACK, 'https://app.example/hooks')).toEqual({ allowed: true, endpoint: 'https://app.example/hooks' });
    expect(allowed(LOOPBACK, 'https://app.example/hooks/x')).toEqual({ allowed: true, endpoint: 'https://app.example/hooks/x' });
    expect(problem(LOOPBACK, 'https://app.example/hooksx')).toMatch(/not under/);
    // An IPv4 address spelt otherwise is the same address (WHATWG URL), and no loopback spelling escapes the prefix's host.
    expect(allowed(LOOPBACK, 'http://2130706433:81/')).toEqual({ allowed: true, endpoint: 'http://127.0.0.1:81/' });
    expect(problem(LOOPBACK, 'http://[::ffff:127.0.0.1]:81/')).toMatch(/https|not under/);
    const fixedPort = new EndpointRules(['http://127.0.0.1:8765/cb/'], true);
    expect(allowed(fixedPort, 'http://127.0.0.1:8765/cb/x').allowed).toBe(true);
    expect(problem(fixedPort, 'http://127.0.0.1:8766/cb/x')).toMatch(/not under/);
  });

  it('without loopback allowed, no loopback endpoint, by either scheme', () => {
    const rules = new EndpointRules(['https://app.example/'], false);
    expect(problem(rules, 'http://127.0.0.1:8000/')).toMatch(/SUBSCRIPTION_ALLOW_LOOPBACK/);
    expect(problem(rules, 'https://127.0.0.1:8000/')).toMatch(/loopback/);
    expect(problem(rules, 'https://[::1]/')).toMatch(/loopback/);
  });
});

describe('issue 54: an allowed prefix (SUBSCRIPTION_ENDPOINTS, a client\'s notification_endpoints)', () => {
  it.each([
    ['https://app.example', false],
    ['https://app.example/hooks/', false],
    ['https://app.example:8443/hooks', false],
    ['http://127.0.0.1/', true],
    ['http://[::1]/', true],
    ['http://127.0.0.1:8765/cb/', true],
  ])('%s is a prefix', (prefix, allowLoopback) => {
    expect(prefixProblem(prefix, allowLoopback)).toBeUndefined();
  });

  it.each([
    ['https://app.example/hooks?x=1', false, /query/],
    ['https://app.example/hooks#x', false, /fragment/],
    ['https://u@app.example/', false, /userinfo/],
    ['http://app.example/', false, /https/],
    ['http://127.0.0.1/', false, /SUBSCRIPTION_ALLOW_LOOPBACK/],
    ['https://127.0.0.1/', false, /loopback/],
    ['http://localhost/', true, /localhost/],
    ['https://169.254.169.254/', false, /cloud-metadata/],
    ['https://[fe80::1]/', false, /link-local/],
    ['https://0.0.0.0/', true, /unspecified/],
    ['https://224.0.0.1/', true, /multicast/],
    ['app.example', false, /absolute/],
  ])('%s is refused', (prefix, allowLoopback, reason) => {
    expect(prefixProblem(prefix, allowLoopback)).toMatch(reason);
  });

  it('a rules object refuses to be made of a prefix that is not one', () => {
    expect(() => new EndpointRules(['http://app.example/'], false)).toThrow(/http:\/\/app\.example\/ .*https/);
  });
});

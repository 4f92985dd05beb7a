/**
 * A request's target as the authorization server's pages read it (src/adapters/auth-server/request-target.ts).
 * Resolved against a base, a target that reads as an authority threw: one packet `GET //[` to the demo
 * issuer, which shares the service's process in demo mode, ended the whole process (the hostile review
 * of 2026-11-27); in the region's server the same address was Koa's bare 500. And the language switch
 * of a page at `/..//evil.example/x` (sent as written by a client that does not resolve dot segments)
 * linked to another host. Failed before: the first test ended the worker with an uncaught `Invalid URL`,
 * the second found `href="//evil.example/x?lang=sv"`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerUntilClosed as answerTo } from '../support/raw-http.js';
import { startDemoAuthServer, type DemoAuthServer } from '../../src/dev/demo-issuer/demo-auth-server.js';
import { noLaunch } from '../dev/demo-issuer/no-launch.js';

const raw = (method: string, target: string, extra = ''): string => `${method} ${target} HTTP/1.1\r\nhost: localhost\r\naccept: text/html\r\n${extra}connection: close\r\n\r\n`;

/** Targets a request line may carry that `new URL(target, base)` refuses or reads as another host. */
const AUTHORITY_LIKE = ['//[', '/\\[', '//host:99999', '//evil.example/x', '/..//evil.example/x', '/%2e%2e//evil.example/x', '/auth//[', '/interaction//[', '/connected-apps//['];

describe('request targets that read as an authority, at the demo issuer', () => {
  let dataDir: string;
  let server: DemoAuthServer;
  let port: number;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-targets-'));
    const quiet = { warn: () => undefined, info: () => undefined, debug: () => undefined };
    server = await startDemoAuthServer({ host: '127.0.0.1', port: 0, audience: 'patient-data-access', patientClaim: 'patient', dataDir, logger: quiet, smart: noLaunch() });
    port = Number(new URL(server.issuer).port);
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(AUTHORITY_LIKE)('%s: the issuer\'s own page, and the issuer still serves', async (target) => {
    for (const [method, extra] of [['GET', ''], ['GET', 'x-bad: a\u0001b\r\n'], ['HEAD', '']] as const) {
      const answer = await answerTo(port, raw(method, target, extra));
      expect([target, method, extra, answer.status]).toEqual([target, method, extra, expect.any(Number)]);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // A page, or under the connected apps' API its OAuth error; HEAD never a body.
      if (method === 'HEAD') expect(answer.body).toBe('');
      else expect(answer.body).toMatch(/<!DOCTYPE html>|"error":/);
    }
    const discovery = await fetch(`${server.issuer}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
  });

  it('the addresses oidc-provider writes name the issuer, whatever Host or an absolute-form target says', async () => {
    // Failed before: the sign-out form posted to http://evil.example/session/end/confirm, its xsrf secret with it.
    const own = new URL(server.issuer).origin;
    for (const [target, host] of [['/session/end', 'evil.example'], ['http://evil.example/session/end', 'localhost'], ['https://evil.example:8443/session/end', 'evil.example']]) {
      const answer = await answerTo(port, `GET ${target} HTTP/1.1\r\nhost: ${host}\r\naccept: text/html\r\nconnection: close\r\n\r\n`);
      const action = /<form[^>]* action="([^"]*)"/.exec(answer.body)?.[1];
      expect([target, host, answer.status, action]).toEqual([target, host, 200, `${own}/session/end/confirm`]);
    }
  });

  it('a GET by another loopback name of the issuer is sent to its own address, where a sign-in can finish', async () => {
    // Failed before: a sign-in begun at localhost set its cookies there, and the pinned way back to
    // 127.0.0.1 carried none of them ("begun in another browser").
    const own = new URL(server.issuer).origin;
    // An absolute-form target keeps its path and query too, as pin reads it (hostile review: it led to `/`).
    for (const [method, target, path] of [['GET', '/auth?client_id=patient-app&state=x', '/auth?client_id=patient-app&state=x'], ['HEAD', '/session/end', '/session/end'],
      ['GET', '//evil.example/x?y=1', '/evil.example/x?y=1'], ['GET', `http://localhost:${port}/session/end?x=1`, '/session/end?x=1'], ['GET', 'http://evil.example/auth?y=2', '/auth?y=2']] as const) {
      const answer = await answerTo(port, `${method} ${target} HTTP/1.1\r\nhost: localhost:${port}\r\nconnection: close\r\n\r\n`);
      expect([method, target, answer.status, answer.headers.location]).toEqual([method, target, 302, `${own}${path}`]);
    }
    // Another name on another port, or a name that is no loopback one, is no alias: answered here, addresses pinned.
    for (const host of [`localhost:${port + 1}`, `evil.example:${port}`]) {
      expect((await answerTo(port, `GET /session/end HTTP/1.1\r\nhost: ${host}\r\naccept: text/html\r\nconnection: close\r\n\r\n`)).status).toBe(200);
    }
  });

  it('an absolute-form target of no path is the server\'s root, never a bare 500', async () => {
    // Failed before: 500 text/plain (a target of '' reached the page's methods table).
    for (const target of ['foo://evil.example', 'foo://evil.example?x=1']) {
      const answer = await answerTo(port, raw('GET', target));
      expect([target, answer.status < 500, answer.headers['content-security-policy']]).toEqual([target, true, expect.stringContaining("frame-ancestors 'none'")]);
    }
  });

  it('a page\'s language switch links to a path of this server, never to another host', async () => {
    for (const target of ['/..//evil.example/x', '/%2e%2e//evil.example/x', '//evil.example/x', '/interaction/..//evil.example/x']) {
      for (const extra of ['', 'x-bad: a\u0001b\r\n', `x-pad: ${'p'.repeat(20_000)}\r\n`]) {
        const answer = await answerTo(port, raw('GET', target, extra));
        const links = [...answer.body.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
        expect([target, extra.slice(0, 8), links.length > 0]).toEqual([target, extra.slice(0, 8), true]);
        for (const link of links) expect([target, link]).toEqual([target, expect.stringMatching(/^\/(?!\/)/)]);
      }
    }
  });
});

/**
 * Issue 52, the second review of the sign-in, at the demo authorization server (the same server as a
 * region's, docs/smart-launch.md): its discovery names exactly what works (client credentials for its
 * integration clients, no PAR or DPoP); a request it has no endpoint or method for is 404 or 405 with
 * `Allow`, never a bare 500; a refresh with a dead refresh token is `invalid_grant` without `client_id`;
 * and the patient app's `patient/Appointment.write` checks in the launch patient, nobody else.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryOf, expectOnlyNamedEndpoints, grantTypeError, OTHER_GRANT_TYPES } from '../../support/advertised-surface.js';
import { checkInBoth } from '../../support/launch-check-in.js';
import { RawConnection } from '../../support/raw-http.js';
import { HttpBrowser } from './http-browser.js';
import { authorizeUrl, exchange, launch, pkce, startDemoService, tokenRequest, type DemoService } from './smart-flow.js';

const MARTA = '198112189876';
const LILLA = '201701012393';
const TOLVAN = '191212121212';

let service: DemoService;
let basic: string;
beforeAll(async () => {
  service = await startDemoService();
  const clients = JSON.parse(await readFile(path.join(service.dataDir, 'demo-auth.json'), 'utf8')) as { clientSecrets: Record<string, string> };
  basic = `Basic ${Buffer.from(`demo-integration:${clients.clientSecrets['demo-integration'] ?? ''}`).toString('base64')}`;
}, 60_000);
afterAll(async () => {
  await service?.close();
});

/** A launch of the patient app by Märta picking Lilla: its token response. */
async function launched(scope?: string): Promise<Record<string, unknown>> {
  const code = pkce();
  const { redirect } = await launch(new HttpBrowser(), service, authorizeUrl(service, code, scope === undefined ? {} : { scope }), { login: MARTA, pick: 'Lilla' });
  const { status, body } = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
  if (status !== 200) throw new Error(`no token: ${status} ${JSON.stringify(body)}`);
  return body;
}

describe('review item 3: the demo issuer\'s discovery names exactly what works', () => {
  it('names the endpoints that answer and no other of oidc-provider\'s (no PAR, registration, userinfo, device or CIBA)', async () => {
    await expectOnlyNamedEndpoints(service.oidc.issuer, ['authorization_endpoint', 'end_session_endpoint', 'introspection_endpoint', 'revocation_endpoint', 'token_endpoint']);
  });

  it('names client credentials, which its integration clients use, beside the app\'s grant types; refuses every other; SMART discovery says the same', async () => {
    const discovery = await discoveryOf(service.oidc.issuer);
    expect(discovery.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);
    const byClient = await tokenRequest(service, { grant_type: 'client_credentials', scope: 'user/Patient-read' }, { authorization: basic });
    expect([byClient.status, byClient.body.token_type]).toEqual([200, 'Bearer']);
    for (const grantType of OTHER_GRANT_TYPES.filter((g) => g !== 'client_credentials')) {
      expect([grantType, await grantTypeError(service.oidc.token_endpoint, grantType, { client_id: 'patient-app' })]).toEqual([grantType, 'unsupported_grant_type']);
    }
    expect(service.smart.grant_types_supported).toEqual(['authorization_code', 'client_credentials', 'refresh_token']);
    expect(service.smart.scopes_supported).toEqual(expect.arrayContaining(['system/*.read']));
  });
});

describe('review item 1: the demo issuer at the edges of its surface', () => {
  it('answers a method an endpoint does not take with 405 and Allow, an unknown path with its 404 page', async () => {
    const put = await request(service.oidc.token_endpoint, { method: 'PUT' });
    expect([put.statusCode, put.headers.allow, await put.body.json()])
      .toEqual([405, 'POST, OPTIONS', { error: 'invalid_request', error_description: '/token takes POST: PUT is not served here' }]);
    const unknown = await request(`${service.oidc.issuer}/anything`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/html' }, body: '{}' });
    expect([unknown.statusCode, unknown.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect(await unknown.body.text()).toContain('This page is not here');
  });

  it('answers the wrong method at discovery and the signing keys in JSON, whatever the request accepts: apps read them', async () => {
    for (const [pathname, accept] of [['/jwks', '*/*'], ['/.well-known/openid-configuration', 'text/html']] as const) {
      const patch = await request(`${service.oidc.issuer}${pathname}`, { method: 'PATCH', headers: { accept } });
      expect([patch.statusCode, patch.headers.allow, patch.headers['content-type'], await patch.body.json()]).toEqual([
        405, 'GET, HEAD, OPTIONS', 'application/json; charset=utf-8',
        { error: 'invalid_request', error_description: `${pathname} takes GET: PATCH is not served here` },
      ]);
    }
  });
});

describe('hostile review: a header sent twice at the demo issuer', () => {
  it('refuses two Authorization headers at the token endpoint as an OAuth error, whichever is the valid one', async () => {
    const port = Number(new URL(service.oidc.issuer).port);
    const form = 'grant_type=client_credentials&scope=user%2FPatient-read';
    for (const pair of [[basic, 'Basic d3Jvbmc6d3Jvbmc='], ['Basic d3Jvbmc6d3Jvbmc=', basic]]) {
      const connection = await RawConnection.open(port);
      connection.write([`POST /token HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n`
        + `${pair.map((a) => `Authorization: ${a}\r\n`).join('')}Content-Length: ${form.length}\r\nConnection: close\r\n\r\n${form}`]);
      const [answer] = await connection.answered(1);
      connection.destroy();
      expect([answer?.status, JSON.parse(answer?.body ?? '{}')])
        .toEqual([400, { error: 'invalid_request', error_description: 'Header Authorization is sent more than once: send it once.' }]);
    }
  });
});

describe('review item 2: a dead refresh token at the demo issuer', () => {
  it('refuses a refresh with a revoked refresh token as invalid_grant without client_id', async () => {
    const tokens = await launched();
    const revoked = await request(service.smart.revocation_endpoint, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token as string, client_id: 'patient-app' }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    await revoked.body.dump();
    const refused = await tokenRequest(service, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string });
    expect([refused.status, refused.body.error, refused.headers['cache-control']]).toEqual([400, 'invalid_grant', 'no-store']);
  });
});

describe('review item 5: the patient app\'s patient/ write scope', () => {
  it('lets patient/Appointment.write check in Lilla, the launch patient, and not Tolvan, whom Märta acts for but did not pick', async () => {
    const tokens = await launched('openid launch/patient patient/Appointment.read patient/Appointment.write');
    expect((tokens.scope as string).split(' ')).toContain('patient/Appointment.write');
    const key = (await readFile(path.join(service.dataDir, 'demo-subscription-key'), 'utf8')).trim();
    const { own, other } = await checkInBoth(service.base, tokens.access_token as string, key, LILLA, TOLVAN);
    expect([own.status, own.resultCode]).toEqual([200, 'OK']);
    expect(other.status).toBe(403);
  });
});

/**
 * A NUL byte (U+0000) in what a request to the authorization server carries: no OAuth parameter holds one
 * (RFC 6749 Appendix A: printable ASCII) and PostgreSQL stores none, so it was a 500 at the authorization
 * endpoint and at the token and revocation endpoints (hostile review helper-196, F6). An address holding
 * `%00` is refused with the service's page, as one that cannot be read, and an authorization request POSTed
 * with one in its form with the page of an app's request that cannot be used; a code, a refresh token or a token
 * to revoke holding it names nothing, and is answered as one unknown.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAvailable } from '../support/database.js';
import { APP_ID, APP_REDIRECT, startSignInService, stopSignInService, type SignInService } from '../support/sign-in-service.js';

const available = await databaseAvailable();

describe.skipIf(!available)('a NUL byte sent to the authorization server', () => {
  let service: SignInService;
  beforeAll(async () => {
    service = await startSignInService();
  }, 60_000);
  afterAll(() => stopSignInService(service));

  const authorization = (extra: string): string => `${service.issuer}/auth?${new URLSearchParams({
    response_type: 'code', client_id: APP_ID, redirect_uri: APP_REDIRECT, scope: 'openid fhirUser launch/patient patient/*.rs', aud: `${service.base}/fhir`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  }).toString()}&${extra}`;

  it.each(['state=a%00b', 'state=s&ui_locales=sv%00', 'state=s&login_hint=%00', 'state=s&nonce=n%00'])('refuses an authorization request with %s with its page, never a 500', async (extra) => {
    const res = await request(authorization(extra), { headers: { accept: 'text/html' } });
    const body = await res.body.text();
    expect([res.statusCode, res.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    expect(body).toContain('This address cannot be read');
  });

  // The same request by POST (OpenID Connect Core §3.1.2.1): a form is no address, and was a 500 (re-review helper-197, F1).
  const form = (extra: string): string => `${new URL(authorization(extra)).search.slice(1)}`;
  it.each(['state=s&nonce=a%00b', 'state=s&login_hint=%00', 'state=a%00b'])('refuses an authorization request POSTed with %s with its page, never a 500', async (extra) => {
    const res = await request(`${service.issuer}/auth`, { method: 'POST', body: form(extra), headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' } });
    const body = await res.body.text();
    expect([res.statusCode, res.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    expect(body).toContain('The app\'s request cannot be used here');
    expect(body).toContain('<code>invalid_request</code>');
  });

  it('refuses a POSTed authorization request holding a raw NUL byte, never a 500', async () => {
    const res = await request(`${service.issuer}/auth`, { method: 'POST', body: Buffer.from(`${form('state=s')}&nonce=a\u0000b`), headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' } });
    await res.body.dump();
    expect(res.statusCode).toBe(400);
  });

  it('takes the same request by POST without it', async () => {
    const res = await request(`${service.issuer}/auth`, { method: 'POST', body: form('state=s&nonce=n'), headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' } });
    await res.body.dump();
    expect([res.statusCode, String(res.headers.location)]).toEqual([303, expect.stringMatching(/\/auth\/interaction\//)]);
  });

  it('takes the same request without it (the refusal is the byte\'s)', async () => {
    const res = await request(authorization('state=s'), { headers: { accept: 'text/html' } });
    await res.body.dump();
    expect([res.statusCode, String(res.headers.location)]).toEqual([303, expect.stringMatching(/\/auth\/interaction\//)]);
  });

  it.each([
    ['/token', `grant_type=authorization_code&code=a%00b&client_id=${APP_ID}&redirect_uri=${encodeURIComponent(APP_REDIRECT)}&code_verifier=${'a'.repeat(43)}`, 400, 'invalid_grant'],
    ['/token', `grant_type=refresh_token&refresh_token=a%00b&client_id=${APP_ID}`, 400, 'invalid_grant'],
    ['/token/revocation', `token=a%00b&client_id=${APP_ID}`, 200, undefined],
  ])('answers %s with %s as with any unknown one', async (path, body, status, error) => {
    const res = await request(`${service.issuer}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const text = await res.body.text();
    expect([res.statusCode, error === undefined ? undefined : (JSON.parse(text) as { error?: string }).error]).toEqual([status, error]);
  });
});

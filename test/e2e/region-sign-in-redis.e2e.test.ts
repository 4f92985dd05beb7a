/**
 * The production sign-in as regions run it, with Redis (REDIS_URL): the per-source limit of /auth
 * (src/http/auth-server-limit.ts) then waits for Redis before the authorization server sees a request,
 * so a token request's whole form has arrived, and its stream ended, before the token endpoint's
 * middleware reads it (src/adapters/auth-server/smart-token-endpoint.ts). Found by `npm run
 * test:deploy` (three instances behind HAProxy, with Redis): the code exchange answered
 * `invalid_request` "no client authentication mechanism provided", the form given back into an
 * ended stream being lost. Failed before: that answer to the code exchange here too.
 */
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser } from '../dev/demo-issuer/http-browser.js';
import { databaseAvailable } from '../support/database.js';
import { redisUrl, skipWithoutRedis } from '../support/redis.js';
import { APP_ID, APP_REDIRECT, startSignInService, stopSignInService, type SignInService } from '../support/sign-in-service.js';
import { walk } from '../support/sign-in-walk.js';

const SCOPE = 'openid fhirUser launch/patient offline_access patient/*.rs';
const skip = !await databaseAvailable() || await skipWithoutRedis();

describe.skipIf(skip)('the region\'s sign-in with Redis (REDIS_URL), as regions run it', () => {
  let service: SignInService;
  let app: client.Configuration;

  beforeAll(async () => {
    service = await startSignInService({ env: { REDIS_URL: redisUrl() } });
    app = await client.discovery(new URL(service.issuer), APP_ID, undefined, client.None(), { execute: [client.allowInsecureRequests] });
  }, 60_000);
  afterAll(() => stopSignInService(service));

  it('exchanges the code and refreshes: the token endpoint reads a form that arrived whole before it', async () => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(app, {
      redirect_uri: APP_REDIRECT, scope: SCOPE, state, aud: `${service.base}/fhir`,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const walked = await walk(new HttpBrowser(), url.href, { pick: 'Lilla' });
    expect(walked.redirect, walked.page.body.slice(0, 300)).toBeDefined();
    const tokens = await client.authorizationCodeGrant(app, walked.redirect as URL, { pkceCodeVerifier: verifier, expectedState: state })
      .catch((err: unknown) => { throw new Error(`token request refused: ${JSON.stringify((err as { cause?: unknown }).cause)}`); });
    expect(tokens.access_token).toEqual(expect.any(String));
    // A public app's refresh without client_id: the form the middleware completes and gives back.
    const refreshed = await client.refreshTokenGrant(app, String(tokens.refresh_token))
      .catch((err: unknown) => { throw new Error(`refresh refused: ${JSON.stringify((err as { cause?: unknown }).cause)}`); });
    expect(refreshed.access_token).toEqual(expect.any(String));
  }, 60_000);
});

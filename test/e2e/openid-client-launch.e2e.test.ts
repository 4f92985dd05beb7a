/**
 * A SMART standalone launch as a generic certified OAuth client makes it (docs/smart-launch.md):
 * openid-client discovers the demo issuer from the issuer the SMART configuration names, builds the
 * authorization request with PKCE S256, `state` and SMART's `aud`, the issuer's forms are posted as a
 * browser would (smart-flow.ts: sign in as the guardian, pick her child, consent), and openid-client
 * checks the redirect (state, issuer), exchanges the code with the verifier and validates the ID token.
 * The access token then reads the picked patient's record, and a refresh token grant gives another.
 */
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser } from '../dev/demo-issuer/http-browser.js';
import { APP_REDIRECT, launch, SMART_SCOPE, startDemoService, type DemoService } from '../dev/demo-issuer/smart-flow.js';

describe('openid-client: the demo SMART standalone launch, authorization code with PKCE', () => {
  let service: DemoService;
  beforeAll(async () => {
    service = await startDemoService();
  }, 60_000);
  afterAll(async () => service?.close());

  it('discovers, authorizes, exchanges the code, validates the ID token, reads the picked patient and refreshes', async () => {
    // The demo issuer listens on loopback HTTP; openid-client asks for HTTPS unless told otherwise.
    const config = await oidc.discovery(new URL(service.smart.issuer), 'patient-app', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().authorization_endpoint).toBe(service.smart.authorization_endpoint);
    expect(config.serverMetadata().token_endpoint).toBe(service.smart.token_endpoint);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: APP_REDIRECT, scope: SMART_SCOPE, state, aud: service.fhirBase,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const { redirect } = await launch(new HttpBrowser(), service, authorize.href, { login: '198112189876', pick: 'Lilla' });

    const tokens = await oidc.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope?.split(' ')).toEqual(expect.arrayContaining(['openid', 'launch/patient', 'patient/*.rs']));
    const patient = tokens.patient as string;
    expect(patient).toMatch(/^[A-Za-z0-9.-]{1,64}$/);
    // The ID token was checked by openid-client (signature, issuer, audience); its fhirUser names the signed-in guardian.
    expect(String(tokens.claims()?.fhirUser)).toMatch(/^(https?:.*\/)?(Patient|RelatedPerson)\/[A-Za-z0-9.-]+$/);

    const read = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(`${service.fhirBase}/Patient/${patient}`), 'GET');
    expect(read.status).toBe(200);
    const body = await read.json() as { resourceType: string; id: string; name?: { given?: string[] }[] };
    expect([body.resourceType, body.id]).toEqual(['Patient', patient]);
    expect(body.name?.[0]?.given).toContain('Lilla');

    // A search of the record with the same token, and a refresh that keeps the launch's patient.
    const search = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(`${service.fhirBase}/Observation?patient=${patient}&_count=1`), 'GET');
    expect(search.status).toBe(200);
    expect(((await search.json()) as { resourceType: string }).resourceType).toBe('Bundle');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.patient).toBe(patient);
    const again = await oidc.fetchProtectedResource(config, refreshed.access_token, new URL(`${service.fhirBase}/Patient/${patient}`), 'GET');
    expect(again.status).toBe(200);
  }, 30_000);
});

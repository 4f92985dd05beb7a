import { exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JwtAccessTokenVerifier } from '../../../src/adapters/auth-jwks/jwt-access-token-verifier.js';
import { patientClaimSeal } from '../../../src/adapters/auth-server/patient-claim-seal.js';
import { InvalidTokenError, TokenStatusUnavailableError } from '../../../src/ports/access-token-verifier.port.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { TEST_CLIENT_ID, TestIssuer } from '../../support/test-issuer.js';

/** A listed client without a patient claim: a client token (docs/contract.md#token-kinds). */
const CLIENT = { client_id: TEST_CLIENT_ID };

describe('JwtAccessTokenVerifier', () => {
  let issuer: TestIssuer;
  let clock: FixedClock;
  let verifier: JwtAccessTokenVerifier;
  const warnings: string[] = [];

  beforeEach(async () => {
    issuer = await TestIssuer.start();
    clock = new FixedClock(Date.now());
    verifier = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: (w) => warnings.push(w),
    });
  });
  afterEach(() => issuer.close());

  it('finds the keys through discovery and returns the claims the service uses', async () => {
    const token = await issuer.sign({ sub: 's1', patient: '191212121212', client_id: 'app', scope: 'user/Patient-read patient/Contact.read' });
    const verified = await verifier.verify(token);
    expect(verified).toEqual({
      issuer: issuer.issuer, subject: 's1', clientId: 'app', personId: '191212121212',
      // Folded onto the API's names for the COS API; as written for the FHIR API's SMART reading.
      scopes: new Set(['user/Patient-read', 'user/Contact-read']), grantedScopes: new Set(['user/Patient-read', 'patient/Contact.read']),
    });
  });

  it('issue 12 item 1: names the person by the canonical 12 digits and a client by client_id, else azp', async () => {
    await expect(verifier.verify(await issuer.sign({ patient: '19121212-1212' }))).resolves.toMatchObject({ personId: '191212121212' });
    await expect(verifier.verify(await issuer.sign({ azp: TEST_CLIENT_ID }))).resolves.toEqual({
      issuer: issuer.issuer, subject: 'subject-1', clientId: TEST_CLIENT_ID, scopes: new Set(), grantedScopes: new Set(),
    });
    await expect(verifier.verify(await issuer.sign({ client_id: 'other', azp: TEST_CLIENT_ID }))).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('issue 12 item 1: lists no client by default, so without clientIds no token lacking a person is accepted', async () => {
    const strict = new JwtAccessTokenVerifier({ issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clock, onWarning: () => undefined });
    await expect(strict.verify(await issuer.sign(CLIENT))).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(strict.verify(await issuer.sign({ ...CLIENT, patient: '191212121212' }))).resolves.toMatchObject({ personId: '191212121212' });
  });

  it('issue 12 item 1: reads the patient claim from the token\'s own members only (AUTH_PATIENT_CLAIM=constructor)', async () => {
    const odd = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'constructor', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
    });
    await expect(odd.verify(await issuer.sign(CLIENT))).resolves.not.toHaveProperty('personId');
    await expect(odd.verify(await issuer.sign({ constructor: '191212121212' }))).resolves.toMatchObject({ personId: '191212121212' });
  });

  it('issue 52 item 13: for the service\'s own issuer, takes a person token only while its grant is alive, cached or not', async () => {
    const alive = new Set(['grant-1']);
    const asked: string[] = [];
    const own = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
      grantHolder: async (grantId) => {
        asked.push(grantId);
        if (grantId === 'store-down') throw new Error('connection refused');
        return alive.has(grantId) ? { accountId: '191212121212', clientId: 'app' } : undefined;
      },
    });
    const token = await issuer.sign({ patient: '191212121212', client_id: 'app', grant_id: 'grant-1' });
    await expect(own.verify(token)).resolves.toMatchObject({ personId: '191212121212', grantId: 'grant-1' });
    await expect(own.verify(token)).resolves.toMatchObject({ grantId: 'grant-1' });
    alive.delete('grant-1');
    // The verification is cached; the grant's liveness is not.
    await expect(own.verify(token)).rejects.toMatchObject({ fault: 'revoked' });
    expect(asked).toEqual(['grant-1', 'grant-1', 'grant-1']);
    // A person token of the own issuer that names no grant is not one it issues; a client token has no grant to end.
    await expect(own.verify(await issuer.sign({ patient: '191212121212', client_id: 'app' }))).rejects.toMatchObject({ fault: 'claims' });
    await expect(own.verify(await issuer.sign(CLIENT))).resolves.toMatchObject({ clientId: TEST_CLIENT_ID });
    // A store that cannot answer answers nothing: not a 401 that would send the person to sign in again.
    await expect(own.verify(await issuer.sign({ patient: '191212121212', client_id: 'app', grant_id: 'store-down' }))).rejects.toBeInstanceOf(TokenStatusUnavailableError);
    // Another issuer's verifier (no grantHolder) does not ask.
    await expect(verifier.verify(await issuer.sign({ patient: '191212121212' }))).resolves.toMatchObject({ personId: '191212121212' });
  });

  it('issue 52 review 2: takes a person token only while its grant is alive for that very person and app', async () => {
    const grants = new Map([['grant-1', { accountId: '191212121212', clientId: 'app' }], ['grant-2', { accountId: '198112189876', clientId: 'app' }]]);
    const own = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
      grantHolder: async (grantId) => grants.get(grantId),
    });
    const mine = { patient: '191212121212', client_id: 'app', grant_id: 'grant-1' };
    await expect(own.verify(await issuer.sign(mine))).resolves.toMatchObject({ personId: '191212121212', clientId: 'app', grantId: 'grant-1' });
    // Another person's live grant, another app's live grant: refused as a revoked grant would be.
    await expect(own.verify(await issuer.sign({ ...mine, grant_id: 'grant-2' }))).rejects.toMatchObject({ fault: 'revoked' });
    await expect(own.verify(await issuer.sign({ ...mine, client_id: 'other-app' }))).rejects.toMatchObject({ fault: 'revoked' });
    // A person token of the own issuer that names no app is not one it issues.
    await expect(own.verify(await issuer.sign({ patient: '191212121212', grant_id: 'grant-1' }))).rejects.toMatchObject({ fault: 'claims' });
  });

  it('caches verified tokens only until their expiry (with the skew)', async () => {
    const token = await issuer.sign({ ...CLIENT, exp: Math.floor(clock.now() / 1000) + 30 });
    await verifier.verify(token);
    const fetches = issuer.jwksFetches;
    await verifier.verify(token);
    expect(issuer.jwksFetches).toBe(fetches);
    clock.advance(91_000);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('fetches the JWKS once for a rotated key, and at most once per cooldown for a flood of unknown kids', async () => {
    await verifier.verify(await issuer.sign(CLIENT));
    expect(issuer.jwksFetches).toBe(1);
    await issuer.rotate('key-new');
    clock.advance(31_000);
    await verifier.verify(await issuer.sign(CLIENT));
    expect(issuer.jwksFetches).toBe(2);
    const forged = await Promise.all(Array.from({ length: 200 }, (_, i) => issuer.sign({ ...CLIENT, jti: String(i) }, { kid: `unknown-${i}` })));
    const results = await Promise.allSettled(forged.map((t) => verifier.verify(t)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(issuer.jwksFetches).toBe(2);
  });

  it('keeps verifying with cached keys while the JWKS endpoint is down', async () => {
    await verifier.verify(await issuer.sign({ ...CLIENT, jti: 'a' }));
    issuer.jwksAvailable = false;
    clock.advance(11 * 60_000);
    await expect(verifier.verify(await issuer.sign({ ...CLIENT, jti: 'b', iat: Math.floor(clock.now() / 1000), exp: Math.floor(clock.now() / 1000) + 600 }))).resolves.toMatchObject({ subject: 'subject-1' });
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings.some((w) => w.includes('JWKS refresh failed'))).toBe(true);
  });

  it('issue 52 item 11: the service\'s own issuer\'s patient claim is opened only when sealed for that very token', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const seal = patientClaimSeal([{ ...await exportJWK(privateKey), kid: 'own-1' }]);
    const own = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
      openPatientClaim: seal.open,
    });
    const claims = { jti: 'token-1', client_id: 'app' };
    const sealed = await seal.seal('191212121212', claims);
    await expect(own.verify(await issuer.sign({ ...claims, patient: sealed }))).resolves.toMatchObject({ personId: '191212121212', clientId: 'app' });
    // Moved to another token (another jti, another app), or a plain number: refused, never read as a person or a client.
    for (const moved of [{ jti: 'token-2', client_id: 'app', patient: sealed }, { jti: 'token-1', client_id: TEST_CLIENT_ID, patient: sealed }, { ...claims, patient: '191212121212' }]) {
      await expect(own.verify(await issuer.sign(moved))).rejects.toMatchObject({ fault: 'claims' });
    }
    // A client token has no patient claim to open.
    await expect(own.verify(await issuer.sign(CLIENT))).resolves.not.toHaveProperty('personId');
    // Another issuer's plain claim (AUTH_ISSUER a region's own server) reads as before.
    await expect(verifier.verify(await issuer.sign({ ...claims, patient: '191212121212' }))).resolves.toMatchObject({ personId: '191212121212' });
  });

  it('never fetches what a token header names (jku, x5u, jwk)', async () => {
    const token = await issuer.sign(CLIENT, { jku: 'http://127.0.0.1:9/evil', x5u: 'http://127.0.0.1:9/x', kid: '../x' });
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
    expect(issuer.jwksFetches).toBe(1);
  });
});

describe('issue 12 item 11: an issuer whose identifier ends in / (Auth0 style)', () => {
  it.each(['/', '/tenant/'])('issue 12 item 11: finds the keys by discovery and verifies its tokens, issuer path %s', async (issuerPath) => {
    const issuer = await TestIssuer.start({ issuerPath });
    try {
      expect(issuer.issuer.endsWith('/')).toBe(true);
      const verifier = new JwtAccessTokenVerifier({
        issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clock: new FixedClock(Date.now()), onWarning: () => undefined,
      });
      await expect(verifier.verify(await issuer.sign({ patient: '191212121212' }))).resolves.toMatchObject({ issuer: issuer.issuer });
      await expect(verifier.verify(await issuer.sign({ patient: '191212121212', iss: issuer.issuer.slice(0, -1) }))).rejects.toBeInstanceOf(InvalidTokenError);
      expect(issuer.jwksFetches).toBe(1);
    } finally {
      await issuer.close();
    }
  });
});

describe('JwtAccessTokenVerifier time and claim boundaries (fixed clock)', () => {
  let issuer: TestIssuer;
  let clock: FixedClock;
  let verifier: JwtAccessTokenVerifier;
  const NOW_S = 1_800_000_000;

  beforeEach(async () => {
    issuer = await TestIssuer.start();
    clock = new FixedClock(NOW_S * 1000);
    verifier = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
    });
  });
  afterEach(() => issuer.close());

  it.each([
    ['exp 59 s ago', { exp: NOW_S - 59 }, true],
    ['exp 60 s ago (a token is valid only before its exp)', { exp: NOW_S - 60 }, false],
    ['nbf in 60 s', { nbf: NOW_S + 60 }, true],
    ['nbf in 61 s', { nbf: NOW_S + 61 }, false],
    ['no iss', { iss: undefined }, false],
    ['no aud', { aud: undefined }, false],
    ['aud list with ours', { aud: ['other', 'patient-data-access'] }, true],
    ['no sub', { sub: undefined }, false],
  ])('%s', async (_label, claims, accepted) => {
    const token = await issuer.sign({ ...CLIENT, iat: NOW_S - 100, exp: NOW_S + 600, ...claims });
    const outcome = await verifier.verify(token).then(() => true, (err: unknown) => {
      expect(err).toBeInstanceOf(InvalidTokenError);
      return false;
    });
    expect(outcome).toBe(accepted);
  });
});

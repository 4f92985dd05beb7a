import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JwtAccessTokenVerifier, type JwtVerifierOptions } from '../../../src/adapters/auth-jwks/jwt-access-token-verifier.js';
import { InvalidTokenError } from '../../../src/ports/access-token-verifier.port.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { pollUntil } from '../../support/poll.js';
import { TEST_CLIENT_ID, TestIssuer } from '../../support/test-issuer.js';

/**
 * threat 48 of docs/threat-model.md#found-by-independent-review: a signing key that has left the issuer's JWKS stops working at the next key refresh,
 * cached verifications included (docs/operations.md#rotating-keys-and-certificates).
 */
describe('issue 20 item 5b: a signing key withdrawn from the JWKS', () => {
  let issuer: TestIssuer;
  let clock: FixedClock;
  let verifier: JwtAccessTokenVerifier;
  let options: JwtVerifierOptions;
  /** Valid for an hour, so that only the key decides, never the token's expiry. */
  const token = (jti: string, header: Record<string, unknown> = {}): Promise<string> =>
    issuer.sign({ client_id: TEST_CLIENT_ID, jti, exp: Math.floor(clock.now() / 1000) + 3600 }, header);
  const outcome = (t: string): Promise<string> => verifier.verify(t).then(() => 'accepted', (err: unknown) => {
    expect(err).toBeInstanceOf(InvalidTokenError);
    return 'refused';
  });

  beforeEach(async () => {
    issuer = await TestIssuer.start();
    clock = new FixedClock(Date.now());
    options = { issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined };
    verifier = new JwtAccessTokenVerifier(options);
  });
  afterEach(async () => {
    verifier.close();
    await issuer.close();
  });

  it('issue 20 item 5b: refuses the withdrawn key\'s cached tokens once an unknown kid has refreshed the keys; the kept key\'s tokens still verify', async () => {
    const old = await token('old');
    expect(await outcome(old)).toBe('accepted');
    await issuer.rotate('key-2');
    clock.advance(31_000);
    const current = await token('current');
    expect(await outcome(current)).toBe('accepted');
    expect(issuer.jwksFetches).toBe(2);

    issuer.withdraw('key-1');
    clock.advance(31_000);
    expect(await outcome(await token('ghost', { kid: 'ghost' }))).toBe('refused');
    expect(issuer.jwksFetches).toBe(3);
    expect(await outcome(old)).toBe('refused');
    expect(await outcome(current)).toBe('accepted');
    // Refusing the cached token cost no fetch: the cooldown holds for it as for any unknown kid.
    expect(issuer.jwksFetches).toBe(3);
  });

  it('issue 20 item 5b: keys 10 minutes old are refreshed by the next verification, a cached token\'s included', async () => {
    const old = await token('old');
    expect(await outcome(old)).toBe('accepted');
    await issuer.rotate('key-2');
    issuer.withdraw('key-1');
    clock.advance(11 * 60_000);
    // Only cached tokens arrive: they must start the refresh themselves, and are refused once it is in.
    expect(await pollUntil(() => outcome(old), (o) => o === 'refused', 3000, 20)).toBe('refused');
    expect(issuer.jwksFetches).toBe(2);
    expect(await outcome(await token('current'))).toBe('accepted');
  });

  it('issue 20 item 5b: refreshes keys 10 minutes old while no request arrives at all', async () => {
    verifier.close();
    verifier = new JwtAccessTokenVerifier({ ...options, jwksCheckEveryMs: 20 });
    const old = await token('old');
    expect(await outcome(old)).toBe('accepted');
    await issuer.rotate('key-2');
    issuer.withdraw('key-1');
    clock.advance(9 * 60_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(issuer.jwksFetches).toBe(1);
    clock.advance(2 * 60_000);
    expect(await pollUntil(async () => issuer.jwksFetches, (n) => n > 1, 3000, 10)).toBe(2);
    expect(await pollUntil(() => outcome(old), (o) => o === 'refused', 3000, 20)).toBe('refused');
    expect(issuer.jwksFetches).toBe(2);
  });
});

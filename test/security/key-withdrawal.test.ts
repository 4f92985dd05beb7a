import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { overBothEhrs, STEADY } from './support/runs.js';

/**
 * threat 48 of docs/threat-model.md#found-by-independent-review: a signing key removed from the JWKS while tokens it signed are cached is refused from
 * the next key refresh on; an unknown `kid` triggers that refresh (docs/operations.md#rotating-keys-and-certificates).
 */
const SELF = '191212121212';

overBothEhrs((variant) => {
  describe('issue 20 item 5b: a signing key withdrawn from the JWKS, through the app (threat 48 of docs/threat-model.md#found-by-independent-review)', () => {
    let t: AnyTestApp;
    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
    });
    afterAll(() => t.close());

    /** Valid for an hour, so that only the key decides. */
    const token = (jti: string, header: Record<string, unknown> = {}): Promise<string> =>
      t.issuer.sign({ patient: SELF, scope: 'user/Appointment-read', jti, exp: Math.floor(t.clock.now() / 1000) + 3600 }, header);
    const read = async (bearer: string): Promise<number> =>
      (await t.call({ method: 'GET', url: '/patients/appointments/', token: bearer })).statusCode;

    it('issue 20 item 5b: answers the old key\'s cached token with 401 after rotation and withdrawal, the new key\'s with 200', async () => {
      const old = await token('old');
      expect(await read(old)).toBe(200);
      await t.issuer.rotate('key-2');
      t.clock.advance(31_000);
      const current = await token('current');
      expect(await read(current)).toBe(200);
      // Both keys published: both tokens keep working, from the cache.
      expect([await read(old), await read(current)]).toEqual([200, 200]);
      expect(t.issuer.jwksFetches).toBe(2);

      t.issuer.withdraw('key-1');
      t.clock.advance(31_000);
      expect(await read(await token('ghost', { kid: 'ghost' }))).toBe(401);
      expect(t.issuer.jwksFetches).toBe(3);
      const after = await t.call({ method: 'GET', url: '/patients/appointments/', token: old });
      expect(after.statusCode).toBe(401);
      expect(after.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="The access token signature does not verify/);
      expect(await read(current)).toBe(200);
      expect(await read(await token('current-2'))).toBe(200);
      expect(t.issuer.jwksFetches).toBe(3);
    });
  });
});

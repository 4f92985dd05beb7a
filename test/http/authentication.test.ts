import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const SELF = '191212121212';
const URL = '/patients/appointments/';

describe('credentials on every call', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses a missing or unknown subscription key with 401 before looking at the token', async () => {
    const token = await t.personToken(SELF);
    for (const key of [null, 'wrong-key', '']) {
      const res = await t.call({ method: 'GET', url: URL, token, key });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ statusCode: 401, message: 'Access denied due to missing or invalid subscription key.' });
    }
  });

  it('answers the key refusal in shape 2 on contacts, attention signals and video meetings', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/contacts/', key: null });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'Access denied due to missing or invalid subscription key.', path: '/patients/contacts/', status: 401, timestamp: t.clock.now(),
    });
  });

  it('refuses a valid key without a token: 401 with the bare WWW-Authenticate: Bearer (RFC 6750 §3.1)', async () => {
    const res = await t.call({ method: 'GET', url: URL });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({ statusCode: 401, message: 'Invalid access token.' });
  });

  it('accepts a second configured key', async () => {
    const res = await t.call({ method: 'GET', url: URL, token: await t.personToken(SELF), key: OTHER_KEY });
    expect(res.statusCode).toBe(200);
  });

  const challenge = (description: string) => `Bearer error="invalid_token", error_description="${description}"`;
  const tampered = (token: string) => `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;

  it.each([
    ['expired beyond the 60 s skew', async () => t.personToken(SELF, { exp: Math.floor(t.clock.now() / 1000) - 61 }),
      'The access token has expired: get a new one.'],
    ['not yet valid beyond the skew', async () => t.personToken(SELF, { nbf: Math.floor(t.clock.now() / 1000) + 61 }),
      'The access token is not valid yet (nbf is in the future): check the issuer clock.'],
    ['for another API', async () => t.personToken(SELF, { aud: 'another-api' }), 'The access token is for another audience than this service.'],
    ['from another issuer', async () => t.personToken(SELF, { iss: 'http://127.0.0.1:1/other' }),
      'The access token is from another issuer than the one this service trusts.'],
    ['with a signature that does not verify', async () => tampered(await t.personToken(SELF)),
      'The access token signature does not verify with a key the issuer publishes, or its algorithm is not allowed.'],
    ['signed with a key the issuer does not publish', async () => t.issuer.sign({ patient: SELF, scope: 'user/Contact-read' }, { kid: 'unknown-key' }),
      'The access token signature does not verify with a key the issuer publishes, or its algorithm is not allowed.'],
    ['that is not a JWT', async () => 'not-a-jwt', 'The access token is malformed: send a signed JWT as Authorization: Bearer <token>.'],
    ['of three parts that are not JSON', async () => 'abc.def.ghi', 'The access token is malformed: send a signed JWT as Authorization: Bearer <token>.'],
    ['without exp', async () => t.personToken(SELF, { exp: undefined }),
      'The access token lacks a claim this service needs (sub, exp, a valid patient claim) or is from a client that is not listed.'],
  ])('issue 22 item 2: refuses a token %s with 401, the same body, and an error_description that says why and never the token', async (_label, make, description) => {
    const token = await make();
    const res = await t.call({ method: 'GET', url: URL, token });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, message: 'Invalid access token.' });
    expect(res.headers['www-authenticate']).toBe(challenge(description));
    for (const part of token.split('.')) expect(String(res.headers['www-authenticate'])).not.toContain(part.slice(0, 12) || '\u0000');
  });

  it('accepts a token just inside the clock skew', async () => {
    const res = await t.call({ method: 'GET', url: URL, token: await t.personToken(SELF, { exp: Math.floor(t.clock.now() / 1000) - 50 }) });
    expect(res.statusCode).toBe(200);
  });

  it('refuses alg none, HS256 signed with the public key, a foreign key and a tampered payload', async () => {
    const good = await t.personToken(SELF);
    const [, payload] = good.split('.');
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const { createHmac } = await import('node:crypto');
    const hsInput = `${b64({ alg: 'HS256', kid: 'key-1' })}.${payload}`;
    const hs = `${hsInput}.${createHmac('sha256', JSON.stringify(t.issuer.publicJwk())).update(hsInput).digest('base64url')}`;
    const foreign = await t.issuer.signWithForeignKey({ patient: SELF, scope: 'user/Appointment-read' });
    const tampered = good.replace(payload ?? '', b64({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), patient: '198112189876' }));
    for (const token of [none, hs, foreign, tampered, 'not.a.jwt', 'x'.repeat(9000)]) {
      const res = await t.call({ method: 'GET', url: URL, token });
      expect(res.statusCode).toBe(401);
    }
  });

  it('refuses typ headers other than JWT and at+jwt', async () => {
    const ok = await t.call({ method: 'GET', url: URL, token: await t.issuer.sign({ patient: SELF, scope: 'user/Appointment-read' }, { typ: 'JWT' }) });
    expect(ok.statusCode).toBe(200);
    const idToken = await t.call({ method: 'GET', url: URL, token: await t.issuer.sign({ patient: SELF, scope: 'user/Appointment-read' }, { typ: 'id_token+jwt' }) });
    expect(idToken.statusCode).toBe(401);
  });

  it('refuses a token in the query string with 400, and never logs it', async () => {
    const token = await t.personToken(SELF);
    const res = await t.call({ method: 'GET', url: `${URL}?access_token=${token}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Authorization header/);
    expect(t.logLines.join('\n')).not.toContain(token);
  });

  it('answers 403 insufficient_scope naming the needed scope, for reads and writes', async () => {
    const readOnly = await t.personToken(SELF, { scope: 'user/Appointment-read' });
    const res = await t.call({ method: 'PUT', url: `${URL}?id=1`, token: readOnly, payload: { status: 'arrived' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, message: 'Insufficient scope.' });
    expect(res.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="user/Appointment-write"');
    const journal = await t.call({ method: 'GET', url: '/patients/journalnotes/', token: readOnly });
    expect(journal.statusCode).toBe(403);
    expect(journal.headers['www-authenticate']).toContain('scope="user/JournalNote-read"');
  });

  it('accepts SMART-style scopes and scp arrays', async () => {
    const smart = await t.personToken(SELF, { scope: 'patient/Appointment.read' });
    expect((await t.call({ method: 'GET', url: URL, token: smart })).statusCode).toBe(200);
    const scp = await t.personToken(SELF, { scope: undefined, scp: ['user/Appointment-read'] });
    expect((await t.call({ method: 'GET', url: URL, token: scp })).statusCode).toBe(200);
  });

  it('keeps identities apart in the verified-token cache', async () => {
    const a = await t.personToken(SELF, { sub: 'same-prefix-a' });
    const b = await t.personToken('198112189876', { sub: 'same-prefix-b' });
    await t.call({ method: 'GET', url: URL, token: a });
    await t.call({ method: 'GET', url: URL, token: b });
    const [ra, rb] = t.audit.records.slice(-2);
    expect(ra?.actor).toMatchObject({ subject: 'same-prefix-a', personId: SELF });
    expect(rb?.actor).toMatchObject({ subject: 'same-prefix-b', personId: '198112189876' });
  });
});

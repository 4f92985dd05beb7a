/**
 * Issue 46 step 1: oidc-provider's state in PostgreSQL (src/adapters/auth-server/postgres-models.ts),
 * against the real database: the schema `npm run migrate` makes, each method of oidc-provider's adapter
 * interface, expiry by the database's clock, revocation of a grant's tokens at once, and two providers
 * on one schema seeing each other's grants and refresh tokens.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  migrateSignIn, PostgresModels, signInSchemaVersion, SIGN_IN_LATEST_VERSION,
} from '../../../src/adapters/auth-server/postgres-models.js';
import { LaunchPicks } from '../../../src/adapters/auth-server/smart-launch.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS } from '../../support/run-script.js';

const available = await databaseAvailable();

describe.skipIf(!available)('the authorization server\'s state in PostgreSQL', () => {
  const schema = freshSchema('sign_in_test');
  let pool: pg.Pool;
  let models: PostgresModels;

  beforeAll(async () => {
    pool = adminPool();
    models = new PostgresModels(pool, schema);
  });
  afterAll(async () => {
    await dropSchema(pool, schema);
    await pool.end();
  });

  it('creates its schema at the latest version once; a second run changes nothing', async () => {
    expect(await signInSchemaVersion(pool, schema)).toBe(0);
    expect(await migrateSignIn(pool, schema)).toEqual({ from: 0, to: SIGN_IN_LATEST_VERSION });
    expect(await migrateSignIn(pool, schema)).toEqual({ from: SIGN_IN_LATEST_VERSION, to: SIGN_IN_LATEST_VERSION });
    expect(await signInSchemaVersion(pool, schema)).toBe(SIGN_IN_LATEST_VERSION);
  });

  it('keeps each model apart, finds by id, uid and user code, and marks a code consumed', async () => {
    const sessions = models.adapter('Session');
    const codes = models.adapter('AuthorizationCode');
    await sessions.upsert('s1', { uid: 'u1', accountId: '191212121212', exp: 1 }, 60);
    await codes.upsert('s1', { grantId: 'g1', userCode: 'ABCD' }, 60);
    expect(await sessions.find('s1')).toEqual({ uid: 'u1', accountId: '191212121212', exp: 1 });
    expect(await sessions.findByUid('u1')).toEqual({ uid: 'u1', accountId: '191212121212', exp: 1 });
    expect(await codes.findByUid('u1')).toBeUndefined();
    await sessions.upsert('s2', { uid: 'u1', exp: 2 }, 60);
    await sessions.upsert('s3', { uid: 'u1', exp: 3 }, -1);
    expect(await sessions.findAllByUid('u1')).toEqual(expect.arrayContaining([{ uid: 'u1', accountId: '191212121212', exp: 1 }, { uid: 'u1', exp: 2 }]));
    expect(await sessions.findAllByUid('u1')).toHaveLength(2);
    await sessions.destroy('s2');
    expect(await codes.findByUserCode('ABCD')).toEqual({ grantId: 'g1', userCode: 'ABCD' });
    await codes.consume('s1');
    const consumed = await codes.find('s1');
    expect(typeof consumed?.consumed).toBe('number');
    expect(Math.abs(Number(consumed?.consumed) - Date.now() / 1000)).toBeLessThan(60);
    await sessions.upsert('s1', { uid: 'u2' }, 60);
    expect(await sessions.findByUid('u1')).toBeUndefined();
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
    expect(await codes.find('s1')).toBeDefined();
  });

  // Fifth review helper-168, F1: a save that read an interaction before its resume ended it wrote it back (two
  // finishes at once, the sign-out detour), and a resume elsewhere took the login written back. A session is
  // saved back the same way by any request that loaded it before sign-out ended it. Failed before: both were found again.
  it.each(['Interaction', 'Session'])('an ended %s stays ended: a save of what was read before the end stores nothing', async (model) => {
    const adapter = models.adapter(model);
    const read = { uid: `u-${model}`, accountId: '191212121212', exp: Math.floor(Date.now() / 1000) + 60 };
    await adapter.upsert(`ended-${model}`, read, 60);
    await adapter.destroy(`ended-${model}`);
    await adapter.destroy(`ended-${model}`);
    await adapter.upsert(`ended-${model}`, read, 60);
    expect(await adapter.find(`ended-${model}`)).toBeUndefined();
    expect(await adapter.findByUid(`u-${model}`)).toBeUndefined();
    // Kept an hour, far past any request that read it before its end, then swept like any row past its expiry.
    const { rows } = await pool.query<{ left: number }>(`SELECT extract(epoch FROM expires_at - now())::int AS left FROM "${schema}".oidc_model WHERE id = $1`, [`ended-${model}`]);
    expect(rows[0]?.left).toBeGreaterThan(3500);
    expect(rows[0]?.left).toBeLessThanOrEqual(3600);
    // Another id of the model, and the same id of another model, are stored as ever.
    await adapter.upsert(`other-${model}`, read, 60);
    expect(await adapter.find(`other-${model}`)).toEqual(read);
    await models.adapter('AccessToken').upsert(`ended-${model}`, { grantId: 'g' }, 60);
    expect(await models.adapter('AccessToken').find(`ended-${model}`)).toEqual({ grantId: 'g' });
  });

  // Re-review helper-173, F1: oidc-provider's sign-out detour deletes `session.uid` from an interaction it saves, and then
  // takes it up in any browser. Checked before oidc-provider read it, a picker saved so a moment later (the attacker's
  // own detour) was taken up in a victim's browser (5 in 54 attempts). Failed before: the interaction was found.
  it('an interaction after the login that carries it without its session\'s uid is found by no one', async () => {
    const interactions = models.adapter('Interaction');
    const session = { accountId: '191212121212', cookie: 'session-id' };
    const login = { login: { accountId: '191212121212' } };
    const picker = (id: string, payload: Record<string, unknown>) => interactions.upsert(id, { prompt: { name: 'patient' }, ...payload }, 60);
    await picker('detoured', { session, result: login });
    await picker('detoured-before', { session, lastSubmission: login });
    await picker('no-session', { result: login });
    for (const id of ['detoured', 'detoured-before', 'no-session']) expect([id, await interactions.find(id)]).toEqual([id, undefined]);
    // With its session's uid, or carrying no login, or the login prompt's own (whose detour is the person switch): found.
    await picker('own', { session: { ...session, uid: 'u1' }, result: login });
    await picker('no-login', { session });
    await interactions.upsert('login-prompt', { prompt: { name: 'login' }, session, result: login }, 60);
    for (const id of ['own', 'no-login', 'login-prompt']) expect([id, await interactions.find(id)]).toEqual([id, expect.objectContaining({ session: expect.anything() })]);
  });

  it('an interaction or session ended before it was ever stored is never stored after', async () => {
    const interactions = models.adapter('Interaction');
    await interactions.destroy('never-stored');
    await interactions.upsert('never-stored', { uid: 'n1' }, 60);
    expect(await interactions.find('never-stored')).toBeUndefined();
  });

  it('finds nothing past its expiry, and the sweep deletes it; a row without expiry stays', async () => {
    const tokens = models.adapter('RefreshToken');
    await tokens.upsert('expired', { grantId: 'g2' }, 60);
    await tokens.upsert('forever', { grantId: 'g2' });
    await pool.query(`UPDATE "${schema}".oidc_model SET expires_at = now() - interval '1 second' WHERE id = 'expired'`);
    expect(await tokens.find('expired')).toBeUndefined();
    expect(await models.sweep()).toBeGreaterThanOrEqual(1);
    expect((await pool.query(`SELECT id FROM "${schema}".oidc_model WHERE id = 'expired'`)).rowCount).toBe(0);
    expect(await tokens.find('forever')).toEqual({ grantId: 'g2' });
  });

  it('issue 52 item 13: says whose a live grant is: nobody\'s once destroyed or past its expiry, nor of another model', async () => {
    const grants = models.adapter('Grant');
    const held = { accountId: '198112189876', clientId: 'app' };
    await grants.upsert('live', { jti: 'live', ...held }, 60);
    await grants.upsert('ending', { jti: 'ending', ...held }, 60);
    await models.adapter('Session').upsert('session-only', { uid: 'u9', ...held }, 60);
    await pool.query(`UPDATE "${schema}".oidc_model SET expires_at = now() - interval '1 second' WHERE id = 'ending'`);
    expect(await grants.holderOf('live')).toEqual(held);
    expect(await grants.holderOf('ending')).toBeUndefined();
    expect(await grants.holderOf('session-only')).toBeUndefined();
    await grants.destroy('live');
    expect(await grants.holderOf('live')).toBeUndefined();
    // Another schema's adapter on the same connections: its own statement, its own rows.
    const other = freshSchema('sign_in_alive');
    await migrateSignIn(pool, other);
    try {
      expect(await new PostgresModels(pool, other).adapter('Grant').holderOf('ending')).toBeUndefined();
    } finally {
      await dropSchema(pool, other);
    }
  });

  it('revokes every token of a grant of one model at once, leaving other grants and models', async () => {
    const refresh = models.adapter('RefreshToken');
    const codes = models.adapter('AuthorizationCode');
    await refresh.upsert('r1', { grantId: 'g3' }, 60);
    await refresh.upsert('r2', { grantId: 'g3' }, 60);
    await refresh.upsert('r3', { grantId: 'g4' }, 60);
    await codes.upsert('c1', { grantId: 'g3' }, 60);
    await refresh.revokeByGrantId('g3');
    expect(await refresh.find('r1')).toBeUndefined();
    expect(await refresh.find('r2')).toBeUndefined();
    expect(await refresh.find('r3')).toBeDefined();
    expect(await codes.find('c1')).toBeDefined();
  });

  it('keeps a SMART launch\'s pick for every instance', async () => {
    const one = new LaunchPicks(60, models.adapter('LaunchPick'));
    const other = new LaunchPicks(60, models.adapter('LaunchPick'));
    await one.remember('g5', { patientId: 'p-lilla', accountId: '198112189876', fhirUser: 'RelatedPerson/rp-1' });
    expect(await other.of('g5')).toEqual({ patientId: 'p-lilla', accountId: '198112189876', fhirUser: 'RelatedPerson/rp-1' });
    expect(await other.of('g6')).toBeUndefined();
  });

  it('issue 46: lists the picks a person made or that open a record they may open (connected apps), and forgets a revoked one', async () => {
    const picks = new LaunchPicks(60, models.adapter('LaunchPick'));
    await picks.remember('gm', { patientId: 'lilla', accountId: '194608632396', fhirUser: 'RelatedPerson/x' });
    await picks.remember('gt', { patientId: 'tolvan', accountId: '191212121212', fhirUser: 'Patient/tolvan' });
    await picks.remember('gs', { patientId: 'sara', accountId: '197305242385', fhirUser: 'Patient/sara' });
    const ids = async () => (await picks.opening('194608632396', ['gosta', 'lilla', 'tolvan'])).map((p) => p.grantId).sort();
    expect(await ids()).toEqual(['gm', 'gt']);
    await picks.forget('gm');
    expect(await ids()).toEqual(['gt']);
    expect(await picks.of('gm')).toBeUndefined();
  });

  it('lets two providers on one schema share grants and refresh tokens, and one revocation stop both', async () => {
    const config = { adapter: models.adapter, clients: [{ client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['authorization_code', 'refresh_token'] }] };
    const first = new Provider('http://127.0.0.1:1', config);
    const second = new Provider('http://127.0.0.1:1', config);
    const grant = new first.Grant({ accountId: '191212121212', clientId: 'app' });
    grant.addOIDCScope('openid offline_access');
    const grantId = await grant.save();
    expect(await second.Grant.find(grantId)).toMatchObject({ accountId: '191212121212', clientId: 'app' });
    const token = new (first as unknown as { RefreshToken: new (init: Record<string, unknown>) => { save(): Promise<string> } }).RefreshToken({
      accountId: '191212121212', clientId: 'app', grantId, scope: 'openid offline_access', gty: 'authorization_code',
    });
    const value = await token.save();
    expect(await second.RefreshToken.find(value)).toMatchObject({ clientId: 'app', grantId });
    await models.adapter('RefreshToken').revokeByGrantId(grantId);
    expect(await first.RefreshToken.find(value)).toBeUndefined();
    expect(await second.RefreshToken.find(value)).toBeUndefined();
  });
});

// Hostile review helper-91, 1: the consumption was a plain UPDATE after oidc-provider's find, so refreshes (and
// code exchanges) racing with one token all found it unused and each got a new family of tokens (4 x 200 in
// 3 rounds of 4), and the reuse detection never fired. Failed before: four 200s.
describe.skipIf(!available)('a code or refresh token used at once by several requests, on two instances', () => {
  const VERIFIER = 'a-verifier-of-at-least-forty-three-characters-0123456789';
  const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
  const schema = freshSchema('sign_in_race');
  let pool: pg.Pool;
  let models: PostgresModels;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    pool = adminPool();
    models = new PostgresModels(pool, schema);
    await migrateSignIn(pool, schema);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await dropSchema(pool, schema);
    await pool.end();
  });

  /** An instance of the authorization server on loopback over the shared schema: its token endpoint's URL and provider. */
  async function instance(): Promise<{ provider: Provider; token: string }> {
    const provider = new Provider('http://127.0.0.1', {
      adapter: models.adapter,
      clients: [{ client_id: 'app', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1/cb'], grant_types: ['authorization_code', 'refresh_token'] }],
    });
    const server = createServer(provider.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { provider, token: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token` };
  }

  // The grant's end with its record is the service's (raced-grants.ts): test/e2e/region-sign-in-protocol.
  it('one wins, on either instance; every other is invalid_grant', async () => {
    const [a, b] = [await instance(), await instance()];
    if (a === undefined || b === undefined) throw new Error('two instances');
    for (let round = 0; round < 4; round++) {
      const grant = new a.provider.Grant({ accountId: '191212121212', clientId: 'app' });
      grant.addOIDCScope('openid offline_access');
      const grantId = await grant.save();
      const made = a.provider as unknown as Record<'RefreshToken' | 'AuthorizationCode', new (init: Record<string, unknown>) => { save(): Promise<string> }>;
      const common = { accountId: '191212121212', clientId: 'app', grantId, scope: 'openid offline_access' };
      // Refresh tokens in even rounds, codes (with their PKCE verifier) in odd ones.
      const body = round % 2 === 0
        ? new URLSearchParams({
          grant_type: 'refresh_token', client_id: 'app',
          refresh_token: await new made.RefreshToken({ ...common, gty: 'authorization_code', iiat: Math.floor(Date.now() / 1000) }).save(),
        })
        : new URLSearchParams({
          grant_type: 'authorization_code', client_id: 'app', redirect_uri: 'http://127.0.0.1/cb', code_verifier: VERIFIER,
          code: await new made.AuthorizationCode({ ...common, redirectUri: 'http://127.0.0.1/cb', codeChallenge: CHALLENGE, codeChallengeMethod: 'S256' }).save(),
        });
      const answers = await Promise.all([a, b, a, b].map(async ({ token }) => {
        const res = await fetch(token, { method: 'POST', body });
        return { status: res.status, body: await res.json() as { error?: string; refresh_token?: string } };
      }));
      expect(answers.map((x) => x.status).sort()).toEqual([200, 400, 400, 400]);
      expect(answers.filter((x) => x.status === 400).map((x) => x.body.error)).toEqual(['invalid_grant', 'invalid_grant', 'invalid_grant']);
    }
  });
});

describe.skipIf(!available)('npm run migrate makes the sign-in schema', RUNS_COMMANDS, () => {
  const audit = freshSchema('migrate_test');
  const signIn = freshSchema('sign_in_test');
  let pool: pg.Pool;
  beforeAll(() => {
    pool = adminPool();
  });
  afterAll(async () => {
    await dropSchema(pool, audit);
    await dropSchema(pool, signIn);
    await pool.end();
  });

  it('names what it migrated, and nothing for the sign-in schema on a second run', async () => {
    const args = ['--schema', audit, '--sign-in-schema', signIn];
    const first = await runScript('migrate.ts', args, { DATABASE_URL: databaseUrl() });
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toContain(`sign-in schema ${signIn} at postgres://127.0.0.1:5432/test: migrated from version 0 to ${SIGN_IN_LATEST_VERSION}\n`);
    expect(await signInSchemaVersion(pool, signIn)).toBe(SIGN_IN_LATEST_VERSION);
    const second = await runScript('migrate.ts', args, { DATABASE_URL: databaseUrl() });
    expect(second.stdout).not.toContain('sign-in schema');
  });
});

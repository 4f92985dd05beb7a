/**
 * `npm run migrate` brings the proxy grants' schema up with the others (docs/contract.md §11 "Kept"),
 * and with --service-role grants the role SELECT, INSERT and UPDATE on its tables and nothing more:
 * the service then keeps and changes grants as that role, and cannot delete or rewrite their history.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_GRANTS_LATEST_VERSION } from '../../../src/adapters/proxy-grants/postgres-grant-schema.js';
import { PostgresGrantStore } from '../../../src/adapters/proxy-grants/postgres-grant-store.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshName, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS } from '../../support/run-script.js';
import { grantOf, MARTA, TOLVAN } from './grant-stores.js';

const available = await databaseAvailable();

describe.skipIf(!available)('npm run migrate: the proxy grants\' schema', RUNS_COMMANDS, () => {
  const audit = freshSchema('migrate_test');
  const signIn = freshSchema('migrate_signin');
  const proxy = freshSchema('migrate_proxy');
  const role = freshName('proxy_svc');
  const migrate = (extra: string[] = []) =>
    runScript('migrate.ts', ['--schema', audit, '--sign-in-schema', signIn, '--proxy-schema', proxy, ...extra], { DATABASE_URL: databaseUrl() });
  let admin: pg.Pool;

  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    for (const s of [audit, signIn, proxy]) await dropSchema(admin, s);
    await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('migrates it, names it, and gives the service role what it needs there and no more; a second run says nothing of it', async () => {
    const first = await migrate(['--service-role', role]);
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toContain(`proxy schema ${proxy} at postgres://127.0.0.1:5432/test: migrated from version 0 to ${PROXY_GRANTS_LATEST_VERSION}\n`);
    const { rows } = await admin.query<{ t: string; p: string }>(`
      SELECT table_name AS t, privilege_type AS p FROM information_schema.role_table_grants
       WHERE table_schema = $1 AND grantee = $2 ORDER BY 1, 2`, [proxy, role]);
    expect(rows.map((r) => `${r.p} ${r.t}`)).toEqual([
      'INSERT grant_events', 'SELECT grant_events', 'UPDATE grant_events',
      'INSERT grants', 'SELECT grants', 'UPDATE grants', 'SELECT schema_migrations',
    ]);
    const again = await migrate(['--service-role', role]);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).not.toContain(proxy);
  });

  it('revokes what the role must not hold there, naming it', async () => {
    await admin.query(`GRANT DELETE, TRUNCATE ON "${proxy}".grants TO ${role}; GRANT CREATE ON SCHEMA "${proxy}" TO ${role}`);
    const run = await migrate(['--service-role', role]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.trimEnd().split('\n').filter((l) => l.includes(proxy)).sort()).toEqual([
      `revoked from ${role}: CREATE on "${proxy}"`,
      `revoked from ${role}: DELETE on "${proxy}".grants`,
      `revoked from ${role}: TRUNCATE on "${proxy}".grants`,
    ]);
  });

  it('the service, as that role, keeps and changes grants and their events, and cannot delete or rewrite them', async () => {
    const url = new URL(databaseUrl());
    url.username = role;
    url.password = '';
    const store = await PostgresGrantStore.open({ connectionString: url.toString(), schema: proxy });
    const g = grantOf(TOLVAN, MARTA);
    try {
      await store.create(g, () => undefined);
      expect(await store.change(g.id, ['pending'], { state: 'active', changedMs: g.createdMs + 1 },
        { grantId: g.id, kind: 'accepted', atMs: g.createdMs + 1, by: 'grantee', grantor: TOLVAN, grantee: MARTA })).toMatchObject({ state: 'active' });
      expect(await store.inTurn(async () => (await store.events(0, 10)).map((e) => e.kind))).toEqual(['granted', 'accepted']);
    } finally {
      await store.close();
    }
    const asService = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      for (const sql of [`DELETE FROM "${proxy}".grants`, `TRUNCATE "${proxy}".grant_events`, `DELETE FROM "${proxy}".grant_events`,
        `DROP TABLE "${proxy}".grants`, `CREATE TABLE "${proxy}".other (x int)`, `DELETE FROM "${proxy}".schema_migrations`]) {
        await expect(asService.query(sql), sql).rejects.toMatchObject({ code: '42501' });
      }
    } finally {
      await asService.end();
    }
  });

  it('a bad --proxy-schema is a bad argument (exit 2)', async () => {
    const run = await runScript('migrate.ts', ['--proxy-schema', 'Proxy-Grants'], { DATABASE_URL: databaseUrl() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--proxy-schema must be a lower-case SQL name such as proxy_grants');
  });
});

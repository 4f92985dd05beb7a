/**
 * `npm run migrate` brings the notifications' schema up with the others (docs/operations.md#the-notifications-schema),
 * and with --service-role gives the role what the service needs there and nothing more: the service
 * then keeps subscriptions, events, feeds, leases and the EHR budget as that role, and cannot rewrite
 * an event or a feed entry, empty a table, or make objects of its own.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresPollBudget } from '../../../src/adapters/subscriptions/postgres-poll-budget.js';
import { NOTIFICATIONS_LATEST_VERSION } from '../../../src/adapters/subscriptions/postgres-subscription-schema.js';
import { PostgresSubscriptionStore } from '../../../src/adapters/subscriptions/postgres-subscription-store.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshName, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS } from '../../support/run-script.js';
import { subscriptionOf, TOLVAN } from './subscription-stores.js';

const available = await databaseAvailable();

describe.skipIf(!available)('npm run migrate: the notifications\' schema', RUNS_COMMANDS, () => {
  const audit = freshSchema('migrate_test');
  const signIn = freshSchema('migrate_signin');
  const proxy = freshSchema('migrate_proxy');
  const notifications = freshSchema('migrate_notify');
  const role = freshName('notify_svc');
  const migrate = (extra: string[] = []) => runScript('migrate.ts',
    ['--schema', audit, '--sign-in-schema', signIn, '--proxy-schema', proxy, '--notifications-schema', notifications, ...extra], { DATABASE_URL: databaseUrl() });
  let admin: pg.Pool;

  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    for (const s of [audit, signIn, proxy, notifications]) await dropSchema(admin, s);
    await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  const asService = (): string => {
    const url = new URL(databaseUrl());
    url.username = role;
    url.password = '';
    return url.toString();
  };

  it('migrates it, names it, and gives the service role what it needs there and no more; a second run says nothing of it', async () => {
    const first = await migrate(['--service-role', role]);
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(first.stdout).toContain(`notifications schema ${notifications} at postgres://127.0.0.1:5432/test: migrated from version 0 to ${NOTIFICATIONS_LATEST_VERSION}\n`);
    const { rows } = await admin.query<{ t: string; p: string }>(`
      SELECT table_name AS t, string_agg(privilege_type, ' ' ORDER BY privilege_type) AS p FROM information_schema.role_table_grants
       WHERE table_schema = $1 AND grantee = $2 GROUP BY table_name ORDER BY 1`, [notifications, role]);
    expect(Object.fromEntries(rows.map((r) => [r.t, r.p]))).toEqual({
      cursors: 'INSERT SELECT UPDATE', feed_entries: 'DELETE INSERT SELECT', poll_budget: 'SELECT UPDATE', poll_targets: 'DELETE INSERT SELECT UPDATE',
      schema_migrations: 'SELECT', subscription_events: 'DELETE INSERT SELECT', subscription_views: 'DELETE INSERT SELECT UPDATE',
      subscriptions: 'DELETE INSERT SELECT UPDATE', turns: 'INSERT SELECT UPDATE',
    });
    const again = await migrate(['--service-role', role]);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).not.toContain(notifications);
    // The service's own start against it only reads the version.
    const store = await PostgresSubscriptionStore.open({ connectionString: asService(), schema: notifications });
    await store.close();
  });

  it('revokes what the role must not hold there, naming it', async () => {
    await admin.query(`GRANT TRUNCATE ON "${notifications}".subscriptions TO ${role}; GRANT UPDATE ON "${notifications}".subscription_events TO ${role};
      GRANT CREATE ON SCHEMA "${notifications}" TO ${role}`);
    const run = await migrate(['--service-role', role]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.trimEnd().split('\n').filter((l) => l.includes(notifications)).sort()).toEqual([
      `revoked from ${role}: CREATE on "${notifications}"`,
      `revoked from ${role}: TRUNCATE on "${notifications}".subscriptions`,
      `revoked from ${role}: UPDATE on "${notifications}".subscription_events`,
    ]);
  });

  it('the service, as that role, does all its work there, and cannot rewrite events or feeds, empty a table or make one', async () => {
    const store = await PostgresSubscriptionStore.open({ connectionString: asService(), schema: notifications });
    const budget = await PostgresPollBudget.open({ connectionString: asService(), schema: notifications, readsPerSecond: 20 });
    const s = subscriptionOf(TOLVAN, TOLVAN, 'lab-result', { status: 'active', dueMs: 10 });
    try {
      await store.create(s, { getLabResults: { 'DiagnosticReport/1': 'd' } }, () => undefined, 10);
      await store.update(s.id, (c) => ({
        subscription: { ...c, eventCount: 1 }, events: [{ subscriptionId: s.id, number: 1, atMs: 20, focus: 'DiagnosticReport/2', change: 'created' }],
        views: { getLabResults: { 'DiagnosticReport/2': 'e' } },
      }), true);
      expect((await store.claimDue(100, 'one', 10, 10)).map((x) => x.id)).toEqual([s.id]);
      await store.releaseClaim(s.id, 'one');
      expect(await store.claimPolls(100, 'one', 10, 10)).toEqual([{ patient: TOLVAN, dueMs: 10 }]);
      await store.releasePoll(TOLVAN, 'one', 200);
      await store.pollSoon(TOLVAN, 150);
      await store.appendFeed([{ feed: 'access', patient: TOLVAN, focus: 'AuditEvent/a', atMs: 5, sourceId: 'a' }]);
      expect(await store.feedEnd()).toBeGreaterThan(0);
      await store.setCursor('audit-feed', '1');
      expect(await store.inTurn('feeds', async () => store.cursor('audit-feed'))).toBe('1');
      expect(await store.pruneEvents(1000)).toBe(1);
      expect(await store.pruneFeed(1000)).toBe(1);
      expect(await budget.reserve(4, 1000)).toBe(0);
      await store.remove(s.id);
      expect(await store.oldestDuePoll(1000)).toBeUndefined();
    } finally {
      await store.close();
      await budget.close();
    }
    const service = new pg.Pool({ connectionString: asService(), max: 1 });
    try {
      const n = `"${notifications}"`;
      for (const sql of [`TRUNCATE ${n}.subscriptions`, `UPDATE ${n}.subscription_events SET focus = 'x'`, `UPDATE ${n}.feed_entries SET patient = 'x'`,
        `DELETE FROM ${n}.cursors`, `DELETE FROM ${n}.turns`, `DELETE FROM ${n}.poll_budget`, `INSERT INTO ${n}.poll_budget VALUES ('x', 0)`,
        `DELETE FROM ${n}.schema_migrations`, `DROP TABLE ${n}.subscriptions`, `CREATE TABLE ${n}.other (x int)`]) {
        await expect(service.query(sql), sql).rejects.toMatchObject({ code: '42501' });
      }
    } finally {
      await service.end();
    }
  });

  it('a bad --notifications-schema is a bad argument (exit 2)', async () => {
    const run = await runScript('migrate.ts', ['--notifications-schema', 'Notifications'], { DATABASE_URL: databaseUrl() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--notifications-schema must be a lower-case SQL name such as notifications');
  });
});

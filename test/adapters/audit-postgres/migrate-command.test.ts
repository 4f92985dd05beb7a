/**
 * `npm run migrate` (src/start/commands/migrate.ts), the database owner's step of docs/operations.md#the-audit-store:
 * the service's own migration and the service role's grants, then exit; a second run changes nothing;
 * the service then runs as a role that owns nothing.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../../../src/adapters/audit-postgres/migrations.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS } from '../../support/run-script.js';
import { fullRecord, migratedTo } from './records.js';

const available = await databaseAvailable();

const migrate = (args: string[], url = databaseUrl()) => runScript('migrate.ts', args, { DATABASE_URL: url });

describe.skipIf(!available)('npm run migrate: the audit store\'s owner step', RUNS_COMMANDS, () => {
  const schema = freshSchema('migrate_test');
  const olderSchema = freshSchema('migrate_test');
  const role = `migrate_svc_${randomBytes(5).toString('hex')}`;
  let admin: pg.Pool;
  const trails: PostgresAuditTrail[] = [];

  /** Everything the step may change: tables, versions, who owns and who may do what. */
  async function state(): Promise<unknown> {
    const { rows } = await admin.query(`
      SELECT c.relname, c.relkind, pg_get_userbyid(c.relowner) AS owner, c.relacl::text AS acl,
        (SELECT nspacl::text FROM pg_namespace WHERE nspname = $1) AS schema_acl,
        (SELECT array_agg(version ORDER BY version) FROM "${schema}".schema_migrations) AS versions,
        (SELECT array_agg(applied_at ORDER BY version)::text FROM "${schema}".schema_migrations) AS applied
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 ORDER BY c.relname`, [schema]);
    return rows;
  }

  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    await dropSchema(admin, schema);
    await dropSchema(admin, olderSchema);
    await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('on a fresh schema: creates the tables at the latest version, makes the service role and grants it what the service needs', async () => {
    const run = await migrate(['--schema', schema, '--service-role', role]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^audit schema ${schema} at postgres://127\\.0\\.0\\.1:5432/test: migrated from version 0 to ${LATEST_VERSION}$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^role ${role} created \\(LOGIN, no password`, 'm'));
    expect(run.stdout).toContain(`granted ${role}: USAGE on "${schema}", SELECT on "${schema}".access_log, INSERT on "${schema}".access_log, `
      + `SELECT on "${schema}".schema_migrations, USAGE on "${schema}".access_log_id_seq`);
    const tables = await admin.query<{ t: string }>(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`, [schema]);
    expect(tables.rows.map((r) => r.t)).toEqual(['access_log', 'schema_migrations']);
    const versions = await admin.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(versions.rows.map((r) => r.version)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
  });

  it('run again: says there is nothing to do and changes nothing', async () => {
    const before = await state();
    const run = await migrate(['--schema', schema, '--service-role', role]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`audit schema ${schema} at postgres://127.0.0.1:5432/test is at version ${LATEST_VERSION}, and ${role} holds its privileges: nothing to do\n`);
    expect(await state()).toEqual(before);
  });

  it('the service then runs as the role, which owns nothing and may only read the version and append', async () => {
    const url = new URL(databaseUrl());
    url.username = role;
    url.password = '';
    const service = PostgresAuditTrail.create({ connectionString: url.toString(), schema, onWarning: () => undefined });
    trails.push(service);
    expect(await service.ping()).toBe(true);
    await service.append(fullRecord(1));
    await service.append(fullRecord(2));
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
    const owners = await admin.query<{ owner: string }>(`SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1`, [schema]);
    expect(owners.rows.map((r) => r.owner)).not.toContain(role);
    const asService = new pg.Pool({ connectionString: url.toString(), max: 1 });
    try {
      await expect(asService.query(`ALTER TABLE "${schema}".access_log DISABLE TRIGGER access_log_append_only`)).rejects.toMatchObject({ code: '42501' });
      await expect(asService.query(`CREATE TABLE "${schema}".other (x int)`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await asService.end();
    }
  });

  it('upgrades a schema an older version left, keeping its rows', async () => {
    await migratedTo(admin, olderSchema, 3);
    const run = await migrate(['--schema', olderSchema]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`audit schema ${olderSchema} at postgres://127.0.0.1:5432/test: migrated from version 3 to ${LATEST_VERSION}\n`);
  });

  it('exits 1 with a clear line when DATABASE_URL is missing or unreachable, never printing the password', async () => {
    const [missing, unreachable] = await Promise.all([
      migrate([], ''),
      migrate([], 'postgres://postgres:not-to-be-printed@127.0.0.1:1/test'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^migrate: DATABASE_URL is not set: /);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^migrate: cannot reach PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/test: .*ECONNREFUSED/);
    expect(unreachable.stderr + unreachable.stdout).not.toContain('not-to-be-printed');
  });

  it('prints its usage and exits 0 for --help or -h, before connecting', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await migrate([flag]);
      expect([flag, run.code, run.stderr]).toEqual([flag, 0, '']);
      expect(run.stdout).toMatch(/^usage: DATABASE_URL=.* npm run migrate -- /);
    }
  });

  it('exits 2 for bad arguments, before connecting', async () => {
    const [schemaName, roleName, unknown] = await Promise.all([
      migrate(['--schema', 'audit; drop table x']), migrate(['--service-role', 'Robert\'); --']), migrate(['--verbose']),
    ]);
    for (const run of [schemaName, roleName, unknown]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^usage: DATABASE_URL=.* npm run migrate -- /m);
    }
  });
});

/**
 * `npm run migrate` (src/start/commands/migrate.ts), the database owner's step of docs/operations.md#the-audit-store:
 * the service's own migration and the service role's grants, then exit; a second run changes nothing;
 * the service then runs as a role that owns nothing.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../../../src/adapters/audit-postgres/migrations.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshName, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS } from '../../support/run-script.js';
import { fullRecord, migratedTo } from './records.js';

const available = await databaseAvailable();

const migrate = (args: string[], url = databaseUrl()) => runScript('migrate.ts', args, { DATABASE_URL: url });

describe.skipIf(!available)('npm run migrate: the audit store\'s owner step', RUNS_COMMANDS, () => {
  const schema = freshSchema('migrate_test');
  const olderSchema = freshSchema('migrate_test');
  const role = freshName('migrate_svc');
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
    expect(run.stdout).toBe(`audit schema ${schema} at postgres://127.0.0.1:5432/test is at version ${LATEST_VERSION}, and ${role} holds its privileges and no more: nothing to do\n`);
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

  describe('issue 44 item 7: excess rights of the service role', () => {
    const excessSchema = freshSchema('migrate_test');
    const excessRole = freshName('migrate_svc');
    const group = freshName('migrate_grp');
    const t = `"${excessSchema}".access_log`;
    const migrateExcess = () => migrate(['--schema', excessSchema, '--service-role', excessRole]);
    /** Every privilege of the role on the schema and its objects, as has_*_privilege answers (inherited ones included). */
    const held = async (): Promise<string[]> => (await admin.query<{ p: string }>(`
      SELECT p FROM (
        SELECT 'schema ' || x AS p FROM unnest(ARRAY['USAGE', 'CREATE']) x WHERE has_schema_privilege($1, $2, x)
        UNION ALL SELECT 'access_log ' || x FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) x
          WHERE has_table_privilege($1, $3, x) OR (x IN ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') AND has_any_column_privilege($1, $3, x))
        UNION ALL SELECT 'schema_migrations ' || x FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) x
          WHERE has_table_privilege($1, $4, x) OR (x IN ('SELECT', 'INSERT', 'UPDATE', 'REFERENCES') AND has_any_column_privilege($1, $4, x))
        UNION ALL SELECT 'access_log_id_seq ' || x FROM unnest(ARRAY['USAGE', 'SELECT', 'UPDATE']) x WHERE has_sequence_privilege($1, $5, x)
      ) held ORDER BY p`, [excessRole, excessSchema, t, `"${excessSchema}".schema_migrations`, `"${excessSchema}".access_log_id_seq`])).rows.map((r) => r.p);
    const NEEDED = ['access_log INSERT', 'access_log SELECT', 'access_log_id_seq USAGE', 'schema USAGE', 'schema_migrations SELECT'];

    beforeAll(async () => {
      expect((await migrateExcess()).code).toBe(0);
      await admin.query(`CREATE ROLE ${group} NOLOGIN`);
    }, RUNS_COMMANDS.timeout);
    afterAll(async () => {
      await admin.query(`REVOKE ALL ON ${t} FROM PUBLIC`).catch(() => undefined);
      await dropSchema(admin, excessSchema);
      for (const r of [excessRole, group]) {
        await admin.query(`DROP OWNED BY ${r}`).catch(() => undefined);
        await admin.query(`DROP ROLE IF EXISTS ${r}`);
      }
    });

    it('revokes ALL on the audit table, CREATE on the schema and more, naming each on a line of its own; run again, nothing to do', async () => {
      await admin.query(`GRANT ALL ON ${t} TO ${excessRole}; GRANT CREATE ON SCHEMA "${excessSchema}" TO ${excessRole};
        GRANT UPDATE ON SEQUENCE "${excessSchema}".access_log_id_seq TO ${excessRole};
        GRANT INSERT, DELETE, UPDATE (version) ON "${excessSchema}".schema_migrations TO ${excessRole}`);
      expect(await held()).toEqual(expect.arrayContaining(['access_log UPDATE', 'access_log TRUNCATE', 'schema CREATE']));
      const run = await migrateExcess();
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.trimEnd().split('\n').sort()).toEqual([
        `revoked from ${excessRole}: CREATE on "${excessSchema}"`,
        ...['DELETE', 'REFERENCES', 'TRIGGER', 'TRUNCATE', 'UPDATE'].map((p) => `revoked from ${excessRole}: ${p} on ${t}`),
        `revoked from ${excessRole}: UPDATE on "${excessSchema}".access_log_id_seq`,
        ...['DELETE', 'INSERT', 'UPDATE'].map((p) => `revoked from ${excessRole}: ${p} on "${excessSchema}".schema_migrations`),
      ].sort());
      expect(await held()).toEqual(NEEDED);
      const again = await migrateExcess();
      expect(again.stdout).toBe(`audit schema ${excessSchema} at postgres://127.0.0.1:5432/test is at version ${LATEST_VERSION}, and ${excessRole} holds its privileges and no more: nothing to do\n`);
    });

    it('refuses, naming them, rights the role gets through PUBLIC, another role or ownership, and changes nothing', async () => {
      await admin.query(`GRANT UPDATE ON ${t} TO ${excessRole}; GRANT TRIGGER ON ${t} TO PUBLIC;
        GRANT DELETE ON ${t} TO ${group}; GRANT ${group} TO ${excessRole}`);
      const before = await held();
      const run = await migrateExcess();
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^migrate: the owner step on .* failed: ${excessRole} would keep privileges the service must not hold, `
        + `which it gets through others: DELETE on "${excessSchema}"\\.access_log through role ${group}; TRIGGER on "${excessSchema}"\\.access_log through PUBLIC\\. `
        + `Revoke them there .* and run again; nothing was changed\\.`));
      expect(await held()).toEqual(before);
      await admin.query(`REVOKE TRIGGER ON ${t} FROM PUBLIC; REVOKE ${group} FROM ${excessRole}; ALTER TABLE ${t} OWNER TO ${excessRole}`);
      const owner = await migrateExcess();
      expect(owner.code).toBe(1);
      expect(owner.stderr).toMatch(new RegExp(`failed: ${excessRole} owns ${t}: an owner can disable its triggers, change or drop it; `
        + 'make the owner step\'s role its owner \\(ALTER TABLE .* OWNER TO .*\\) and run again; nothing was changed\\.'));
      // Ownership given back takes the role's own grants with it; the step grants again what the service needs.
      await admin.query(`ALTER TABLE ${t} OWNER TO CURRENT_USER`);
      const settled = await migrateExcess();
      expect([settled.code, settled.stderr]).toEqual([0, '']);
      expect(await held()).toEqual(NEEDED);
    });
  });

  describe('issue 52 item 12: the service role on the sign-in schema', () => {
    const auditSchema = freshSchema('migrate_test');
    const signIn = freshSchema('migrate_signin');
    const signInRole = freshName('migrate_svc');
    const t = `"${signIn}".oidc_model`;
    const migrateSignIn = () => migrate(['--schema', auditSchema, '--sign-in-schema', signIn, '--service-role', signInRole]);
    afterAll(async () => {
      for (const s of [auditSchema, signIn]) await dropSchema(admin, s);
      await admin.query(`DROP OWNED BY ${signInRole}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${signInRole}`);
    });

    it('issue 52 item 12: revokes what the role must not hold there, naming each; the role can then read and write the state, and cannot drop, alter or truncate it', async () => {
      expect((await migrateSignIn()).code).toBe(0);
      await admin.query(`GRANT ALL ON ${t} TO ${signInRole}; GRANT CREATE ON SCHEMA "${signIn}" TO ${signInRole};
        GRANT INSERT, UPDATE, DELETE, TRUNCATE ON "${signIn}".schema_migrations TO ${signInRole}`);
      const run = await migrateSignIn();
      expect([run.code, run.stderr]).toEqual([0, '']);
      // Before the fix: the step said nothing of the sign-in schema, and the role kept all of it.
      expect(run.stdout.trimEnd().split('\n').filter((l) => l.includes(signIn)).sort()).toEqual([
        `revoked from ${signInRole}: CREATE on "${signIn}"`,
        ...['REFERENCES', 'TRIGGER', 'TRUNCATE'].map((p) => `revoked from ${signInRole}: ${p} on ${t}`),
        ...['DELETE', 'INSERT', 'TRUNCATE', 'UPDATE'].map((p) => `revoked from ${signInRole}: ${p} on "${signIn}".schema_migrations`),
      ].sort());
      const url = new URL(databaseUrl());
      url.username = signInRole;
      url.password = '';
      const asService = new pg.Pool({ connectionString: url.toString(), max: 1 });
      try {
        await asService.query(`INSERT INTO ${t} (model, id, payload) VALUES ('Session', 's1', '{}')`);
        await asService.query(`UPDATE ${t} SET payload = '{"a":1}' WHERE id = 's1'`);
        expect((await asService.query(`DELETE FROM ${t} WHERE id = 's1'`)).rowCount).toBe(1);
        for (const sql of [`TRUNCATE ${t}`, `DROP TABLE ${t}`, `ALTER TABLE ${t} ADD COLUMN x int`, `CREATE TABLE "${signIn}".other (x int)`,
          `DELETE FROM "${signIn}".schema_migrations`]) {
          await expect(asService.query(sql), sql).rejects.toMatchObject({ code: '42501' });
        }
      } finally {
        await asService.end();
      }
      const again = await migrateSignIn();
      expect(again.stdout).not.toContain('revoked');
    });
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

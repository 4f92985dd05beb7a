/**
 * The audit store's owner step, run by the database owner once per version, before the service rolls
 * (docs/operations.md#the-audit-store):
 *   npm run migrate -- [--schema <name>] [--service-role <role>]   (--help: this usage)
 * Against DATABASE_URL: brings schema `audit` (or --schema) and the sign-in schema `sign_in` (or
 * --sign-in-schema: the authorization server's state, docs/sign-in.md) and the proxy grants' schema
 * `proxy_grants` (or --proxy-schema, docs/contract.md §11) and the notifications' schema `notifications` (or
 * --notifications-schema, docs/operations.md#the-notifications-schema) to the latest migration, the same one the service runs at start, and with --service-role makes that role (if missing) and grants it what the
 * service needs, and revokes what it must not hold (or refuses, naming it, where revoking from the
 * role cannot take it away). Says what it changed, line by line, or that there was nothing to do.
 * Exit code 2 for bad arguments, 1 when DATABASE_URL is missing, unreachable or refuses the step.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { inTransaction, outlivingConnections } from '../../adapters/audit-postgres/bounded-client.js';
import { ownerStep, type OwnerStepDone } from '../../adapters/audit-postgres/owner-step.js';
import { revokeExcess, type ServicePrivilege } from '../../adapters/audit-postgres/service-privileges.js';
import { migrateSignIn, SIGN_IN_SCHEMA } from '../../adapters/auth-server/postgres-models.js';
import { migrateProxyGrants, PROXY_GRANTS_PRIVILEGES, PROXY_GRANTS_SCHEMA } from '../../adapters/proxy-grants/postgres-grant-schema.js';
import { migrateNotifications, NOTIFICATIONS_PRIVILEGES, NOTIFICATIONS_SCHEMA } from '../../adapters/subscriptions/postgres-subscription-schema.js';
import type { Migrated } from '../../adapters/audit-postgres/schema-migrations.js';
import { SQL_NAME } from '../../adapters/audit-postgres/sql-names.js';
import { shownUrl, withoutPassword } from '../shown-url.js';
import { commandLogger, say } from './command-log.js';

const USAGE = 'usage: DATABASE_URL=postgres://<owner>@<host>/<db> npm run migrate -- [--schema <name>] [--sign-in-schema <name>] [--proxy-schema <name>] [--notifications-schema <name>] [--service-role <role>]';

class Refusal extends Error {
  constructor(message: string, readonly code: number) {
    super(message);
  }
}

const OPTIONS = { schema: { type: 'string' }, 'sign-in-schema': { type: 'string' }, 'proxy-schema': { type: 'string' }, 'notifications-schema': { type: 'string' }, 'service-role': { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

interface Arguments { schema: string; signInSchema: string; proxySchema: string; notificationsSchema: string; serviceRole: string | undefined; help: boolean }

function parseArguments(argv: string[]): Arguments {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (err) {
    throw new Refusal(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`, 2);
  }
  const schema = values.schema ?? 'audit';
  const serviceRole = values['service-role'];
  const signInSchema = values['sign-in-schema'] ?? SIGN_IN_SCHEMA;
  if (!SQL_NAME.test(signInSchema)) throw new Refusal(`--sign-in-schema must be a lower-case SQL name such as ${SIGN_IN_SCHEMA}\n${USAGE}`, 2);
  const proxySchema = values['proxy-schema'] ?? PROXY_GRANTS_SCHEMA;
  if (!SQL_NAME.test(proxySchema)) throw new Refusal(`--proxy-schema must be a lower-case SQL name such as ${PROXY_GRANTS_SCHEMA}\n${USAGE}`, 2);
  const notificationsSchema = values['notifications-schema'] ?? NOTIFICATIONS_SCHEMA;
  if (!SQL_NAME.test(notificationsSchema)) throw new Refusal(`--notifications-schema must be a lower-case SQL name such as ${NOTIFICATIONS_SCHEMA}\n${USAGE}`, 2);
  if (!SQL_NAME.test(schema)) throw new Refusal(`--schema must be a lower-case SQL name such as audit\n${USAGE}`, 2);
  if (serviceRole !== undefined && !SQL_NAME.test(serviceRole)) throw new Refusal(`--service-role must be a lower-case SQL name such as pdas_service\n${USAGE}`, 2);
  return { schema, signInSchema, proxySchema, notificationsSchema, serviceRole, help: values.help === true };
}

/** What the step did, one line each; a run that changed nothing says so in one line. */
function report(done: OwnerStepDone, schema: string, serviceRole: string | undefined, where: string): string[] {
  const lines: string[] = [];
  if (done.to > done.from) lines.push(`audit schema ${schema} at ${where}: migrated from version ${done.from} to ${done.to}`);
  if (done.createdRole !== undefined) {
    lines.push(`role ${done.createdRole} created (LOGIN, no password: give it one with ALTER ROLE ${done.createdRole} PASSWORD '…', or another way to authenticate)`);
  }
  if (done.granted.length > 0) lines.push(`granted ${serviceRole ?? ''}: ${done.granted.join(', ')}`);
  for (const privilege of done.revoked) lines.push(`revoked from ${serviceRole ?? ''}: ${privilege}`);
  if (lines.length > 0) return lines;
  const role = serviceRole === undefined ? '' : `, and ${serviceRole} holds its privileges and no more`;
  return [`audit schema ${schema} at ${where} is at version ${done.to}${role}: nothing to do`];
}

/**
 * What the service role keeps on the sign-in schema: the grants migrateSignIn gives (read the version;
 * read and write oidc-provider's state, which expires and is revoked row by row), and nothing else.
 * TRUNCATE would end every session and refresh token at once, CREATE put objects beside them, and
 * REFERENCES and TRIGGER are not the service's business (issue 52 item 12).
 */
const SIGN_IN_PRIVILEGES: readonly ServicePrivilege[] = [
  { kind: 'schema', privilege: 'USAGE', object: '' },
  { kind: 'table', privilege: 'SELECT', object: '.schema_migrations' },
  ...['SELECT', 'INSERT', 'UPDATE', 'DELETE'].map((privilege) => ({ kind: 'table' as const, privilege, object: '.oidc_model' })),
];

/** A schema of ours beside the audit store's: migrated as the service does, and the service role given what `needed` names and no more. */
interface SchemaStep {
  /** How the lines name it: `sign-in`, `proxy`, `notifications`. */
  label: string;
  migrate: (pool: pg.Pool, schema: string, serviceRole: string | undefined) => Promise<Migrated>;
  needed: readonly ServicePrivilege[];
}

const SIGN_IN_STEP: SchemaStep = { label: 'sign-in', migrate: migrateSignIn, needed: SIGN_IN_PRIVILEGES };

/** The proxy grants' schema (src/adapters/proxy-grants/postgres-grant-schema.ts): read, add and change grants and events, no more. */
const PROXY_STEP: SchemaStep = { label: 'proxy', migrate: migrateProxyGrants, needed: PROXY_GRANTS_PRIVILEGES };

/** The notifications' schema (src/adapters/subscriptions/postgres-subscription-schema.ts): subscriptions, events, feeds, leases, the budget. */
const NOTIFICATIONS_STEP: SchemaStep = { label: 'notifications', migrate: migrateNotifications, needed: NOTIFICATIONS_PRIVILEGES };

/**
 * A schema of `step` (the authorization server's, src/adapters/auth-server/postgres-models.ts; the proxy
 * grants'), with the service role's grants on it and what it must not hold there revoked, or refused as on the audit schema.
 */
async function migrateSchema(step: SchemaStep, url: string, where: string, schema: string, serviceRole: string | undefined): Promise<{ from: number; to: number; revoked: string[] }> {
  const pool = outlivingConnections(new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5000, application_name: 'patient-data-access-migrate' }));
  try {
    const migrated = await step.migrate(pool, schema, serviceRole);
    if (serviceRole === undefined) return { ...migrated, revoked: [] };
    const client = await pool.connect();
    try {
      return { ...migrated, revoked: await inTransaction(client, () => revokeExcess(client, schema, serviceRole, step.needed)) };
    } finally {
      client.release();
    }
  } catch (err) {
    throw new Refusal(`the ${step.label} schema step on ${where} failed: ${withoutPassword(err instanceof Error ? err.message : String(err), url)}`, 1);
  } finally {
    await pool.end().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const { schema, signInSchema, proxySchema, notificationsSchema, serviceRole, help } = parseArguments(process.argv.slice(2));
  if (help) {
    say(USAGE);
    return 0;
  }
  const url = process.env.DATABASE_URL?.trim() ?? '';
  if (url === '') throw new Refusal(`DATABASE_URL is not set: set it to the audit database, connecting as the role that owns (or is to own) schema ${schema}\n${USAGE}`, 1);
  const where = shownUrl(url);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, application_name: 'patient-data-access-migrate' });
  client.on('error', () => undefined);
  try {
    try {
      await client.connect();
    } catch (err) {
      throw new Refusal(`cannot reach PostgreSQL at ${where}: ${withoutPassword(err instanceof Error ? err.message : String(err), url)}`, 1);
    }
    let done: OwnerStepDone;
    try {
      done = await ownerStep(client, schema, serviceRole);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const hint = code === '42501' ? ' (run it as the role that owns the schema, or a superuser)' : '';
      throw new Refusal(`the owner step on ${where} failed: ${withoutPassword(err instanceof Error ? err.message : String(err), url)}${hint}`, 1);
    }
    for (const line of report(done, schema, serviceRole, where)) say(line);
    for (const [step, name] of [[SIGN_IN_STEP, signInSchema], [PROXY_STEP, proxySchema], [NOTIFICATIONS_STEP, notificationsSchema]] as const) {
      const done = await migrateSchema(step, url, where, name, serviceRole);
      if (done.to > done.from) say(`${step.label} schema ${name} at ${where}: migrated from version ${done.from} to ${done.to}`);
      for (const privilege of done.revoked) say(`revoked from ${serviceRole ?? ''}: ${privilege}`);
    }
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

process.exitCode = await main().catch((err: unknown) => {
  if (!(err instanceof Refusal)) throw err;
  commandLogger('migrate').error(err.message);
  return err.code;
});

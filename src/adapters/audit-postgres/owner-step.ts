import type { ClientBase } from 'pg';
import { inTransaction } from './bounded-client.js';
import { migrate, type Migrated } from './migrations.js';
import { quotedRole, quotedSchema } from './sql-names.js';

/** What the owner's step changed; nothing at all on a second run. */
export interface OwnerStepDone extends Migrated {
  /** The service role, when one was named and did not exist yet. */
  createdRole?: string;
  /** Each privilege the service role lacked and was granted, as `INSERT on "audit".access_log`. */
  granted: string[];
}

/**
 * What the role the service runs as needs, and no more: read the migration version, append, and
 * draw ids (docs/operations.md#the-audit-store). It never owns the table: an owner can disable the
 * append-only trigger or drop the table.
 */
const SERVICE_PRIVILEGES = [
  { kind: 'schema', privilege: 'USAGE', object: '' },
  { kind: 'table', privilege: 'SELECT', object: '.access_log' },
  { kind: 'table', privilege: 'INSERT', object: '.access_log' },
  { kind: 'table', privilege: 'SELECT', object: '.schema_migrations' },
  { kind: 'sequence', privilege: 'USAGE', object: '.access_log_id_seq' },
] as const;

/**
 * The database owner's step, `npm run migrate`: the migration the service itself runs at start (the
 * same function, so the two cannot drift), then, with `serviceRole`, that role made (a LOGIN role
 * without a password, which the DBA gives one) and granted what it lacks. Each part is skipped when
 * already done, so a second run changes nothing.
 */
export async function ownerStep(client: ClientBase, schema: string, serviceRole?: string): Promise<OwnerStepDone> {
  // Both names checked before anything changes.
  quotedSchema(schema);
  if (serviceRole !== undefined) quotedRole(serviceRole);
  const migrated = await migrate(client, schema);
  if (serviceRole === undefined) return { ...migrated, granted: [] };
  return { ...migrated, ...await grantServiceRole(client, schema, serviceRole) };
}

async function grantServiceRole(client: ClientBase, schema: string, serviceRole: string): Promise<Pick<OwnerStepDone, 'createdRole' | 'granted'>> {
  const s = quotedSchema(schema);
  const role = quotedRole(serviceRole);
  return inTransaction(client, async () => {
    const missing = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [serviceRole])).rowCount === 0;
    if (missing) await client.query(`CREATE ROLE ${role} LOGIN`);
    const granted: string[] = [];
    for (const { kind, privilege, object } of SERVICE_PRIVILEGES) {
      // has_schema_privilege takes the plain name; the others a relation name, quoted as in SQL.
      const target = object === '' ? schema : `${s}${object}`;
      const held = await client.query<{ held: boolean }>(`SELECT has_${kind}_privilege($1, $2, $3) AS held`, [serviceRole, target, privilege]);
      if (held.rows[0]?.held === true) continue;
      await client.query(`GRANT ${privilege} ON ${kind.toUpperCase()} ${s}${object} TO ${role}`);
      granted.push(`${privilege} on ${s}${object}`);
    }
    return { granted, ...(missing ? { createdRole: serviceRole } : {}) };
  });
}

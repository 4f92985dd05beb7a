import type { ClientBase } from 'pg';
import { inTransaction } from './bounded-client.js';
import { migrate, type Migrated } from './migrations.js';
import { revokeExcess, SERVICE_PRIVILEGES } from './service-privileges.js';
import { quotedRole, quotedSchema } from './sql-names.js';

/** What the owner's step changed; nothing at all on a second run. */
export interface OwnerStepDone extends Migrated {
  /** The service role, when one was named and did not exist yet. */
  createdRole?: string;
  /** Each privilege the service role lacked and was granted, as `INSERT on "audit".access_log`. */
  granted: string[];
  /** Each privilege the service role held and must not, revoked, as `UPDATE on "audit".access_log`. */
  revoked: string[];
}

/**
 * The database owner's step, `npm run migrate`: the migration the service itself runs at start (the
 * same function, so the two cannot drift), then, with `serviceRole`, that role made (a LOGIN role
 * without a password, which the DBA gives one), granted what it lacks and stripped of what it must not
 * hold (src/adapters/audit-postgres/service-privileges.ts). Each part is skipped when already done, so
 * a second run changes nothing.
 */
export async function ownerStep(client: ClientBase, schema: string, serviceRole?: string): Promise<OwnerStepDone> {
  // Both names checked before anything changes.
  quotedSchema(schema);
  if (serviceRole !== undefined) quotedRole(serviceRole);
  const migrated = await migrate(client, schema);
  if (serviceRole === undefined) return { ...migrated, granted: [], revoked: [] };
  return { ...migrated, ...await grantServiceRole(client, schema, serviceRole) };
}

async function grantServiceRole(client: ClientBase, schema: string, serviceRole: string): Promise<Pick<OwnerStepDone, 'createdRole' | 'granted' | 'revoked'>> {
  const s = quotedSchema(schema);
  const role = quotedRole(serviceRole);
  return inTransaction(client, async () => {
    const missing = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [serviceRole])).rowCount === 0;
    if (missing) await client.query(`CREATE ROLE ${role} LOGIN`);
    const revoked = await revokeExcess(client, schema, serviceRole);
    const granted: string[] = [];
    for (const { kind, privilege, object } of SERVICE_PRIVILEGES) {
      // has_schema_privilege takes the plain name; the others a relation name, quoted as in SQL.
      const target = object === '' ? schema : `${s}${object}`;
      const held = await client.query<{ held: boolean }>(`SELECT has_${kind}_privilege($1, $2, $3) AS held`, [serviceRole, target, privilege]);
      if (held.rows[0]?.held === true) continue;
      await client.query(`GRANT ${privilege} ON ${kind.toUpperCase()} ${s}${object} TO ${role}`);
      granted.push(`${privilege} on ${s}${object}`);
    }
    return { granted, revoked, ...(missing ? { createdRole: serviceRole } : {}) };
  });
}

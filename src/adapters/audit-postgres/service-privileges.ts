import type { ClientBase } from 'pg';
import { quotedRole, quotedSchema } from './sql-names.js';

/** An object of the audit schema as PostgreSQL's privilege functions and GRANT name it. */
type Kind = 'schema' | 'table' | 'sequence';

/** One privilege the service role needs: on the schema itself (`object` empty) or `.<name>` in it. */
export type ServicePrivilege = { kind: Kind; privilege: string; object: string };

/**
 * What the role the service runs as needs, and no more: read the migration version, append, and
 * draw ids (docs/operations.md#the-audit-store). Every other privilege on the schema or any object
 * in it is excess: UPDATE, DELETE or TRUNCATE would let it rewrite the trail (the append-only trigger
 * stands in the way, but TRIGGER and REFERENCES are not its business either), CREATE lets it put
 * objects of its own beside the trail, UPDATE on the sequence moves ids.
 */
export const SERVICE_PRIVILEGES: readonly ServicePrivilege[] = [
  { kind: 'schema', privilege: 'USAGE', object: '' },
  { kind: 'table', privilege: 'SELECT', object: '.access_log' },
  { kind: 'table', privilege: 'INSERT', object: '.access_log' },
  { kind: 'table', privilege: 'SELECT', object: '.schema_migrations' },
  { kind: 'sequence', privilege: 'USAGE', object: '.access_log_id_seq' },
];

/** Raised, before anything is changed, when the role holds excess rights that revoking from it cannot take away. */
export class ExcessPrivilegesError extends Error {
  override name = 'ExcessPrivilegesError';
}

interface GrantRow {
  kind: Kind;
  /** `"audit"` or `"audit".access_log`, as SERVICE_PRIVILEGES and the messages spell them. */
  object: string;
  privilege: string;
  /** The role holding the grant: the service role itself, another role it is a member of, or PUBLIC. */
  grantee: string;
  owner: string;
  /** The service role is the object's owner or a member of it. */
  owned: boolean;
}

/**
 * Every grant on the schema and its tables, views and sequences (column grants included) that
 * reaches the role: held by it, by a role it is a member of (inherited or by SET ROLE), or by
 * PUBLIC; and every object it owns, directly or through membership. Read from the ACLs, not from
 * has_*_privilege, which does not see what a NOINHERIT role can reach by SET ROLE.
 */
const GRANTS_SQL = `
  WITH objects AS (
    SELECT 'schema' AS kind, $3 AS object, n.nspowner AS owner, coalesce(n.nspacl, acldefault('n'::"char", n.nspowner)) AS acl
      FROM pg_namespace n WHERE n.nspname = $1
    UNION ALL
    SELECT CASE c.relkind WHEN 'S' THEN 'sequence' ELSE 'table' END, $3 || '.' || quote_ident(c.relname), c.relowner,
           coalesce(c.relacl, acldefault((CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END)::"char", c.relowner))
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
    UNION ALL
    SELECT 'table', $3 || '.' || quote_ident(c.relname), c.relowner, a.attacl
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND a.attacl IS NOT NULL AND a.attnum > 0 AND NOT a.attisdropped
  )
  SELECT DISTINCT o.kind, o.object, g.privilege_type AS privilege,
         CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE pg_get_userbyid(g.grantee) END AS grantee,
         pg_get_userbyid(o.owner) AS owner, pg_has_role($2, o.owner, 'MEMBER') AS owned
    FROM objects o CROSS JOIN LATERAL aclexplode(o.acl) g
   WHERE g.grantee = 0 OR pg_has_role($2, g.grantee, 'MEMBER')`;

const named = (g: Pick<GrantRow, 'privilege' | 'object'>): string => `${g.privilege} on ${g.object}`;
/** A role's name as SQL spells it, for a statement shown to the operator (the catalog's names need not be plain). */
const spelled = (name: string): string => (name === 'PUBLIC' ? name : `"${name.replaceAll('"', '""')}"`);

/**
 * Takes from the service role what it must not hold, each revocation named (`UPDATE on
 * "audit".access_log`). What revoking from the role cannot take away (a grant to PUBLIC or to a role
 * it is a member of, an object it owns, superuser) is refused instead, before anything is changed, so
 * that the owner step never reports a role as settled while it can still rewrite the trail. Runs
 * inside the owner step's transaction. `needed` is what the role keeps: the audit schema's
 * privileges unless told another schema's (the sign-in schema's, issue 52 item 12).
 */
export async function revokeExcess(client: ClientBase, schema: string, serviceRole: string, needed: readonly ServicePrivilege[] = SERVICE_PRIVILEGES): Promise<string[]> {
  const s = quotedSchema(schema);
  const role = quotedRole(serviceRole);
  const superuser = await client.query<{ s: boolean }>('SELECT rolsuper AS s FROM pg_roles WHERE rolname = $1', [serviceRole]);
  if (superuser.rows[0]?.s === true) {
    throw new ExcessPrivilegesError(`${serviceRole} is a superuser, which holds every privilege and passes every check: `
      + `run the service as a role that is not (ALTER ROLE ${role} NOSUPERUSER) and run again; nothing was changed.`);
  }
  const { rows } = await client.query<GrantRow>(GRANTS_SQL, [schema, serviceRole, s]);
  rows.sort((a, b) => named(a).localeCompare(named(b)) || a.grantee.localeCompare(b.grantee));
  const owned = rows.find((r) => r.owned);
  if (owned !== undefined) {
    const how = owned.owner === serviceRole ? 'owns' : `is a member of ${owned.owner}, which owns`;
    throw new ExcessPrivilegesError(`${serviceRole} ${how} ${owned.object}: an owner can disable its triggers, change or drop it; `
      + `make the owner step's role its owner (ALTER ${owned.kind.toUpperCase()} ${owned.object} OWNER TO CURRENT_USER) and run again; nothing was changed.`);
  }
  const kept = new Set(needed.map((p) => named({ privilege: p.privilege, object: `${s}${p.object}` })));
  const excess = rows.filter((r) => !kept.has(named(r)));
  const elsewhere = excess.filter((r) => r.grantee !== serviceRole);
  if (elsewhere.length > 0) {
    const through = [...new Set(elsewhere.map((r) => `${named(r)} through ${r.grantee === 'PUBLIC' ? 'PUBLIC' : `role ${r.grantee}`}`))].sort();
    const first = elsewhere[0] as GrantRow;
    throw new ExcessPrivilegesError(`${serviceRole} would keep privileges the service must not hold, which it gets through others: ${through.join('; ')}. `
      + `Revoke them there (REVOKE ${first.privilege} ON ${first.kind.toUpperCase()} ${first.object} FROM ${spelled(first.grantee)}) `
      + 'and run again; nothing was changed.');
  }
  const revoked = [...new Map(excess.map((r) => [named(r), r])).values()];
  // A table-level REVOKE takes the column grants of that privilege too.
  for (const r of revoked) await client.query(`REVOKE ${r.privilege} ON ${r.kind.toUpperCase()} ${r.object} FROM ${role}`);
  return revoked.map(named);
}

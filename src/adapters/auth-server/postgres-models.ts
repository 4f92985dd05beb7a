// The authorization server's state in PostgreSQL (docs/sign-in.md): sessions, interactions, codes, grants,
// refresh tokens and consents of oidc-provider in one table of their own schema, so any instance
// finishes a flow another began and a refresh works after every instance restarted. oidc-provider's
// adapter interface: one adapter per model, rows keyed by model and id, expiry by the database's clock.
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { GrantHolder } from '../../ports/access-token-verifier.port.js';
import { inTransaction } from '../audit-postgres/bounded-client.js';
import { applyMigrations, appliedVersion, latestVersion, type Migrated, type Migration } from '../audit-postgres/schema-migrations.js';
import { quotedRole, quotedSchema } from '../audit-postgres/sql-names.js';
import { UsedElsewhereFirst } from './raced-grants.js';
import { foundByThisResume } from './result-binding.js';

/** The schema `npm run migrate` creates for the sign-in state, unless told another. */
export const SIGN_IN_SCHEMA = 'sign_in';

/** Versioned and append-only like the audit store's: a change is a new version, never an edit of an applied one. */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.oidc_model (
        model text NOT NULL,
        id text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        uid text,
        user_code text,
        account_id text,
        expires_at timestamptz,
        PRIMARY KEY (model, id)
      );
      COMMENT ON TABLE ${s}.oidc_model IS
        'oidc-provider''s state (sessions, interactions, codes, grants, refresh tokens), shared by every instance; rows past expires_at are swept.';
      -- revokeByGrantId: every token of a grant, at once (THREATS 61).
      CREATE INDEX oidc_model_grant ON ${s}.oidc_model (grant_id) WHERE grant_id IS NOT NULL;
      CREATE INDEX oidc_model_uid ON ${s}.oidc_model (uid) WHERE uid IS NOT NULL;
      CREATE INDEX oidc_model_user_code ON ${s}.oidc_model (user_code) WHERE user_code IS NOT NULL;
      -- The connected-apps page: the grants a person holds, and theirs they act for.
      CREATE INDEX oidc_model_account ON ${s}.oidc_model (model, account_id) WHERE account_id IS NOT NULL;
      CREATE INDEX oidc_model_expires ON ${s}.oidc_model (expires_at) WHERE expires_at IS NOT NULL;`,
  },
  {
    version: 2,
    sql: (s) => `
      ALTER TABLE ${s}.oidc_model ADD COLUMN ended boolean NOT NULL DEFAULT false;
      COMMENT ON COLUMN ${s}.oidc_model.ended IS
        'An interaction or session ended: found by no one, and no save of what was read before its end stores it again.';`,
  },
];

export const SIGN_IN_LATEST_VERSION = latestVersion(MIGRATIONS);

/**
 * Brings the sign-in schema to the latest version in one transaction; instances starting together
 * queue on a lock. An up-to-date schema is only read, so a service role that may not create starts too.
 * `serviceRole` (the owner's step) is granted what the service needs: read and write the state, nothing else.
 */
export async function migrateSignIn(pool: Pool, schema = SIGN_IN_SCHEMA, serviceRole?: string): Promise<Migrated> {
  const s = quotedSchema(schema);
  const role = serviceRole === undefined ? undefined : quotedRole(serviceRole);
  const current = await signInSchemaVersion(pool, schema);
  if (current >= SIGN_IN_LATEST_VERSION && role === undefined) return { from: current, to: current };
  const client = await pool.connect();
  try {
    return await inTransaction(client, async () => {
      const migrated = await applyMigrations(client, schema, MIGRATIONS, SIGN_IN_LATEST_VERSION);
      if (role !== undefined) {
        await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${role}; GRANT SELECT ON ${s}.schema_migrations TO ${role};
          GRANT SELECT, INSERT, UPDATE, DELETE ON ${s}.oidc_model TO ${role}`);
      }
      return migrated;
    });
  } finally {
    client.release();
  }
}

/** The version the schema is at, 0 when it was never migrated (a start refuses that, naming `npm run migrate`). */
export async function signInSchemaVersion(pool: Pool, schema = SIGN_IN_SCHEMA): Promise<number> {
  return appliedVersion(pool, quotedSchema(schema));
}

type Payload = Record<string, unknown>;

/**
 * The models whose end is final. oidc-provider saves an interaction or a session it read earlier at the
 * end of a request: two finishes of one login at once, the sign-out detour of a resume, any request that
 * loaded a session while its person signed out. Deleted, a row such a save wrote back lived again: a
 * login taken up once was taken up again in a browser that planted its resume cookie (fifth review
 * helper-168, F1), a signed-out session signed in still. Their ids are random and never used twice, so
 * an ended one is kept as a mark that no save overwrites.
 */
const ENDED_FOR_GOOD: ReadonlySet<string> = new Set(['Interaction', 'Session']);

/** How long an end's mark is kept: far longer than any request that read the row before its end can take to save it back. */
const ENDED_KEPT_SECONDS = 3600;

/**
 * An interaction after the login (the picker's, consent's) that carries the login without the uid of the
 * session it was begun in: what oidc-provider's sign-out detour saves, after which oidc-provider takes it up
 * in any browser. An attacker made that happen in his own browser and planted its resume cookies in a
 * victim's (hostile review helper-169, F1); refused by a check before oidc-provider's own read, it was still
 * taken when his detour saved it between the two (re-review helper-173, F1: 5 in 54). So it is found by no
 * one, oidc-provider's own read included. The login prompt's own detour is the switch of person, taken up
 * only in the browser its login is bound to (resume-check.ts).
 */
function carriesLoginElsewhere(payload: Payload): boolean {
  const { prompt, result, lastSubmission, session } = payload as {
    prompt?: { name?: unknown }; result?: { login?: unknown }; lastSubmission?: { login?: unknown }; session?: { uid?: unknown };
  };
  return prompt?.name !== 'login' && (result?.login !== undefined || lastSubmission?.login !== undefined) && typeof session?.uid !== 'string';
}

/**
 * Whether a stored row of `model` may be read: an interaction carrying a login elsewhere is none, nor, at a
 * resume, one whose result is bound to another browser (result-binding.ts).
 */
const readable = (model: string, payload: Payload): boolean => model !== 'Interaction' || (!carriesLoginElsewhere(payload) && foundByThisResume(payload));

/**
 * Whether a key a request brought (a code, a token, a uid) holds a NUL byte: PostgreSQL's text takes none,
 * so no row has it, and asking would fail the request with a 500 (hostile review helper-196, F6).
 */
const namesNoRow = (key: string): boolean => key.includes('\u0000');

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** One model's rows (oidc-provider creates one adapter per model name). */
export class PostgresModelAdapter {
  private readonly table: string;

  /** The prepared statement of `holderOf`, named for its table: one name never stands for two texts on a connection. */
  private readonly holderStatement: string;

  constructor(private readonly pool: Pool, schema: string, private readonly model: string) {
    this.table = `${quotedSchema(schema)}.oidc_model`;
    this.holderStatement = `oidc-holder-${createHash('sha256').update(this.table).digest('hex').slice(0, 24)}`;
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} AS m (model, id, payload, grant_id, uid, user_code, account_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::int IS NULL THEN NULL ELSE now() + make_interval(secs => $8::int) END)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
         user_code = EXCLUDED.user_code, account_id = EXCLUDED.account_id, expires_at = EXCLUDED.expires_at
       WHERE NOT m.ended`,
      [this.model, id, payload, text(payload.grantId), text(payload.uid), text(payload.userCode), text(payload.accountId),
        typeof expiresIn === 'number' ? Math.ceil(expiresIn) : null],
    );
  }

  find(id: string): Promise<Payload | undefined> {
    return this.one('id = $2', id);
  }

  findByUid(uid: string): Promise<Payload | undefined> {
    return this.one('uid = $2', uid);
  }

  /** Every live row naming interaction `uid` (a login prompt loaded twice at once begins two logins). */
  findAllByUid(uid: string): Promise<Payload[]> {
    return this.live('uid = $2', uid);
  }

  findByUserCode(userCode: string): Promise<Payload | undefined> {
    return this.one('user_code = $2', userCode);
  }

  /**
   * Whose a live grant is (its person and app), undefined when none is there: what the API asks on every
   * request with a token of this server, so a prepared statement that reads two short values by the key.
   */
  async holderOf(id: string): Promise<GrantHolder | undefined> {
    if (namesNoRow(id)) return undefined;
    const { rows } = await this.pool.query<{ account_id: string | null; client_id: string | null }>({
      name: this.holderStatement, values: [this.model, id],
      text: `SELECT account_id, payload->>'clientId' AS client_id FROM ${this.table}
        WHERE model = $1 AND id = $2 AND NOT ended AND (expires_at IS NULL OR expires_at > now())`,
    });
    const { account_id: accountId, client_id: clientId } = rows[0] ?? {};
    return typeof accountId === 'string' && typeof clientId === 'string' ? { accountId, clientId } : undefined;
  }

  /**
   * Marks a code or refresh token used, if no request did: a compare-and-set, for oidc-provider finds a
   * code or token unused before it marks it, so requests racing with one each found it so. Rejects with
   * UsedElsewhereFirst for one another request marked first: a replay, whose grant ends (raced-grants.ts).
   */
  async consume(id: string): Promise<void> {
    const marked = await this.pool.query(
      `UPDATE ${this.table} SET payload = payload || jsonb_build_object('consumed', extract(epoch FROM now())::bigint)
       WHERE model = $1 AND id = $2 AND NOT ended AND NOT payload ? 'consumed'`,
      [this.model, id],
    );
    if (marked.rowCount === 1) return;
    const { rows } = await this.pool.query<{ grant_id: string | null }>(`SELECT grant_id FROM ${this.table} WHERE model = $1 AND id = $2`, [this.model, id]);
    throw new UsedElsewhereFirst(rows[0]?.grant_id ?? undefined, this.model === 'RefreshToken' ? 'refresh token' : 'authorization code');
  }

  async destroy(id: string): Promise<void> {
    if (namesNoRow(id)) return;
    if (!ENDED_FOR_GOOD.has(this.model)) {
      await this.pool.query(`DELETE FROM ${this.table} WHERE model = $1 AND id = $2`, [this.model, id]);
      return;
    }
    // Marked even when no row is there: a save of what was read before may be on its way.
    await this.pool.query(
      `INSERT INTO ${this.table} (model, id, payload, expires_at, ended) VALUES ($1, $2, '{}', now() + make_interval(secs => $3::int), true)
       ON CONFLICT (model, id) DO UPDATE SET payload = '{}', grant_id = NULL, uid = NULL, user_code = NULL, account_id = NULL,
         expires_at = EXCLUDED.expires_at, ended = true`,
      [this.model, id, ENDED_KEPT_SECONDS],
    );
  }

  /** The live rows (of the picks' model) made by `accountId` or naming one of `patientIds`: the connected-apps page's. */
  async listFor(accountId: string, patientIds: readonly string[]): Promise<Payload[]> {
    const { rows } = await this.pool.query<{ payload: Payload }>(
      `SELECT payload FROM ${this.table} WHERE model = $1 AND (account_id = $2 OR payload->>'patientId' = ANY($3::text[]))
         AND NOT ended AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, accountId, [...patientIds]],
    );
    return rows.map((row) => row.payload);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE model = $1 AND grant_id = $2`, [this.model, grantId]);
  }

  private async one(where: string, value: string): Promise<Payload | undefined> {
    return (await this.live(where, value, ' LIMIT 1'))[0];
  }

  /** The live, readable rows of the model where `where` holds of `value` ($2), at most as `limit` says. */
  private async live(where: string, value: string, limit = ''): Promise<Payload[]> {
    if (namesNoRow(value)) return [];
    const { rows } = await this.pool.query<{ payload: Payload }>(
      `SELECT payload FROM ${this.table} WHERE model = $1 AND ${where} AND NOT ended AND (expires_at IS NULL OR expires_at > now())${limit}`,
      [this.model, value],
    );
    return rows.map((row) => row.payload).filter((payload) => readable(this.model, payload));
  }
}

/** oidc-provider's `adapter` setting for a schema, and the sweep of expired rows. */
export class PostgresModels {
  constructor(private readonly pool: Pool, private readonly schema = SIGN_IN_SCHEMA) {}

  /** A factory function, as oidc-provider's `adapter` setting takes one. */
  readonly adapter = (model: string): PostgresModelAdapter => new PostgresModelAdapter(this.pool, this.schema, model);

  /** Stores a row that never expires unless one is there already (the first of instances starting together wins). */
  async insertOnce(model: string, id: string, payload: Record<string, unknown>): Promise<void> {
    await this.pool.query(`INSERT INTO ${quotedSchema(this.schema)}.oidc_model (model, id, payload) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [model, id, payload]);
  }

  /** Deletes rows past their expiry; answers how many. */
  async sweep(): Promise<number> {
    const result = await this.pool.query(`DELETE FROM ${quotedSchema(this.schema)}.oidc_model WHERE expires_at < now()`);
    return result.rowCount ?? 0;
  }
}

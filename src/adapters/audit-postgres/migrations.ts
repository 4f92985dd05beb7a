import type { ClientBase } from 'pg';
import { inTransaction } from './bounded-client.js';
import { applyMigrations, latestVersion, type Migrated, type Migration } from './schema-migrations.js';
import { quotedSchema } from './sql-names.js';

export type { Migrated } from './schema-migrations.js';

/**
 * Versioned and append-only like the data: a change to the table is a new version, never an edit
 * of an applied one, so every instance and every database end up with the same schema.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.access_log (
        id bigserial PRIMARY KEY,
        time timestamptz NOT NULL,
        request_id text NOT NULL,
        operation text NOT NULL,
        actor_issuer text,
        actor_subject text,
        actor_person_id text,
        client_id text,
        subscription text,
        patient_id text,
        delegation text,
        source_address text,
        outcome text NOT NULL CHECK (outcome IN ('allowed', 'denied', 'failed')),
        status smallint NOT NULL CHECK (status BETWEEN 100 AND 599),
        prev_hash text NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
        hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$')
      );
      COMMENT ON TABLE ${s}.access_log IS
        'One row per request that read or changed patient data, or was refused. Append-only; hash-chained in id order.';
      -- "Who looked at patient X between A and B", the question a patient may ask under the law.
      CREATE INDEX access_log_patient_time ON ${s}.access_log (patient_id, time);
      -- The row of one request, when a caller or an operator quotes its request id.
      CREATE INDEX access_log_request_id ON ${s}.access_log (request_id);
      CREATE FUNCTION ${s}.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'the audit trail is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
          USING ERRCODE = 'insufficient_privilege';
      END
      $fn$;
      -- Statement level, so it fires even for the owner, a superuser, and statements that match no row.
      CREATE TRIGGER access_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ${s}.access_log
        FOR EACH STATEMENT EXECUTE FUNCTION ${s}.refuse_change();
      REVOKE UPDATE, DELETE, TRUNCATE ON ${s}.access_log FROM PUBLIC;`,
  },
  {
    // Issue 12: a write's attempt row (stored before the EHR is asked, no status yet) beside its
    // outcome row, and the service's own request id, which a caller cannot repeat or forge.
    version: 2,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN phase text NOT NULL DEFAULT 'outcome' CHECK (phase IN ('attempt', 'outcome')),
        ADD COLUMN service_request_id text,
        ALTER COLUMN status DROP NOT NULL,
        ADD CONSTRAINT access_log_phase_status CHECK (
          CASE phase WHEN 'attempt' THEN status IS NULL AND outcome = 'allowed' ELSE status IS NOT NULL END);
      COMMENT ON TABLE ${s}.access_log IS
        'One outcome row per request that read or changed patient data, or was refused; a write also has an attempt row (phase attempt, same service_request_id) stored before the EHR was asked. Append-only; hash-chained in id order.';`,
  },
  {
    // Issue 14: how many items the release policy withheld from an answer (never which); null when none.
    version: 3,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN withheld integer CHECK (withheld > 0),
        ADD CONSTRAINT access_log_withheld_outcome CHECK (withheld IS NULL OR phase = 'outcome');
      COMMENT ON COLUMN ${s}.access_log.withheld IS
        'How many items RELEASE_POLICY_FILE withheld from the answer (never which); null when nothing was withheld.';`,
  },
  {
    // Issue 34 item 10: the caller's X-Request-Id beside the service's own id, for operators only
    // (never shown to a patient); request_id is the service's own id from this version on.
    version: 4,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN caller_request_id text CHECK (caller_request_id ~ '^[ -~]{1,128}$');
      COMMENT ON COLUMN ${s}.access_log.caller_request_id IS
        'The caller''s X-Request-Id as sent (identity numbers and tokens replaced, printable ASCII, at most 128 characters), for operators; never shown to a patient. request_id is the service''s own id from migration 4 on; older rows may hold the caller''s there.';`,
  },
  {
    // Issue 34: a row of operation refusalsNotAudited counts the refusals of one status that a minute's
    // tally left unaudited (src/http/refusal-tally.ts); null on every other row.
    version: 5,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN unaudited integer CHECK (unaudited > 0),
        ADD CONSTRAINT access_log_unaudited_outcome CHECK (unaudited IS NULL OR phase = 'outcome');
      COMMENT ON COLUMN ${s}.access_log.unaudited IS
        'On a refusalsNotAudited row: how many refusals before authentication with its status were counted in the minute ending at its time and not stored one by one; null on every other row.';`,
  },
  {
    // Issue 44 item 6: the chain keyed. A row with a key id carries an HMAC-SHA-256 under that key (a
    // key the database never holds, AUDIT_CHAIN_KEY_FILE); rows before it keep their SHA-256 and verify as they are.
    version: 6,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN key_id text CHECK (key_id ~ '^[A-Za-z0-9._-]{1,64}$');
      COMMENT ON COLUMN ${s}.access_log.key_id IS
        'The id of the chain key whose HMAC-SHA-256 is in hash (docs/operations.md#the-chain-key); null on a row written before the chain had a key, whose hash is SHA-256.';`,
  },
  {
    // Issue 53: the proxy grant a row is about (so the grantor's access log can name the grantee) and
    // the reason support staff gave for ending one. In the chain only when set (audit-row.ts), so
    // every older row keeps its hash; the CHECKs are those toStoredValues applies first.
    version: 7,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN proxy_grant_id text CHECK (proxy_grant_id ~ '^[A-Za-z0-9_-]{1,64}$'),
        ADD COLUMN reason text CHECK (char_length(reason) BETWEEN 1 AND 500 AND reason !~ '[\u0001-\u001f\u007f-\u009f]');
      COMMENT ON COLUMN ${s}.access_log.proxy_grant_id IS
        'The proxy grant a grant, acceptance, decline, revocation, lapse or expiry was about (docs/proxies.md#audited-and-shown); null on every other row.';
      COMMENT ON COLUMN ${s}.access_log.reason IS
        'Why support staff ended a proxy grant (npm run proxies -- revoke --reason), for operators and the grantor: 1 to 500 printable characters; null on every other row.';`,
  },
  {
    // What the EHR answered a write, so the trail tells the check-in or payment that was made from its
    // repeats and refusals. In the chain only when set (audit-row.ts); the CHECK was isWriteResult's until migration 11.
    version: 8,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN write_result text CHECK (write_result ~ '^(OK|INFO|ERROR)( [A-Z][A-Z_]{0,63})?$');
      COMMENT ON COLUMN ${s}.access_log.write_result IS
        'What the EHR answered a write: its ResultCode and ReasonCode, e.g. OK ARRIVAL_REGISTERED, INFO ALREADY_PAID, ERROR OUTSIDE_ARRIVAL_WINDOW; null on every other row.';`,
  },
  {
    // The other reads of the patient's data a request made besides its operation's (a FHIR search's
    // includes, a $summary's sections), so the patient's access log names each. In the chain only when
    // set (audit-row.ts); the CHECK is isAlsoRead's: 1 to 32 read names, space-separated.
    version: 9,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN also_read text CHECK (also_read ~ '^[a-z][A-Za-z]{0,62}[0-9]?( [a-z][A-Za-z]{0,62}[0-9]?){0,31}$');
      COMMENT ON COLUMN ${s}.access_log.also_read IS
        'The other reads of the patient''s data the request made and answered besides operation''s, in the order made, space-separated (getJournalNotes getDiagnoses); null on every other row.';`,
  },
  {
    // The booking a write was about, and a payment's type (hostile review helper-127, F3), where the answer shows
    // the booking is the patient's. In the chain only when set (audit-row.ts); the CHECKs are isContactId's and
    // isPaymentType's, and a type never stands without its booking.
    version: 10,
    sql: (s) => `
      ALTER TABLE ${s}.access_log
        ADD COLUMN contact_id text CHECK (contact_id ~ '^[A-Za-z0-9._-]{1,64}$'),
        ADD COLUMN payment_type text CHECK (payment_type IS NULL OR (payment_type IN ('CASH', 'CARD', 'INVOICE') AND contact_id IS NOT NULL));
      COMMENT ON COLUMN ${s}.access_log.contact_id IS
        'The booking (ContactId) an arrival or a payment was about, where the answer shows it is the patient''s; null on every other row.';
      COMMENT ON COLUMN ${s}.access_log.payment_type IS
        'With a payment''s contact_id, the payment type the request asked (CASH, CARD, INVOICE); the EHR keeps the first one paid. Null on every other row.';`,
  },
  {
    // A write the EHR was sent and did not confirm is UNKNOWN, not an answer of the EHR's: the patient's log says its
    // outcome is not known, where "failed" alone read as not paid. The CHECK is isWriteResult's. NOT VALID: every row
    // before met the narrower CHECK, so no scan of the table under its lock. No IF EXISTS: a CHECK of another name would
    // go on refusing UNKNOWN, and those outcome records would be lost, so the migration stops instead, saying so.
    version: 11,
    sql: (s) => `
      DO $named$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = '${s}.access_log'::regclass AND conname = 'access_log_write_result_check') THEN
          RAISE EXCEPTION 'audit migration 11 replaces the CHECK access_log_write_result_check on ${s}.access_log, which is not there: '
            'name the CHECK on write_result so (ALTER TABLE ... RENAME CONSTRAINT): nothing was changed, and the service tries again by itself';
        END IF;
      END $named$;
      ALTER TABLE ${s}.access_log
        DROP CONSTRAINT access_log_write_result_check,
        ADD CONSTRAINT access_log_write_result_check CHECK (write_result ~ '^((OK|INFO|ERROR)( [A-Z][A-Z_]{0,63})?|UNKNOWN)$') NOT VALID;
      COMMENT ON COLUMN ${s}.access_log.write_result IS
        'What the EHR answered a write: its ResultCode and ReasonCode, e.g. OK ARRIVAL_REGISTERED, INFO ALREADY_PAID, ERROR OUTSIDE_ARRIVAL_WINDOW; UNKNOWN on a write it was sent and did not confirm (it may have been made); null on every other row.';`,
  },
];

export const LATEST_VERSION = latestVersion(MIGRATIONS);

/** Raised instead of creating the table anew where its hash chain existed: a new chain would hide the loss. */
export class AuditTableMissingError extends Error {
  override name = 'AuditTableMissingError';
}

/** The applied version, and whether the table is there. */
async function schemaState(client: ClientBase, s: string): Promise<{ version: number; table: boolean }> {
  const { rows } = await client.query<{ migrations: boolean; has_table: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS migrations, to_regclass($2) IS NOT NULL AS has_table', [`${s}.schema_migrations`, `${s}.access_log`]);
  const table = rows[0]?.has_table === true;
  if (rows[0]?.migrations !== true) return { version: 0, table };
  const result = await client.query<{ v: number }>(`SELECT coalesce(max(version), 0)::int AS v FROM ${s}.schema_migrations`);
  return { version: result.rows[0]?.v ?? 0, table };
}

function refuseNewChain(schema: string, evidence: string): never {
  throw new AuditTableMissingError(`audit table ${schema}.access_log is missing although its hash chain existed (${evidence}): `
    + 'it was dropped or the database restored without it. No new chain is started over the loss; patient data is withheld. '
    + `Restore the table from a backup, or, to start a new chain knowingly, drop schema ${schema} and restart the service.`);
}

/**
 * Brings the schema to the latest version in one transaction. The one migration: the service runs it
 * at start and `npm run migrate` as the owner's step (docs/operations.md#the-audit-store). An up-to-date schema is only read,
 * so a service role granted no more than INSERT and SELECT starts against a schema its DBA created.
 * Instances starting together queue on an advisory lock and the later ones find nothing to do.
 * Never creates the table where a chain existed: `schema_migrations` records one, or `chainSeen`
 * says this process has written to it. `upTo` stops at an older version (tests of an upgrade).
 */
export async function migrate(client: ClientBase, schema: string, chainSeen = false, upTo = LATEST_VERSION): Promise<Migrated> {
  const s = quotedSchema(schema);
  const state = await schemaState(client, s);
  if (!state.table && state.version >= 1) refuseNewChain(schema, `${schema}.schema_migrations records version ${state.version}`);
  if (!state.table && chainSeen) refuseNewChain(schema, 'this service wrote to it since it started');
  if (state.version >= upTo) return { from: state.version, to: state.version };
  return inTransaction(client, () => applyMigrations(client, schema, MIGRATIONS, upTo));
}

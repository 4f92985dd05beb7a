/**
 * The notifications' own schema in PostgreSQL (docs/operations.md#the-notifications-schema):
 * subscriptions with their views and numbered events, the patients polled, the service's own feeds,
 * named cursors and turns, and the EHR read budget every instance shares. Migrated by the runner the
 * audit store, the sign-in state and the proxy grants use, so instances starting together queue on one
 * lock and `npm run migrate` brings it up with the others.
 *
 * Instants are `timestamptz` (microseconds, so every millisecond the port speaks in is kept exactly,
 * and an operator reading the tables sees times), written as JS Dates. Views are `json`, not `jsonb`:
 * a view keeps its records in the order they came, which `jsonb` would sort.
 */
import type { Pool } from 'pg';
import { latestVersion, migrateSchema, type Migrated, type Migration } from '../audit-postgres/schema-migrations.js';
import type { ServicePrivilege } from '../audit-postgres/service-privileges.js';

/** The schema `npm run migrate` creates for notifications, unless told another (`--notifications-schema`). */
export const NOTIFICATIONS_SCHEMA = 'notifications';

/** The one row of the EHR read budget (postgres-poll-budget.ts). */
export const BUDGET_ROW = 'ehr-reads';

/** Versioned and append-only like the audit store's: a change is a new version, never an edit of an applied one. */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.subscriptions (
        id text PRIMARY KEY,
        issuer text NOT NULL, subject text NOT NULL, person_id text NOT NULL, smart_patient text, client_id text NOT NULL, grant_id text,
        patient text NOT NULL,
        topic text NOT NULL,
        channel json NOT NULL,
        end_at timestamptz,
        reason text,
        status text NOT NULL CHECK (status IN ('requested', 'active', 'error', 'off')),
        end_reason text,
        created timestamptz NOT NULL,
        changed timestamptz NOT NULL,
        event_count integer NOT NULL CHECK (event_count >= 0),
        delivered_through integer NOT NULL CHECK (delivered_through >= 0),
        last_sent timestamptz,
        failing_since timestamptz,
        next_attempt timestamptz,
        failures integer NOT NULL,
        feed_position bigint,
        due timestamptz,
        lease_owner text,
        lease_until timestamptz
      );
      COMMENT ON TABLE ${s}.subscriptions IS 'FHIR Subscriptions (R5 Backport on R4): whose, which patient and topic, where notifications go, how far they got; due and lease order the delivery work of every instance.';
      -- liveFor, the app's limit per patient, and who follows a feed: the live ones of a patient.
      CREATE INDEX subscriptions_live_patient ON ${s}.subscriptions (patient, created, id) WHERE status IN ('requested', 'active');
      CREATE INDEX subscriptions_subscriber ON ${s}.subscriptions (person_id, client_id, created, id);
      -- claimDue: the most overdue first.
      CREATE INDEX subscriptions_due ON ${s}.subscriptions (due, created, id) WHERE due IS NOT NULL;
      CREATE TABLE ${s}.subscription_views (
        subscription_id text NOT NULL REFERENCES ${s}.subscriptions (id) ON DELETE CASCADE,
        read text NOT NULL,
        view json NOT NULL,
        PRIMARY KEY (subscription_id, read)
      );
      COMMENT ON TABLE ${s}.subscription_views IS 'What each subscriber was last shown of a record topic, per read: record references and their digests, never content.';
      CREATE TABLE ${s}.subscription_events (
        subscription_id text NOT NULL REFERENCES ${s}.subscriptions (id) ON DELETE CASCADE,
        number integer NOT NULL CHECK (number >= 1),
        at timestamptz NOT NULL,
        focus text NOT NULL,
        change text NOT NULL CHECK (change IN ('created', 'updated', 'deleted')),
        read text,
        PRIMARY KEY (subscription_id, number)
      );
      COMMENT ON TABLE ${s}.subscription_events IS 'Events numbered per subscription without a gap, kept SUBSCRIPTION_EVENT_DAYS for $events.';
      CREATE INDEX subscription_events_at ON ${s}.subscription_events (at);
      CREATE TABLE ${s}.poll_targets (
        patient text PRIMARY KEY,
        due timestamptz NOT NULL,
        lease_owner text,
        lease_until timestamptz,
        soon timestamptz
      );
      COMMENT ON COLUMN ${s}.poll_targets.soon IS 'A write changed the patient''s records while a poll held the lease: the next poll is due then at the latest.';
      COMMENT ON TABLE ${s}.poll_targets IS 'Each patient a live subscription follows the records of, when their next poll is due, and which instance holds it.';
      CREATE INDEX poll_targets_due ON ${s}.poll_targets (due);
      CREATE TABLE ${s}.feed_entries (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source_id text NOT NULL UNIQUE,
        feed text NOT NULL CHECK (feed IN ('access', 'proxy')),
        patient text NOT NULL,
        focus text NOT NULL,
        at timestamptz NOT NULL,
        actor text
      );
      COMMENT ON TABLE ${s}.feed_entries IS 'The service''s own feeds (new access-log entries, grant events) of followed patients, in commit order, each source once.';
      CREATE INDEX feed_entries_patient ON ${s}.feed_entries (patient, feed, seq);
      CREATE INDEX feed_entries_at ON ${s}.feed_entries (at);
      CREATE TABLE ${s}.cursors (name text PRIMARY KEY, value text NOT NULL);
      COMMENT ON TABLE ${s}.cursors IS 'How far the service has read each feed''s source (the audit trail, the grant events).';
      CREATE TABLE ${s}.turns (name text PRIMARY KEY, owner text NOT NULL, until timestamptz NOT NULL);
      COMMENT ON TABLE ${s}.turns IS 'Which instance holds a named turn (following the feeds) and until when, by the database''s clock; renewed while held.';
      CREATE TABLE ${s}.poll_budget (name text PRIMARY KEY, tat double precision NOT NULL);
      COMMENT ON TABLE ${s}.poll_budget IS 'SUBSCRIPTION_EHR_READS_PER_SECOND across every instance: the time (epoch ms) up to which EHR reads are reserved.';
      INSERT INTO ${s}.poll_budget (name, tat) VALUES ('${BUDGET_ROW}', 0);`,
  },
  {
    version: 2,
    // NULL on a subscription kept before: right-to-read.ts keeps it for the patient alone.
    sql: (s) => `
      ALTER TABLE ${s}.subscriptions ADD COLUMN made_under json;
      COMMENT ON COLUMN ${s}.subscriptions.made_under IS 'The right the subscription was made under (its basis, a proxy''s grant ids): it ends when that right does.';`,
  },
  {
    version: 3,
    // NULL on every row but one whose end an instance is writing: an instance of version 2 leaves it as it is.
    sql: (s) => `
      ALTER TABLE ${s}.subscriptions ADD COLUMN ending json;
      COMMENT ON COLUMN ${s}.subscriptions.ending IS 'The end an instance claimed and is writing (its claim id, until when): another instance leaves the subscription to it until then, so one end writes one audit record.';`,
  },
  {
    version: 4,
    // Data only: a live subscription an instance of version 3 left with an end begun and no due time (its claimer
    // stopped, or gave it back, with nothing else to do) is due when that claim lapsed, so a turn takes the end up.
    sql: (s) => `
      UPDATE ${s}.subscriptions SET due = to_timestamp((ending->>'untilMs')::double precision / 1000)
        WHERE ending IS NOT NULL AND due IS NULL AND status IN ('requested', 'active');
      COMMENT ON COLUMN ${s}.subscriptions.ending IS 'An end begun and not yet written: the claim of the instance writing it (its id, until when; another instance leaves the subscription to it until then, so one end writes one audit record), or one given back to retry (retryAtMs). Work of its own: due counts it.';`,
  },
  {
    version: 5,
    // claimDue's second claim: a live subscription an older instance left (during a rollout, still leaves) with an end
    // begun and no due time is due when that claim lapses (postgres-subscription-work.ts), found by this index.
    sql: (s) => `
      CREATE INDEX IF NOT EXISTS subscriptions_ends_left ON ${s}.subscriptions (created, id) WHERE due IS NULL AND ending IS NOT NULL;
      COMMENT ON COLUMN ${s}.subscriptions.ending IS 'An end begun and not yet written: the claim of the instance writing it (its id, until when; another instance leaves the subscription to it until then, so one end writes one audit record), or one given back to retry (retryAtMs). Work of its own: due counts it, and one with no due is claimed once untilMs passes.';`,
  },
  {
    version: 6,
    // NULL is `created`: what every entry was told as before, and what an instance of version 5 still keeps.
    sql: (s) => `
      ALTER TABLE ${s}.feed_entries ADD COLUMN change text CHECK (change IN ('updated', 'deleted'));
      COMMENT ON COLUMN ${s}.feed_entries.change IS 'What became of the focus, as a notification tells it: updated for a grant accepted, declined or ended; NULL for created (a new access-log entry, a new grant).';`,
  },
];

export const NOTIFICATIONS_LATEST_VERSION = latestVersion(MIGRATIONS);

const table = (object: string, privileges: readonly string[]): ServicePrivilege[] =>
  privileges.map((privilege) => ({ kind: 'table', privilege, object: `.${object}` }));

/**
 * What the service role holds on the schema and no more: read the version; keep, change and forget
 * subscriptions, their views and poll targets; add and forget events and feed entries (never change
 * one); keep cursors, turns and the budget. No TRUNCATE, CREATE, REFERENCES or TRIGGER.
 */
export const NOTIFICATIONS_PRIVILEGES: readonly ServicePrivilege[] = [
  { kind: 'schema', privilege: 'USAGE', object: '' },
  ...table('schema_migrations', ['SELECT']),
  ...['subscriptions', 'subscription_views', 'poll_targets'].flatMap((t) => table(t, ['SELECT', 'INSERT', 'UPDATE', 'DELETE'])),
  ...['subscription_events', 'feed_entries'].flatMap((t) => table(t, ['SELECT', 'INSERT', 'DELETE'])),
  ...['cursors', 'turns'].flatMap((t) => table(t, ['SELECT', 'INSERT', 'UPDATE'])),
  ...table('poll_budget', ['SELECT', 'UPDATE']),
];

/** Brings the schema to the latest version (migrateSchema); `serviceRole` (the owner's step) is granted NOTIFICATIONS_PRIVILEGES. */
export const migrateNotifications = (pool: Pool, schema = NOTIFICATIONS_SCHEMA, serviceRole?: string): Promise<Migrated> =>
  migrateSchema(pool, schema, MIGRATIONS, NOTIFICATIONS_PRIVILEGES, serviceRole);

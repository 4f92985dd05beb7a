/**
 * The proxy grants' own schema in PostgreSQL (docs/contract.md §11 "Kept"): grants and their ordered
 * events, migrated by the runner the audit store and the sign-in state use, so instances starting
 * together queue on one lock and `npm run migrate` brings it up with the others.
 *
 * Instants are `timestamptz`: it holds microseconds, so every millisecond the port speaks in is kept
 * exactly (validTo is inclusive to the millisecond), and an operator reading the tables sees times.
 * They are written as JS Dates (exact milliseconds), never as floating-point seconds.
 */
import type { Pool } from 'pg';
import { latestVersion, migrateSchema, type Migrated, type Migration } from '../audit-postgres/schema-migrations.js';
import type { ServicePrivilege } from '../audit-postgres/service-privileges.js';

/** The schema `npm run migrate` creates for the grants, unless told another (`--proxy-schema`). */
export const PROXY_GRANTS_SCHEMA = 'proxy_grants';

/** Versioned and append-only like the audit store's: a change is a new version, never an edit of an applied one. */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: (s) => `
      CREATE TABLE ${s}.grants (
        id text PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('pending', 'active', 'declined', 'revoked', 'expired', 'lapsed')),
        grantor text NOT NULL,
        grantor_name text,
        grantee text NOT NULL,
        grantee_name text,
        categories text[] NOT NULL,
        valid_from timestamptz NOT NULL,
        valid_to timestamptz,
        purpose text,
        created timestamptz NOT NULL,
        changed timestamptz NOT NULL,
        ended_by text CHECK (ended_by IN ('grantor', 'grantee', 'support'))
      );
      COMMENT ON TABLE ${s}.grants IS 'Proxy grants (EHDS Art. 4(2)): who may read whose record, what, and when; shared by every instance.';
      CREATE INDEX grants_grantor ON ${s}.grants (grantor, created);
      CREATE INDEX grants_grantee ON ${s}.grants (grantee, created);
      -- Every delegated request asks for the active grants its caller received.
      CREATE INDEX grants_active_grantee ON ${s}.grants (grantee) WHERE state = 'active';
      -- The lapse and expiry sweep reads only the open ones.
      CREATE INDEX grants_open ON ${s}.grants (created) WHERE state IN ('pending', 'active');
      CREATE TABLE ${s}.grant_events (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        grant_id text NOT NULL REFERENCES ${s}.grants (id),
        kind text NOT NULL CHECK (kind IN ('granted', 'accepted', 'declined', 'revoked', 'expired', 'lapsed')),
        at timestamptz NOT NULL,
        by text NOT NULL CHECK (by IN ('grantor', 'grantee', 'support', 'service')),
        grantor text NOT NULL,
        grantee text NOT NULL
      );
      COMMENT ON TABLE ${s}.grant_events IS 'Each change of a grant, in the order it was committed (notifications follow them).';`,
  },
];

export const PROXY_GRANTS_LATEST_VERSION = latestVersion(MIGRATIONS);

/**
 * What the service role holds on the schema: read the version, read, add and change grants and add
 * events. No DELETE or TRUNCATE (a grant's history is kept), no CREATE, REFERENCES or TRIGGER.
 */
export const PROXY_GRANTS_PRIVILEGES: readonly ServicePrivilege[] = [
  { kind: 'schema', privilege: 'USAGE', object: '' },
  { kind: 'table', privilege: 'SELECT', object: '.schema_migrations' },
  ...['SELECT', 'INSERT', 'UPDATE'].flatMap((privilege) => ['.grants', '.grant_events'].map((object) => ({ kind: 'table' as const, privilege, object }))),
];

/** Brings the schema to the latest version (migrateSchema); `serviceRole` (the owner's step) is granted PROXY_GRANTS_PRIVILEGES. */
export const migrateProxyGrants = (pool: Pool, schema = PROXY_GRANTS_SCHEMA, serviceRole?: string): Promise<Migrated> =>
  migrateSchema(pool, schema, MIGRATIONS, PROXY_GRANTS_PRIVILEGES, serviceRole);

import type pg from 'pg';
import { LATEST_VERSION, migrate } from '../../../src/adapters/audit-postgres/migrations.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';

export const PATIENT = '191212121212';
export const GUARDIAN = '198112189876';
export const CHILD = '201701012393';

/** schema_migrations' rows once every migration is applied, each once. */
export const EVERY_VERSION = Array.from({ length: LATEST_VERSION }, (_, i) => ({ version: i + 1 }));

/** A record with every field set; `n` makes the request id and the second of the time unique. */
export function fullRecord(n: number, overrides: Partial<OutcomeRecord> = {}): OutcomeRecord {
  return {
    time: new Date(Date.UTC(2026, 10, 21, 9, 0, 0, 0) + n * 1000 + 123).toISOString(),
    requestId: `req-${n}`,
    operation: 'getJournalNotes',
    actor: { issuer: 'https://idp.example.test', subject: 'märta', personId: GUARDIAN },
    clientId: 'patient-app',
    subscription: 'test',
    patientId: CHILD,
    delegation: 'guardian',
    sourceAddress: '127.0.0.1',
    outcome: 'allowed',
    status: 200,
    ...overrides,
  };
}

/** A refusal before any token was verified: only the fields that are always known. */
export function minimalRecord(n: number): OutcomeRecord {
  return {
    time: new Date(Date.UTC(2026, 10, 21, 9, 0, 0, 0) + n * 1000).toISOString(),
    requestId: `min-${n}`, operation: 'getMedications', sourceAddress: '::1', outcome: 'denied', status: 401,
  };
}

/** `schema` migrated up to `version` only, as a service of that version left it (tests of an upgrade). */
export async function migratedTo(admin: pg.Pool, schema: string, version: number): Promise<void> {
  const client = await admin.connect();
  try {
    await migrate(client, schema, false, version);
  } finally {
    client.release();
  }
}

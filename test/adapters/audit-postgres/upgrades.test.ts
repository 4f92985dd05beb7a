import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLUMNS, GENESIS, recordOf, rowHash, SELECT_COLUMNS, toStoredValues, type SelectedRow,
} from '../../../src/adapters/audit-postgres/audit-row.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { fullRecord, migratedTo } from './records.js';

const available = await databaseAvailable();

/**
 * Each migration that adds a column to a table already holding a chain keeps the older rows verifying and
 * puts the new column in the chain: migration 3 (issue 14, the release policy's withheld count) and
 * migration 4 (issue 34 item 10, the caller's X-Request-Id beside the service's own id, docs/contract.md#request-ids).
 */
describe.skipIf(!available)('PostgreSQL audit trail upgrades: migrations 3 and 4 over older rows', () => {
  let admin: pg.Pool;
  const schema = freshSchema();
  const callerSchema = freshSchema();
  const trails: PostgresAuditTrail[] = [];

  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    await dropSchema(admin, schema);
    await dropSchema(admin, callerSchema);
    await admin.end();
  });

  it('issue 14 item 2: keeps version-2 rows verifying, stores how many items were withheld in the chain, and a changed count breaks it', async () => {
    await migratedTo(admin, schema, 2);
    // A row as a version-2 service wrote it.
    const old = toStoredValues(fullRecord(1, { serviceRequestId: 'svc-1' }));
    const oldHash = rowHash(old, GENESIS);
    await admin.query(`INSERT INTO "${schema}".access_log (${COLUMNS.join(', ')}, phase, service_request_id, prev_hash, hash)
      VALUES (${[...COLUMNS, 'a', 'b', 'p', 'h'].map((_, i) => `$${i + 1}`).join(', ')})`,
    [old.time, ...old.text, old.status, old.phase, old.serviceRequestId, GENESIS, oldHash]);

    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    trails.push(trail);
    const filtered = fullRecord(2, { serviceRequestId: 'svc-2', withheld: 3 });
    const whole = fullRecord(3, { serviceRequestId: 'svc-3' });
    await trail.append(filtered);
    await trail.append(whole);

    expect(await verifyPostgresChain(admin, schema)).toBe(0);
    const { rows } = await admin.query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${schema}".access_log ORDER BY id`);
    expect(rows.map((r) => r.withheld)).toEqual([null, 3, null]);
    expect(rows.map(recordOf)).toEqual([fullRecord(1, { serviceRequestId: 'svc-1' }), filtered, whole]);

    // The table refuses a count of nothing and a count on an attempt row.
    const insert = (withheld: number, phase: string, status: number | null) => admin.query(
      `INSERT INTO "${schema}".access_log (time, request_id, operation, outcome, status, phase, withheld, prev_hash, hash)
        VALUES (now(), 'x', 'y', 'allowed', $1, $2, $3, $4, $4)`, [status, phase, withheld, GENESIS]);
    await expect(insert(0, 'outcome', 200)).rejects.toMatchObject({ code: '23514' });
    await expect(insert(1, 'attempt', null)).rejects.toMatchObject({ code: '23514' });

    await admin.query(`ALTER TABLE "${schema}".access_log DISABLE TRIGGER access_log_append_only`);
    await admin.query(`UPDATE "${schema}".access_log SET withheld = 1 WHERE withheld = 3`);
    await admin.query(`ALTER TABLE "${schema}".access_log ENABLE TRIGGER access_log_append_only`);
    expect(await verifyPostgresChain(admin, schema)).toBe(Number(rows[1]?.id));
  });

  it('issue 14 item 2: refuses a withheld count that is not a positive whole number before it reaches the table', () => {
    for (const withheld of [0, -1, 1.5, Number.NaN]) {
      expect(() => toStoredValues(fullRecord(1, { withheld }))).toThrow(/withheld count is invalid/);
    }
    expect(toStoredValues(fullRecord(1, { withheld: 2 })).withheld).toBe(2);
  });

  it('issue 34 item 10: keeps version-3 rows verifying, stores the caller\'s id in the chain, and a changed one breaks it', async () => {
    await migratedTo(admin, callerSchema, 3);
    // Rows as a version-3 service wrote them: one plain, one with a withheld count.
    const plain = toStoredValues(fullRecord(1, { serviceRequestId: 'svc-1' }));
    const counted = toStoredValues(fullRecord(2, { serviceRequestId: 'svc-2', withheld: 2 }));
    const plainHash = rowHash(plain, GENESIS);
    const countedHash = rowHash(counted, plainHash);
    for (const [values, prev, hash] of [[plain, GENESIS, plainHash], [counted, plainHash, countedHash]] as const) {
      await admin.query(`INSERT INTO "${callerSchema}".access_log (${COLUMNS.join(', ')}, phase, service_request_id, withheld, prev_hash, hash)
        VALUES (${[...COLUMNS, 'a', 'b', 'c', 'p', 'h'].map((_, i) => `$${i + 1}`).join(', ')})`,
      [values.time, ...values.text, values.status, values.phase, values.serviceRequestId, values.withheld, prev, hash]);
    }

    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema: callerSchema, onWarning: () => undefined });
    trails.push(trail);
    const called = fullRecord(3, { requestId: 'svc-3', serviceRequestId: 'svc-3', callerRequestId: 'Ring-1177.se-helpdesk-[REDACTED]-nu' });
    const both = fullRecord(4, { requestId: 'svc-4', serviceRequestId: 'svc-4', callerRequestId: 'trace-4', withheld: 1 });
    const none = fullRecord(5, { requestId: 'svc-5', serviceRequestId: 'svc-5' });
    await trail.append(called);
    await trail.append(both);
    await trail.append(none);

    expect(await verifyPostgresChain(admin, callerSchema)).toBe(0);
    const { rows } = await admin.query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${callerSchema}".access_log ORDER BY id`);
    expect(rows.map((r) => r.caller_request_id)).toEqual([null, null, 'Ring-1177.se-helpdesk-[REDACTED]-nu', 'trace-4', null]);
    expect(rows.map(recordOf)).toEqual([
      fullRecord(1, { serviceRequestId: 'svc-1' }), fullRecord(2, { serviceRequestId: 'svc-2', withheld: 2 }), called, both, none,
    ]);

    // The table refuses a caller id longer than 128 characters or holding a control character.
    const insert = (caller: string) => admin.query(
      `INSERT INTO "${callerSchema}".access_log (time, request_id, operation, outcome, status, caller_request_id, prev_hash, hash)
        VALUES (now(), 'x', 'y', 'allowed', 200, $1, $2, $2)`, [caller, GENESIS]);
    await expect(insert('a'.repeat(129))).rejects.toMatchObject({ code: '23514' });
    await expect(insert('a\nb')).rejects.toMatchObject({ code: '23514' });

    await admin.query(`ALTER TABLE "${callerSchema}".access_log DISABLE TRIGGER access_log_append_only`);
    await admin.query(`UPDATE "${callerSchema}".access_log SET caller_request_id = 'forged' WHERE caller_request_id = 'trace-4'`);
    await admin.query(`ALTER TABLE "${callerSchema}".access_log ENABLE TRIGGER access_log_append_only`);
    expect(await verifyPostgresChain(admin, callerSchema)).toBe(Number(rows[3]?.id));
  });

  it('issue 34 item 10: refuses a caller id the HTTP layer would never pass before it reaches the table', () => {
    for (const callerRequestId of ['a'.repeat(129), 'a\r\nb', 'caf\u00e9', '']) {
      expect(() => toStoredValues(fullRecord(1, { callerRequestId }))).toThrow(/callerRequestId cannot be stored/);
    }
    expect(toStoredValues(fullRecord(1, { callerRequestId: 'trace-1' })).callerRequestId).toBe('trace-1');
  });
});

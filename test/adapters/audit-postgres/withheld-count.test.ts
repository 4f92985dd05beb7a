import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLUMNS, GENESIS, recordOf, rowHash, SELECT_COLUMNS, toStoredValues, type SelectedRow,
} from '../../../src/adapters/audit-postgres/audit-row.js';
import { migrate } from '../../../src/adapters/audit-postgres/migrations.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { fullRecord } from './records.js';

const available = await databaseAvailable();

describe.skipIf(!available)('PostgreSQL audit trail: the release policy\'s withheld count (issue 14, migration 3)', () => {
  let admin: pg.Pool;
  const schema = freshSchema();
  const trails: PostgresAuditTrail[] = [];

  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('issue 14 item 2: keeps version-2 rows verifying, stores how many items were withheld in the chain, and a changed count breaks it', async () => {
    const client = await admin.connect();
    try {
      await migrate(client, schema, false, 2);
    } finally {
      client.release();
    }
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
});

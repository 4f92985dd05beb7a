import { describe, expect, it } from 'vitest';
import {
  COLUMNS, GENESIS, recordOf, rowHash, SELECT_COLUMNS, toStoredValues, type SelectedRow,
} from '../../../src/adapters/audit-postgres/audit-row.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { databaseAvailable } from '../../support/database.js';
import { columnSchema } from './later-columns.js';
import { fullRecord } from './records.js';

const available = await databaseAvailable();

/** What src/http/refusal-tally.ts audits at a window's end for refusals of kinds past those it tallies. */
const countRecord = (unaudited: number): OutcomeRecord => ({
  time: '2026-11-21T09:01:00.000Z', requestId: '0b7d1c9e-0000-4000-8000-000000000001', serviceRequestId: '0b7d1c9e-0000-4000-8000-000000000001',
  operation: 'refusalsNotAudited', sourceAddress: '', outcome: 'denied', status: 401, unaudited,
});

describe.skipIf(!available)('PostgreSQL audit trail: the count of refusals not audited (issue 34 item 11c, migration 5)', () => {
  const db = columnSchema();

  it('issue 34 item 11c: keeps version-4 rows verifying, stores the count in the chain, and a changed count breaks it', async () => {
    await db.migrateTo(4);
    // A row as a version-4 service wrote it, with a withheld count.
    const old = toStoredValues(fullRecord(1, { serviceRequestId: 'svc-1', withheld: 2 }));
    await db.admin().query(`INSERT INTO "${db.schema}".access_log (${COLUMNS.join(', ')}, phase, service_request_id, withheld, prev_hash, hash)
      VALUES (${[...COLUMNS, 'a', 'b', 'c', 'p', 'h'].map((_, i) => `$${i + 1}`).join(', ')})`,
    [old.time, ...old.text, old.status, old.phase, old.serviceRequestId, old.withheld, GENESIS, rowHash(old, GENESIS)]);

    const trail = db.trail();
    const counted = countRecord(250);
    const next = fullRecord(3, { serviceRequestId: 'svc-3' });
    await trail.append(counted);
    await trail.append(next);

    expect(await verifyPostgresChain(db.admin(), db.schema)).toBe(0);
    const { rows } = await db.admin().query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${db.schema}".access_log ORDER BY id`);
    expect(rows.map((r) => r.unaudited)).toEqual([null, 250, null]);
    expect(rows.map(recordOf)).toEqual([fullRecord(1, { serviceRequestId: 'svc-1', withheld: 2 }), counted, next]);

    // The table refuses a count of nothing and a count on an attempt row.
    await expect(db.insertWith('unaudited', 0, 'outcome', 401)).rejects.toMatchObject({ code: '23514' });
    await expect(db.insertWith('unaudited', 1, 'attempt', null)).rejects.toMatchObject({ code: '23514' });

    await db.tamper(`UPDATE "${db.schema}".access_log SET unaudited = 25 WHERE unaudited = 250`);
    expect(await verifyPostgresChain(db.admin(), db.schema)).toBe(Number(rows[1]?.id));
  });

  it('issue 34 item 11c: refuses a count that is not a positive whole number, and a count hashes apart from a withheld count', () => {
    for (const unaudited of [0, -1, 1.5, Number.NaN]) {
      expect(() => toStoredValues(countRecord(unaudited))).toThrow(/unaudited count is invalid/);
    }
    const values = toStoredValues(countRecord(5));
    expect(values.unaudited).toBe(5);
    expect(rowHash(values, GENESIS)).not.toBe(rowHash({ ...values, unaudited: null, withheld: 5 }, GENESIS));
  });
});

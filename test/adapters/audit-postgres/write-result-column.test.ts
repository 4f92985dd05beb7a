/**
 * Migration 8 (hostile review helper-85, F1): what the EHR answered a write, `OK ARRIVAL_REGISTERED`,
 * `INFO ALREADY_PAID`, `ERROR OUTSIDE_ARRIVAL_WINDOW`, on its outcome row. Rows written before it,
 * unkeyed and keyed, keep their hash; a row with it verifies; a changed answer breaks the chain.
 */
import { describe, expect, it } from 'vitest';
import { macHex, unkeyedHex, type ChainKey } from '../../../src/adapters/audit-chain/chain-keys.js';
import { GENESIS, recordOf, rowHash, rowMac, SELECT_COLUMNS, toStoredValues, type SelectedRow, type StoredValues } from '../../../src/adapters/audit-postgres/audit-row.js';
import { insertChained } from '../../../src/adapters/audit-postgres/insert-chained.js';
import { LATEST_VERSION } from '../../../src/adapters/audit-postgres/migrations.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { databaseAvailable } from '../../support/database.js';
import { KEYS, k1 } from '../audit-query/keyed-trails.js';
import { columnSchema, insertChainedAsOlder, type OlderForms } from './later-columns.js';
import { fullRecord, minimalRecord } from './records.js';

const available = await databaseAvailable();
const GRANT = '3f2a9c0d5b7e41a8b6c2d9e0f1a2b3c4';

/** An arrival's outcome as the write route stores it. */
const arrival = (n: number, writeResult: string): OutcomeRecord => fullRecord(n, { operation: 'changeAppointment', serviceRequestId: `svc-${n}`, writeResult });

/** Rows of every shape a version-7 service wrote, a grant's and a support reason's included. */
const OLDER: OutcomeRecord[] = [
  minimalRecord(1), fullRecord(2), fullRecord(3, { serviceRequestId: 'svc-3', withheld: 2 }), fullRecord(4, { serviceRequestId: 'svc-4', callerRequestId: 'abc' }),
  { ...minimalRecord(5), operation: 'refusalsNotAudited', unaudited: 7 }, fullRecord(6, { operation: 'grantProxy', proxyGrantId: GRANT }),
  { ...minimalRecord(7), operation: 'revokeProxy', proxyGrantId: GRANT, reason: 'asked by phone' },
];

/** The two canonical forms as migration 7 left them, before migration 8: what every older row's hash was made from. */
function hashBefore8(v: StoredValues, prev: string): string {
  const newer = [v.callerRequestId, v.unaudited, v.proxyGrantId, v.reason];
  while (newer.length > 0 && newer[newer.length - 1] === null) newer.pop();
  const withheld = v.withheld === null ? [] : [v.withheld];
  const later = newer.length > 0 ? [v.phase, v.serviceRequestId, v.withheld, ...newer]
    : v.phase === 'outcome' && v.serviceRequestId === null && v.withheld === null ? [] : [v.phase, v.serviceRequestId, ...withheld];
  return unkeyedHex(JSON.stringify([v.time, ...v.text, v.status, ...later, prev]));
}
function macBefore8(v: StoredValues, prev: string, key: ChainKey): string {
  const grant = v.reason !== null ? [v.proxyGrantId, v.reason] : v.proxyGrantId === null ? [] : [v.proxyGrantId];
  return macHex(key, JSON.stringify([v.time, ...v.text, v.status, v.phase, v.serviceRequestId, v.withheld, v.callerRequestId, v.unaudited, ...grant, key.id, prev]));
}

const BEFORE_8: OlderForms = { hash: hashBefore8, mac: macBefore8 };
/** What migration 7 added, which a version-7 service already wrote. */
const VERSION_7_COLUMNS = ['proxy_grant_id', 'reason'] as const;

describe('audit rows: the canonical forms of migration 8', () => {
  it('every row without a write\'s answer keeps exactly the hash and the MAC it had before migration 8', () => {
    let prev = GENESIS;
    for (const record of OLDER) {
      const values = toStoredValues(record);
      expect(values.writeResult).toBeNull();
      expect(rowHash(values, prev)).toBe(hashBefore8(values, prev));
      expect(rowMac(values, prev, k1)).toBe(macBefore8(values, prev, k1));
      prev = rowHash(values, prev);
    }
  });

  it('a write\'s answer is in both forms, and no row with it shares a form with another', () => {
    const values = toStoredValues(arrival(8, 'OK ARRIVAL_REGISTERED'));
    const variants = [values, { ...values, writeResult: 'INFO ALREADY_ARRIVED' }, { ...values, writeResult: null }, { ...values, reason: 'OK ARRIVAL_REGISTERED', writeResult: null },
      { ...values, proxyGrantId: GRANT }, { ...values, unaudited: 1 }];
    expect(new Set(variants.map((v) => rowHash(v, GENESIS))).size).toBe(variants.length);
    expect(new Set(variants.map((v) => rowMac(v, GENESIS, k1))).size).toBe(variants.length);
  });

  it('refuses an answer that is not a result code and a reason code, and one on an attempt', () => {
    // No digits (hostile review helper-87, F3: `OK P191212121212` was stored, an identity number from the EHR's code).
    for (const writeResult of ['', 'DONE ARRIVAL_REGISTERED', 'OK arrival', 'OK ARRIVAL REGISTERED', `OK ${'A'.repeat(65)}`, 'OK X\n', 'OK P191212121212', 'ERROR PATIENT_191212121212', 'OK ']) {
      expect(() => toStoredValues(arrival(1, writeResult)), JSON.stringify(writeResult)).toThrow(/writeResult cannot be stored/);
    }
    for (const writeResult of ['UNKNOWN ARRIVAL_REGISTERED', 'unknown', 'OK UNKNOWN ', 'UNKNOWN\n']) {
      expect(() => toStoredValues(arrival(1, writeResult)), JSON.stringify(writeResult)).toThrow(/writeResult cannot be stored/);
    }
    expect(toStoredValues(arrival(1, 'ERROR OUTSIDE_ARRIVAL_WINDOW')).writeResult).toBe('ERROR OUTSIDE_ARRIVAL_WINDOW');
    // A write sent and not confirmed (migration 11).
    expect(toStoredValues(arrival(1, 'UNKNOWN')).writeResult).toBe('UNKNOWN');
    // The ResultCode alone, where the EHR's reason is none a record may hold.
    expect(toStoredValues(arrival(1, 'ERROR')).writeResult).toBe('ERROR');
  });
});

describe.skipIf(!available)('PostgreSQL audit trail: a write\'s answer in the chain (migration 8)', () => {
  const db = columnSchema();

  it('keeps version-7 rows verifying, stores the answer in the chain, reads it back, and a change of it breaks the chain', async () => {
    await db.migrateTo(7);
    const client = await db.admin().connect();
    try {
      // As a version-7 service wrote them: unkeyed, then under the chain key.
      await insertChainedAsOlder(client, db.schema, OLDER.slice(0, 2), undefined, BEFORE_8, VERSION_7_COLUMNS);
      await insertChainedAsOlder(client, db.schema, OLDER.slice(2), k1, BEFORE_8, VERSION_7_COLUMNS);
      await db.migrateTo(LATEST_VERSION);
      expect(await verifyPostgresChain(client, db.schema, KEYS.byId)).toBe(0);
      await insertChained(client, db.schema, [arrival(8, 'OK ARRIVAL_REGISTERED'), arrival(9, 'INFO ALREADY_ARRIVED')].map(toStoredValues), k1);
    } finally {
      client.release();
    }
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(0);
    const { rows } = await db.admin().query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${db.schema}".access_log ORDER BY id`);
    expect(rows.map((r) => r.write_result)).toEqual([...OLDER.map(() => null), 'OK ARRIVAL_REGISTERED', 'INFO ALREADY_ARRIVED']);
    expect(rows.slice(7).map(recordOf)).toEqual([arrival(8, 'OK ARRIVAL_REGISTERED'), arrival(9, 'INFO ALREADY_ARRIVED')]);

    const bare = `INSERT INTO "${db.schema}".access_log (time, request_id, operation, outcome, status, write_result, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'allowed', 200, $1, $2, $2)`;
    for (const bad of ['', 'ok ARRIVAL', 'OK X Y', 'OK P191212121212']) await expect(db.admin().query(bare, [bad, GENESIS]), bad).rejects.toMatchObject({ code: '23514' });

    const eighth = rows[7]?.id ?? '';
    await db.tamper(`UPDATE "${db.schema}".access_log SET write_result = 'INFO ALREADY_ARRIVED' WHERE id = ${eighth}`);
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(Number(eighth));
  });
});

describe.skipIf(!available)('PostgreSQL audit trail: a write whose outcome is unknown (migration 11)', () => {
  const db = columnSchema();

  it('takes UNKNOWN only from migration 11 on, in the chain, and still refuses every other new form', async () => {
    await db.migrateTo(10);
    const bare = `INSERT INTO "${db.schema}".access_log (time, request_id, operation, outcome, status, write_result, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'failed', 504, $1, $2, $2)`;
    await expect(db.admin().query(bare, ['UNKNOWN', GENESIS])).rejects.toMatchObject({ code: '23514' });
    await db.migrateTo(LATEST_VERSION);
    for (const bad of ['UNKNOWN X', 'unknown', 'OK P191212121212', 'UNKNOWN ']) await expect(db.admin().query(bare, [bad, GENESIS]), bad).rejects.toMatchObject({ code: '23514' });
    const unknown: OutcomeRecord = { ...arrival(1, 'UNKNOWN'), outcome: 'failed', status: 504 };
    const client = await db.admin().connect();
    try {
      await insertChained(client, db.schema, [unknown, arrival(2, 'INFO ALREADY_ARRIVED')].map(toStoredValues), k1);
    } finally {
      client.release();
    }
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(0);
    const { rows } = await db.admin().query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${db.schema}".access_log ORDER BY id`);
    expect(rows.map(recordOf)).toEqual([unknown, arrival(2, 'INFO ALREADY_ARRIVED')]);
  });
});

describe.skipIf(!available)('PostgreSQL audit trail: migration 11 on a CHECK of another name', () => {
  const db = columnSchema();

  // Hostile review helper-138, F6: it stopped with PostgreSQL's own words, that the constraint does not exist.
  it('stops, says what to do, and changes nothing', async () => {
    await db.migrateTo(10);
    await db.admin().query(`ALTER TABLE "${db.schema}".access_log RENAME CONSTRAINT access_log_write_result_check TO write_result_form`);
    await expect(db.migrateTo(LATEST_VERSION)).rejects.toThrow(
      `audit migration 11 replaces the CHECK access_log_write_result_check on "${db.schema}".access_log, which is not there: `
      + 'name the CHECK on write_result so (ALTER TABLE ... RENAME CONSTRAINT): nothing was changed, and the service tries again by itself');
    const { rows } = await db.admin().query<{ v: number }>(`SELECT max(version)::int AS v FROM "${db.schema}".schema_migrations`);
    expect(rows[0]?.v).toBe(10);
  });
});

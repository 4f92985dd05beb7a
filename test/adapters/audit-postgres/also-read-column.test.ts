/**
 * Migration 9 (hostile review helper-90, F2): the other reads of the patient's data a request made
 * besides its operation's (a FHIR search's includes, a `$summary`'s sections), on its outcome row, so
 * the patient's access log names each. Rows written before it, unkeyed and keyed, keep their hash; a
 * row with it verifies and is read back by the trail's query and by the access log; a changed list
 * breaks the chain.
 */
import { describe, expect, it } from 'vitest';
import { macHex, unkeyedHex, type ChainKey } from '../../../src/adapters/audit-chain/chain-keys.js';
import { GENESIS, recordOf, rowHash, rowMac, SELECT_COLUMNS, toStoredValues, type SelectedRow, type StoredValues } from '../../../src/adapters/audit-postgres/audit-row.js';
import { insertChained } from '../../../src/adapters/audit-postgres/insert-chained.js';
import { LATEST_VERSION } from '../../../src/adapters/audit-postgres/migrations.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import { PostgresAccessLog } from '../../../src/adapters/audit-query/postgres-access-log.js';
import { ALSO_READ_MAX } from '../../../src/domain/access-log/also-read.js';
import type { AttemptRecord, OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { READ_NAMES } from '../../../src/domain/operations/table.js';
import { databaseAvailable, databaseUrl } from '../../support/database.js';
import { KEYS, k1 } from '../audit-query/keyed-trails.js';
import { columnSchema, insertChainedAsOlder, type OlderForms } from './later-columns.js';
import { CHILD, fullRecord, minimalRecord } from './records.js';

const available = await databaseAvailable();
const GRANT = '3f2a9c0d5b7e41a8b6c2d9e0f1a2b3c4';

/** A search of care contacts that included the journal notes, as the FHIR door records it. */
const included = (n: number, alsoRead: string[]): OutcomeRecord => fullRecord(n, { operation: 'getContacts', serviceRequestId: `svc-${n}`, alsoRead });

/** Rows of every shape a version-8 service wrote, a grant's, a support reason's and a write's answer included. */
const OLDER: OutcomeRecord[] = [
  minimalRecord(1), fullRecord(2), fullRecord(3, { serviceRequestId: 'svc-3', withheld: 2 }), fullRecord(4, { serviceRequestId: 'svc-4', callerRequestId: 'abc' }),
  { ...minimalRecord(5), operation: 'refusalsNotAudited', unaudited: 7 }, fullRecord(6, { operation: 'grantProxy', proxyGrantId: GRANT }),
  { ...minimalRecord(7), operation: 'revokeProxy', proxyGrantId: GRANT, reason: 'asked by phone' },
  fullRecord(8, { operation: 'changeAppointment', serviceRequestId: 'svc-8', writeResult: 'OK ARRIVAL_REGISTERED' }),
];

/** The two canonical forms as migration 8 left them, before migration 9: what every older row's hash was made from. */
function hashBefore9(v: StoredValues, prev: string): string {
  const newer = [v.callerRequestId, v.unaudited, v.proxyGrantId, v.reason, v.writeResult];
  while (newer.length > 0 && newer[newer.length - 1] === null) newer.pop();
  const withheld = v.withheld === null ? [] : [v.withheld];
  const later = newer.length > 0 ? [v.phase, v.serviceRequestId, v.withheld, ...newer]
    : v.phase === 'outcome' && v.serviceRequestId === null && v.withheld === null ? [] : [v.phase, v.serviceRequestId, ...withheld];
  return unkeyedHex(JSON.stringify([v.time, ...v.text, v.status, ...later, prev]));
}
function macBefore9(v: StoredValues, prev: string, key: ChainKey): string {
  const grant = [v.proxyGrantId, v.reason, v.writeResult];
  while (grant.length > 0 && grant[grant.length - 1] === null) grant.pop();
  return macHex(key, JSON.stringify([v.time, ...v.text, v.status, v.phase, v.serviceRequestId, v.withheld, v.callerRequestId, v.unaudited, ...grant, key.id, prev]));
}

const BEFORE_9: OlderForms = { hash: hashBefore9, mac: macBefore9 };
/** What migrations 7 and 8 added, which a version-8 service already wrote. */
const VERSION_8_COLUMNS = ['proxy_grant_id', 'reason', 'write_result'] as const;

describe('audit rows: the canonical forms of migration 9', () => {
  it('every row without other reads keeps exactly the hash and the MAC it had before migration 9', () => {
    let prev = GENESIS;
    for (const record of OLDER) {
      const values = toStoredValues(record);
      expect(values.alsoRead).toBeNull();
      expect(rowHash(values, prev)).toBe(hashBefore9(values, prev));
      expect(rowMac(values, prev, k1)).toBe(macBefore9(values, prev, k1));
      prev = rowHash(values, prev);
    }
  });

  it('the other reads are in both forms, and no row with them shares a form with another', () => {
    const values = toStoredValues(included(9, ['getJournalNotes']));
    expect(values.alsoRead).toBe('getJournalNotes');
    const variants = [values, { ...values, alsoRead: 'getJournalNotes getDiagnoses' }, { ...values, alsoRead: null },
      { ...values, writeResult: 'OK', alsoRead: null }, { ...values, reason: 'getJournalNotes', alsoRead: null }, { ...values, proxyGrantId: GRANT }];
    expect(new Set(variants.map((v) => rowHash(v, GENESIS))).size).toBe(variants.length);
    expect(new Set(variants.map((v) => rowMac(v, GENESIS, k1))).size).toBe(variants.length);
  });

  it('refuses a list that is not of distinct read names, and keeps none on an attempt', () => {
    for (const alsoRead of [[], [''], ['get JournalNotes'], ['getJournalNotes', 'getJournalNotes'], ['getJournalNotes\n'], ['191212121212'],
      ['GetJournalNotes'], ['getPatient22'], [`g${'a'.repeat(64)}`], Array.from({ length: ALSO_READ_MAX + 1 }, (_, i) => `read${'x'.repeat(i)}`), [7]]) {
      expect(() => toStoredValues(included(1, alsoRead as string[])), JSON.stringify(alsoRead)).toThrow(/alsoRead cannot be stored/);
    }
    const attempt = { ...included(1, ['getJournalNotes']), phase: 'attempt', status: undefined } as unknown as AttemptRecord;
    expect(toStoredValues(attempt).alsoRead).toBeNull();
    // Every read there is fits in one record.
    expect(READ_NAMES.length).toBeLessThanOrEqual(ALSO_READ_MAX);
    expect(toStoredValues(included(1, [...READ_NAMES])).alsoRead).toBe(READ_NAMES.join(' '));
  });
});

describe.skipIf(!available)('PostgreSQL audit trail: the other reads in the chain (migration 9)', () => {
  const db = columnSchema();

  it('keeps version-8 rows verifying, stores the other reads in the chain, reads them back, and a change of them breaks the chain', async () => {
    await db.migrateTo(8);
    const client = await db.admin().connect();
    try {
      // As a version-8 service wrote them: unkeyed, then under the chain key.
      await insertChainedAsOlder(client, db.schema, OLDER.slice(0, 2), undefined, BEFORE_9, VERSION_8_COLUMNS);
      await insertChainedAsOlder(client, db.schema, OLDER.slice(2), k1, BEFORE_9, VERSION_8_COLUMNS);
      await db.migrateTo(LATEST_VERSION);
      expect(await verifyPostgresChain(client, db.schema, KEYS.byId)).toBe(0);
      await insertChained(client, db.schema, [included(9, ['getJournalNotes']), included(10, ['getJournalNotes', 'getDiagnoses'])].map(toStoredValues), k1);
    } finally {
      client.release();
    }
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(0);
    const { rows } = await db.admin().query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${db.schema}".access_log ORDER BY id`);
    expect(rows.map((r) => r.also_read)).toEqual([...OLDER.map(() => null), 'getJournalNotes', 'getJournalNotes getDiagnoses']);
    expect(rows.slice(OLDER.length).map(recordOf)).toEqual([included(9, ['getJournalNotes']), included(10, ['getJournalNotes', 'getDiagnoses'])]);

    // The patient's access log reads them as the record holds them, and nothing on the rows without.
    const log = PostgresAccessLog.create({ connectionString: databaseUrl(), schema: db.schema });
    try {
      const page = await log.page({ patientId: CHILD, limit: 100 });
      expect(page.map((p) => [p.access.requestId, p.access.alsoRead])).toEqual([
        ['req-2', undefined], ['svc-3', undefined], ['svc-4', undefined], ['req-6', undefined], ['svc-8', undefined],
        ['svc-9', ['getJournalNotes']], ['svc-10', ['getJournalNotes', 'getDiagnoses']],
      ]);
    } finally {
      await log.close();
    }

    const bare = `INSERT INTO "${db.schema}".access_log (time, request_id, operation, outcome, status, also_read, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'allowed', 200, $1, $2, $2)`;
    for (const bad of ['', ' getJournalNotes', 'getJournalNotes ', 'getJournalNotes  getDiagnoses', 'get191212121212', 'getPatientV22', 'getJournalNotes\n']) {
      await expect(db.admin().query(bare, [bad, GENESIS]), JSON.stringify(bad)).rejects.toMatchObject({ code: '23514' });
    }

    const tenth = rows.at(-1)?.id ?? '';
    await db.tamper(`UPDATE "${db.schema}".access_log SET also_read = 'getJournalNotes' WHERE id = ${tenth}`);
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(Number(tenth));
  });
});

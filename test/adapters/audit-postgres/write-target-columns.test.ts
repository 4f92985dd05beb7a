/**
 * Migration 10 (hostile review helper-127, F3): the booking a write was about (`contact_id`) and, for a
 * payment, the type it asked (`payment_type`), on its outcome row, so the trail tells which visit was
 * checked in or paid. Rows written before it, unkeyed and keyed, keep their hash; a row with them verifies
 * and is read back; a changed booking or type breaks the chain.
 */
import { describe, expect, it } from 'vitest';
import { macHex, unkeyedHex, type ChainKey } from '../../../src/adapters/audit-chain/chain-keys.js';
import { GENESIS, recordOf, rowHash, rowMac, SELECT_COLUMNS, toStoredValues, type SelectedRow, type StoredValues } from '../../../src/adapters/audit-postgres/audit-row.js';
import { insertChained } from '../../../src/adapters/audit-postgres/insert-chained.js';
import { LATEST_VERSION } from '../../../src/adapters/audit-postgres/migrations.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import type { PaymentType } from '../../../src/domain/writes/payment-types.js';
import type { AttemptRecord, OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { databaseAvailable } from '../../support/database.js';
import { KEYS, k1 } from '../audit-query/keyed-trails.js';
import { columnSchema, insertChainedAsOlder, type OlderForms } from './later-columns.js';
import { fullRecord, minimalRecord } from './records.js';

const available = await databaseAvailable();
const GRANT = '3f2a9c0d5b7e41a8b6c2d9e0f1a2b3c4';

/** A payment's outcome as the write route stores it. */
const payment = (n: number, contactId: string, paymentType?: string): OutcomeRecord => fullRecord(n, {
  operation: 'registerPayment', serviceRequestId: `svc-${n}`, writeResult: 'OK PAYMENT_REGISTERED', contactId, ...(paymentType === undefined ? {} : { paymentType: paymentType as PaymentType }),
});

/** Rows of every shape a version-9 service wrote. */
const OLDER: OutcomeRecord[] = [
  minimalRecord(1), fullRecord(2), fullRecord(3, { serviceRequestId: 'svc-3', withheld: 2 }), fullRecord(4, { serviceRequestId: 'svc-4', callerRequestId: 'abc' }),
  { ...minimalRecord(5), operation: 'refusalsNotAudited', unaudited: 7 }, fullRecord(6, { operation: 'grantProxy', proxyGrantId: GRANT }),
  { ...minimalRecord(7), operation: 'revokeProxy', proxyGrantId: GRANT, reason: 'asked by phone' },
  fullRecord(8, { operation: 'changeAppointment', serviceRequestId: 'svc-8', writeResult: 'OK ARRIVAL_REGISTERED' }),
  fullRecord(9, { operation: 'getContacts', serviceRequestId: 'svc-9', alsoRead: ['getJournalNotes'] }),
];

/** The two canonical forms as migration 9 left them, before migration 10: what every older row's hash was made from. */
function hashBefore10(v: StoredValues, prev: string): string {
  const newer = [v.callerRequestId, v.unaudited, v.proxyGrantId, v.reason, v.writeResult, v.alsoRead];
  while (newer.length > 0 && newer[newer.length - 1] === null) newer.pop();
  const withheld = v.withheld === null ? [] : [v.withheld];
  const later = newer.length > 0 ? [v.phase, v.serviceRequestId, v.withheld, ...newer]
    : v.phase === 'outcome' && v.serviceRequestId === null && v.withheld === null ? [] : [v.phase, v.serviceRequestId, ...withheld];
  return unkeyedHex(JSON.stringify([v.time, ...v.text, v.status, ...later, prev]));
}
function macBefore10(v: StoredValues, prev: string, key: ChainKey): string {
  const grant = [v.proxyGrantId, v.reason, v.writeResult, v.alsoRead];
  while (grant.length > 0 && grant[grant.length - 1] === null) grant.pop();
  return macHex(key, JSON.stringify([v.time, ...v.text, v.status, v.phase, v.serviceRequestId, v.withheld, v.callerRequestId, v.unaudited, ...grant, key.id, prev]));
}

const BEFORE_10: OlderForms = { hash: hashBefore10, mac: macBefore10 };
/** What migrations 7 to 9 added, which a version-9 service already wrote. */
const VERSION_9_COLUMNS = ['proxy_grant_id', 'reason', 'write_result', 'also_read'] as const;

describe('audit rows: the canonical forms of migration 10', () => {
  it('every row without a booking keeps exactly the hash and the MAC it had before migration 10', () => {
    let prev = GENESIS;
    for (const record of OLDER) {
      const values = toStoredValues(record);
      expect([values.contactId, values.paymentType]).toEqual([null, null]);
      expect(rowHash(values, prev)).toBe(hashBefore10(values, prev));
      expect(rowMac(values, prev, k1)).toBe(macBefore10(values, prev, k1));
      prev = rowHash(values, prev);
    }
  });

  it('the booking and the payment type are in both forms, and no row with them shares a form with another', () => {
    const values = toStoredValues(payment(10, '4711', 'CARD'));
    expect([values.contactId, values.paymentType]).toEqual(['4711', 'CARD']);
    const variants = [values, { ...values, paymentType: 'CASH' }, { ...values, paymentType: null }, { ...values, contactId: '4712' },
      { ...values, contactId: null, paymentType: null }, { ...values, contactId: null, paymentType: null, alsoRead: '4711' },
      { ...values, contactId: null, paymentType: null, reason: '4711' }, { ...values, writeResult: null }];
    expect(new Set(variants.map((v) => rowHash(v, GENESIS))).size).toBe(variants.length);
    expect(new Set(variants.map((v) => rowMac(v, GENESIS, k1))).size).toBe(variants.length);
  });

  it('refuses a booking that is not a ContactId, a type that is not a payment type or has no booking, and keeps none on an attempt', () => {
    for (const contactId of ['', 'a b', '4711\n', 'x'.repeat(65), 'ä', '47/11']) {
      expect(() => toStoredValues(payment(1, contactId)), JSON.stringify(contactId)).toThrow(/contactId cannot be stored/);
    }
    for (const paymentType of ['', 'card', 'SWISH', 'CARD ']) {
      expect(() => toStoredValues(payment(1, '4711', paymentType)), JSON.stringify(paymentType)).toThrow(/paymentType cannot be stored/);
    }
    const { contactId: _c, ...typeAlone } = payment(1, '4711', 'CASH');
    expect(() => toStoredValues(typeAlone)).toThrow(/paymentType cannot be stored/);
    const attempt = { ...payment(1, '4711', 'CARD'), phase: 'attempt', status: undefined, writeResult: undefined } as unknown as AttemptRecord;
    expect([toStoredValues(attempt).contactId, toStoredValues(attempt).paymentType]).toEqual([null, null]);
    expect(toStoredValues(payment(1, '00261130199')).contactId).toBe('00261130199');
  });
});

describe.skipIf(!available)('PostgreSQL audit trail: the booking in the chain (migration 10)', () => {
  const db = columnSchema();

  it('keeps version-9 rows verifying, stores the booking and the type in the chain, reads them back, and a change of either breaks the chain', async () => {
    await db.migrateTo(9);
    const client = await db.admin().connect();
    try {
      // As a version-9 service wrote them: unkeyed, then under the chain key.
      await insertChainedAsOlder(client, db.schema, OLDER.slice(0, 2), undefined, BEFORE_10, VERSION_9_COLUMNS);
      await insertChainedAsOlder(client, db.schema, OLDER.slice(2), k1, BEFORE_10, VERSION_9_COLUMNS);
      await db.migrateTo(LATEST_VERSION);
      expect(await verifyPostgresChain(client, db.schema, KEYS.byId)).toBe(0);
      await insertChained(client, db.schema, [payment(10, '4711', 'CARD'), payment(11, '4711'), payment(12, 'A-1.b_2', 'INVOICE')].map(toStoredValues), k1);
    } finally {
      client.release();
    }
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(0);
    const { rows } = await db.admin().query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${db.schema}".access_log ORDER BY id`);
    expect(rows.map((r) => [r.contact_id, r.payment_type])).toEqual([...OLDER.map(() => [null, null]),
      ['4711', 'CARD'], ['4711', null], ['A-1.b_2', 'INVOICE']]);
    expect(rows.slice(OLDER.length).map(recordOf)).toEqual([payment(10, '4711', 'CARD'), payment(11, '4711'), payment(12, 'A-1.b_2', 'INVOICE')]);

    const bare = (column: string): string => `INSERT INTO "${db.schema}".access_log (time, request_id, operation, outcome, status, ${column}, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'allowed', 200, $1, $2, $2)`;
    for (const bad of ['', 'a b', '4711\n', 'x'.repeat(65)]) await expect(db.admin().query(bare('contact_id'), [bad, GENESIS]), bad).rejects.toMatchObject({ code: '23514' });
    for (const bad of ['', 'card', 'SWISH']) await expect(db.admin().query(bare('payment_type'), [bad, GENESIS]), bad).rejects.toMatchObject({ code: '23514' });

    const tenth = rows[OLDER.length]?.id ?? '';
    await db.tamper(`UPDATE "${db.schema}".access_log SET payment_type = 'CASH' WHERE id = ${tenth}`);
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(Number(tenth));
    await db.tamper(`UPDATE "${db.schema}".access_log SET payment_type = 'CARD', contact_id = '4712' WHERE id = ${tenth}`);
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(Number(tenth));
  });
});

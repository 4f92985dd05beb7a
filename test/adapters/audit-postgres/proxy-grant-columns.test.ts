/**
 * Migration 7 (issue 53, docs/proxies.md#audited-and-shown): the proxy grant a row is about and the
 * reason support staff gave for ending one. Rows written before it, unkeyed and keyed, keep their
 * hash; a row with either field verifies; a changed field breaks the chain.
 */
import { describe, expect, it } from 'vitest';
import { macHex, unkeyedHex, type ChainKey } from '../../../src/adapters/audit-chain/chain-keys.js';
import {
  GENESIS, recordOf, rowHash, rowMac, SELECT_COLUMNS, toStoredValues, type SelectedRow, type StoredValues,
} from '../../../src/adapters/audit-postgres/audit-row.js';
import { insertChained } from '../../../src/adapters/audit-postgres/insert-chained.js';
import { LATEST_VERSION } from '../../../src/adapters/audit-postgres/migrations.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { PostgresAccessLog } from '../../../src/adapters/audit-query/postgres-access-log.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { databaseAvailable, databaseUrl } from '../../support/database.js';
import { KEYS, k1 } from '../audit-query/keyed-trails.js';
import { columnSchema, insertChainedAsOlder, type OlderForms } from './later-columns.js';
import { fullRecord, minimalRecord } from './records.js';

const available = await databaseAvailable();
const GRANT = '3f2a9c0d5b7e41a8b6c2d9e0f1a2b3c4';
const GRANTOR = '191212121212';

/** The two canonical forms as migration 6 left them, before migration 7: what every older row's hash was made from. */
function hashBefore7(v: StoredValues, prev: string): string {
  const newer = [v.callerRequestId, v.unaudited];
  while (newer.length > 0 && newer[newer.length - 1] === null) newer.pop();
  const withheld = v.withheld === null ? [] : [v.withheld];
  const later = newer.length > 0 ? [v.phase, v.serviceRequestId, v.withheld, ...newer]
    : v.phase === 'outcome' && v.serviceRequestId === null && v.withheld === null ? [] : [v.phase, v.serviceRequestId, ...withheld];
  return unkeyedHex(JSON.stringify([v.time, ...v.text, v.status, ...later, prev]));
}
const macBefore7 = (v: StoredValues, prev: string, key: ChainKey): string => macHex(key, JSON.stringify([v.time, ...v.text, v.status, v.phase,
  v.serviceRequestId, v.withheld, v.callerRequestId, v.unaudited, key.id, prev]));
const BEFORE_7: OlderForms = { hash: hashBefore7, mac: macBefore7 };

/** What support's `npm run proxies -- revoke --reason` audits, and what a grantor's grant audits. */
const supportRevoke = (n: number, reason: string): OutcomeRecord => ({
  ...minimalRecord(n), operation: 'revokeProxy', outcome: 'allowed', status: 200, patientId: GRANTOR,
  actor: { issuer: 'urn:pdas:support', subject: 'support' }, delegation: 'support', proxyGrantId: GRANT, reason,
});
const grantRecord = (n: number): OutcomeRecord => fullRecord(n, {
  operation: 'grantProxy', patientId: GRANTOR, delegation: 'self', serviceRequestId: `svc-${n}`, proxyGrantId: GRANT,
});

/** Rows of every shape a version-6 service wrote: bare, with a withheld count, a caller's id, a count of refusals. */
const OLDER: OutcomeRecord[] = [
  minimalRecord(1), fullRecord(2), fullRecord(3, { serviceRequestId: 'svc-3', withheld: 2 }), fullRecord(4, { serviceRequestId: 'svc-4', callerRequestId: 'abc' }),
  { ...minimalRecord(5), operation: 'refusalsNotAudited', unaudited: 7 },
];

describe('audit rows: the canonical forms of migration 7', () => {
  it('issue 53: every row without a grant keeps exactly the hash and the MAC it had before migration 7', () => {
    let prev = GENESIS;
    for (const record of OLDER) {
      const values = toStoredValues(record);
      expect(rowHash(values, prev)).toBe(hashBefore7(values, prev));
      expect(rowMac(values, prev, k1)).toBe(macBefore7(values, prev, k1));
      prev = rowHash(values, prev);
    }
  });

  it('issue 53: a grant id and a reason are in both forms, and no row with them shares a form with another', () => {
    const granted = toStoredValues(grantRecord(6));
    const revoked = toStoredValues(supportRevoke(7, 'The grantor asked us by phone'));
    for (const values of [granted, revoked]) {
      const variants = new Map<string, StoredValues>();
      for (const v of [values, { ...values, proxyGrantId: null }, { ...values, reason: null }, { ...values, proxyGrantId: null, reason: null },
        { ...values, reason: values.proxyGrantId, proxyGrantId: values.reason }, { ...values, callerRequestId: values.proxyGrantId, proxyGrantId: null },
        { ...values, unaudited: 1, proxyGrantId: null }]) {
        variants.set(JSON.stringify(v), v);
      }
      const hashes = new Set([...variants.values()].map((v) => rowHash(v, GENESIS)));
      const macs = new Set([...variants.values()].map((v) => rowMac(v, GENESIS, k1)));
      expect(variants.size).toBeGreaterThanOrEqual(5);
      expect([hashes.size, macs.size]).toEqual([variants.size, variants.size]);
    }
  });

  it('issue 53: refuses a reason that is empty, too long or not printable, and a grant id the column would refuse', () => {
    for (const reason of ['', 'x'.repeat(501), 'line one\nline two', 'bell\u0007', 'c1\u0085', 'lone \ud800']) {
      expect(() => toStoredValues(supportRevoke(1, reason)), JSON.stringify(reason)).toThrow(/reason cannot be stored/);
    }
    expect(toStoredValues(supportRevoke(1, 'å'.repeat(500))).reason).toHaveLength(500);
    expect(toStoredValues(supportRevoke(1, '🙂'.repeat(500))).reason).toHaveLength(1000);
    expect(() => toStoredValues({ ...grantRecord(1), proxyGrantId: 'a b' })).toThrow(/proxyGrantId cannot be stored/);
  });
});

describe.skipIf(!available)('PostgreSQL audit trail: proxy grants in the chain (issue 53, migration 7)', () => {
  const db = columnSchema();

  it('issue 53: keeps version-6 rows (unkeyed and keyed) verifying, stores the grant and the reason in the chain, and a change of either breaks it', async () => {
    await db.migrateTo(6);
    const client = await db.admin().connect();
    try {
      // As a version-6 service wrote them: unkeyed, then under the chain key.
      await insertChainedAsOlder(client, db.schema, OLDER.slice(0, 2), undefined, BEFORE_7);
      await insertChainedAsOlder(client, db.schema, OLDER.slice(2), k1, BEFORE_7);
      // Through migration 8 too, which every row below it is written after.
      await db.migrateTo(LATEST_VERSION);
      expect(await verifyPostgresChain(client, db.schema, KEYS.byId)).toBe(0);
      const newer = [grantRecord(6), supportRevoke(7, 'Anhörig ringde: "avsluta delningen" — ärende 4711')];
      // Keyed, as every row after the first keyed one must be (an unkeyed row there is a downgrade the check refuses).
      await insertChained(client, db.schema, [toStoredValues(newer[0] as OutcomeRecord)], k1);
      await insertChained(client, db.schema, [toStoredValues(newer[1] as OutcomeRecord)], k1);
    } finally {
      client.release();
    }
    // Through the trail too: the columns reach the INSERT in its order.
    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema: db.schema, key: k1, onWarning: () => undefined });
    const last = { ...grantRecord(8), operation: 'acceptProxy' };
    await trail.append(last).finally(() => trail.close());

    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(0);
    const { rows } = await db.admin().query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${db.schema}".access_log ORDER BY id`);
    expect(rows.map((r) => [r.proxy_grant_id, r.reason])).toEqual([
      ...OLDER.map(() => [null, null]), [GRANT, null], [GRANT, 'Anhörig ringde: "avsluta delningen" — ärende 4711'], [GRANT, null]]);
    expect(rows.map(recordOf).slice(5)).toEqual([grantRecord(6), supportRevoke(7, 'Anhörig ringde: "avsluta delningen" — ärende 4711'), last]);

    // The grantor's access log reads them back.
    const log = PostgresAccessLog.create({ connectionString: databaseUrl(), schema: db.schema });
    const page = await log.page({ patientId: GRANTOR, limit: 10 }).finally(() => log.close());
    expect(page.map((p) => [p.access.operation, p.access.proxyGrantId, p.access.reason])).toEqual([
      ['grantProxy', GRANT, undefined], ['revokeProxy', GRANT, 'Anhörig ringde: "avsluta delningen" — ärende 4711'], ['acceptProxy', GRANT, undefined]]);

    // The table refuses what toStoredValues refuses.
    const bare = `INSERT INTO "${db.schema}".access_log (time, request_id, operation, outcome, status, proxy_grant_id, reason, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'allowed', 200, $1, $2, $3, $3)`;
    for (const [grant, reason] of [['a b', null], [GRANT, ''], [GRANT, 'x'.repeat(501)], [GRANT, 'two\nlines'], [GRANT, 'c1\u0085']]) {
      await expect(db.admin().query(bare, [grant, reason, GENESIS]), String(reason)).rejects.toMatchObject({ code: '23514' });
    }

    const idOf = (n: number): string => rows[n]?.id ?? '';
    await db.tamper(`UPDATE "${db.schema}".access_log SET reason = 'Grantor asked' WHERE id = ${idOf(6)}`);
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(Number(idOf(6)));
    await db.tamper(`UPDATE "${db.schema}".access_log SET proxy_grant_id = 'ffff' WHERE id = ${idOf(5)}`);
    expect(await verifyPostgresChain(db.admin(), db.schema, KEYS.byId)).toBe(Number(idOf(5)));
  });
});

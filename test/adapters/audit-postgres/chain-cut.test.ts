/**
 * Hostile review helper-133, F1: the owner deleted the newest rows while the service ran, and the next
 * request's row linked over the gap (the service reads the chain's head from the table): no warning, and
 * the chain verified. The trail now finds the newest row it stored gone, or holding another hash, at its
 * next write, and withholds patient data (its appends refused, not ready) until it is restarted.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { asOwner, k1 } from '../audit-query/keyed-trails.js';
import { fullRecord } from './records.js';

const available = await databaseAvailable();

describe.skipIf(!available)('PostgreSQL audit trail: its newest row cut or changed under it', () => {
  let admin: pg.Pool;
  const schemas: string[] = [];
  const trails: PostgresAuditTrail[] = [];
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    for (const schema of schemas) await dropSchema(admin, schema);
    await admin.end();
  });

  const open = (schema: string, warnings: string[] = []): PostgresAuditTrail => {
    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, key: k1, onWarning: (m) => warnings.push(m) });
    trails.push(trail);
    return trail;
  };
  const fresh = (): string => {
    const schema = freshSchema('chain_cut');
    schemas.push(schema);
    return schema;
  };

  it('refuses to store over rows cut from the end, says so, reports not ready, and stores again once restarted', async () => {
    const schema = fresh();
    const warnings: string[] = [];
    const trail = open(schema, warnings);
    for (let n = 1; n <= 3; n++) await trail.append(fullRecord(n));
    await asOwner(admin, schema, 'DELETE FROM $t WHERE id >= 2');
    await expect(trail.append(fullRecord(4))).rejects.toThrow(/not stored/);
    await expect(trail.append(fullRecord(5))).rejects.toThrow(/not stored/);
    expect(await trail.ping()).toBe(false);
    expect(warnings.filter((w) => w.includes('record 3, the newest this instance stored, is gone'))).toHaveLength(1);
    expect((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".access_log`)).rows).toEqual([{ n: 1 }]);
    // Restarted, it chains on from the table's head: the signed heads of the stopped one name the loss (keyed-chain.test.ts).
    const restarted = open(schema);
    await restarted.append(fullRecord(6));
    expect(await restarted.ping()).toBe(true);
  });

  it('refuses to store over its newest row changed, and goes on when another instance stored rows after it', async () => {
    const schema = fresh();
    const warnings: string[] = [];
    const [a, b] = [open(schema, warnings), open(schema)];
    await a.append(fullRecord(1));
    await b.append(fullRecord(2));
    await a.append(fullRecord(3));
    await b.append(fullRecord(4));
    await a.append(fullRecord(5));
    expect(warnings).toEqual([]);
    await asOwner(admin, schema, `UPDATE $t SET hash = repeat('0', 64) WHERE id = 5`);
    await expect(a.append(fullRecord(6))).rejects.toThrow(/not stored/);
    expect(warnings.filter((w) => w.includes('record 5, the newest this instance stored, holds another hash'))).toHaveLength(1);
    expect(await a.ping()).toBe(false);
  });
});

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { AuditTrailMissingError } from '../../../src/adapters/audit-query/audit-query.js';
import { PostgresAuditQuery } from '../../../src/adapters/audit-query/postgres-audit-query.js';
import { adminPool, databaseUrl, dropSchema, freshSchema, databaseAvailable } from '../../support/database.js';
import { appendOrder, CHILD, FROM, GUARDIAN, inWindow, TO } from './scenario.js';

const available = await databaseAvailable();

describe.skipIf(!available)('PostgresAuditQuery', () => {
  const schema = freshSchema();
  let admin: pg.Pool;
  let query: PostgresAuditQuery;

  beforeAll(async () => {
    admin = adminPool();
    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    for (const record of appendOrder) await trail.append(record);
    await trail.close();
    query = PostgresAuditQuery.create({ connectionString: databaseUrl(), schema });
  });
  afterAll(async () => {
    await query.close();
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('returns every access to the patient in the window, both bounds included, oldest first, with every field', async () => {
    expect(await query.accessesTo(CHILD, FROM, TO)).toEqual(inWindow);
  });

  it('leaves out a millisecond either side, other patients, and records for no patient', async () => {
    const narrow = await query.accessesTo(CHILD, new Date(FROM.getTime() + 1), new Date(TO.getTime() - 1));
    expect(narrow.map((r) => r.requestId)).toEqual(['guardian-read', 'kiosk-refused']);
    expect((await query.accessesTo(GUARDIAN, FROM, TO)).map((r) => r.requestId)).toEqual(['other-patient']);
    expect(await query.accessesTo('191212121212', FROM, TO)).toEqual([]);
  });

  it('says so when the schema holds no trail, rather than reporting no accesses', async () => {
    const missing = PostgresAuditQuery.create({ connectionString: databaseUrl(), schema: freshSchema('absent') });
    try {
      await expect(missing.accessesTo(CHILD, FROM, TO)).rejects.toBeInstanceOf(AuditTrailMissingError);
    } finally {
      await missing.close();
    }
  });
});

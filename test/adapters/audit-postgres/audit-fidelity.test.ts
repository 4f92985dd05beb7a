import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLUMNS, GENESIS, recordOf, rowHash, SELECT_COLUMNS, toStoredValues, type SelectedRow } from '../../../src/adapters/audit-postgres/audit-row.js';
import { migrate } from '../../../src/adapters/audit-postgres/migrations.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { verifyPostgresChain } from '../../../src/adapters/audit-postgres/verify-chain.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { CHILD, EVERY_VERSION, fullRecord } from './records.js';

const available = await databaseAvailable();

describe.skipIf(!available)('PostgreSQL audit trail: attempts, service request ids and a dropped table (issue 12 items 2 and 9)', () => {
  let admin: pg.Pool;
  const schemas: string[] = [];
  const trails: PostgresAuditTrail[] = [];
  const fresh = (): string => {
    const s = freshSchema();
    schemas.push(s);
    return s;
  };
  const trail = (schema: string, warnings: string[] = []): PostgresAuditTrail => {
    const t = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, connectTimeoutMs: 1000, onWarning: (m) => warnings.push(m) });
    trails.push(t);
    return t;
  };
  const tableExists = async (schema: string): Promise<boolean> =>
    (await admin.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [`"${schema}".access_log`])).rows[0]?.e === true;

  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await Promise.all(trails.map((t) => t.close()));
    for (const s of schemas) await dropSchema(admin, s);
    await admin.end();
  });

  it('issue 12 item 9: refuses, and does not recreate, an access_log its owner dropped while schema_migrations shows its chain existed', async () => {
    const schema = fresh();
    const first = trail(schema);
    await first.append(fullRecord(1));
    await first.close();
    // The append-only trigger stops UPDATE, DELETE and TRUNCATE, not DROP: the owner can do this.
    await admin.query(`DROP TABLE "${schema}".access_log`);

    const warnings: string[] = [];
    const restarted = trail(schema, warnings);
    expect(await restarted.ping()).toBe(false);
    await expect(restarted.append(fullRecord(2))).rejects.toThrow(/access_log is missing although its hash chain existed/);
    expect(await tableExists(schema)).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/unavailable, patient data is withheld.*missing although its hash chain existed.*schema_migrations/)]);

    // What the message tells an operator who means to start a new chain: drop the schema, restart.
    await dropSchema(admin, schema);
    const anew = trail(schema);
    expect(await anew.ping()).toBe(true);
    await anew.append(fullRecord(3));
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
  });

  it('issue 12 item 9: a running trail whose whole schema is dropped starts no new chain and withholds data', async () => {
    const schema = fresh();
    const warnings: string[] = [];
    const running = trail(schema, warnings);
    await running.append(fullRecord(1));
    await dropSchema(admin, schema);
    await expect(running.append(fullRecord(2))).rejects.toThrow(/42P01|3F000/);
    await expect(running.append(fullRecord(3))).rejects.toThrow(/missing although its hash chain existed \(this service wrote to it/);
    expect(await running.ping()).toBe(false);
    expect(await tableExists(schema)).toBe(false);
    expect(warnings).toContainEqual(expect.stringMatching(/disappeared while the service ran; it is not created again/));
  });

  it('issue 12 items 2 and 9: migration 2 keeps version-1 rows verifying, and stores attempts and service request ids in the same chain', async () => {
    const schema = fresh();
    const client = await admin.connect();
    try {
      await migrate(client, schema, false, 1);
    } finally {
      client.release();
    }
    // Rows as a version-1 service wrote them.
    let prev = GENESIS;
    for (const n of [1, 2]) {
      const values = toStoredValues(fullRecord(n));
      const hash = rowHash(values, prev);
      await admin.query(`INSERT INTO "${schema}".access_log (${COLUMNS.join(', ')}, prev_hash, hash)
        VALUES (${[...COLUMNS, 'p', 'h'].map((_, i) => `$${i + 1}`).join(', ')})`, [values.time, ...values.text, values.status, prev, hash]);
      prev = hash;
    }
    const attempt: AuditRecord = {
      time: '2026-11-21T09:00:03.000Z', requestId: 'w-1', serviceRequestId: '7d1e2f9a-3b4c-4d5e-8f60-718293a4b5c6', operation: 'changeAppointment',
      actor: { issuer: 'https://idp.example.test', subject: 'kiosk-7' }, clientId: 'kiosk-7', patientId: CHILD, delegation: 'client',
      sourceAddress: '127.0.0.1', phase: 'attempt', outcome: 'allowed',
    };
    const { phase: _attempt, ...common } = attempt;
    const outcome: AuditRecord = { ...common, time: '2026-11-21T09:00:03.250Z', outcome: 'allowed', status: 200 };
    const upgraded = trail(schema);
    await upgraded.append(attempt);
    await upgraded.append(outcome);

    expect((await admin.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).rows).toEqual(EVERY_VERSION);
    expect(await verifyPostgresChain(admin, schema)).toBe(0);
    const { rows } = await admin.query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${schema}".access_log ORDER BY id`);
    expect(rows.map((r) => [r.request_id, r.phase, r.status, r.service_request_id])).toEqual([
      ['req-1', 'outcome', 200, null], ['req-2', 'outcome', 200, null], ['w-1', 'attempt', null, attempt.serviceRequestId], ['w-1', 'outcome', 200, attempt.serviceRequestId],
    ]);
    expect(rows.map(recordOf)).toEqual([fullRecord(1), fullRecord(2), attempt, outcome]);

    // The table keeps an attempt free of a status, and an outcome with one.
    await expect(admin.query(`INSERT INTO "${schema}".access_log (time, request_id, operation, outcome, status, phase, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'allowed', 200, 'attempt', $1, $1)`, [GENESIS])).rejects.toMatchObject({ code: '23514' });
    await expect(admin.query(`INSERT INTO "${schema}".access_log (time, request_id, operation, outcome, status, phase, prev_hash, hash)
      VALUES (now(), 'x', 'y', 'allowed', NULL, 'outcome', $1, $1)`, [GENESIS])).rejects.toMatchObject({ code: '23514' });
    // An edited phase or service request id breaks the chain.
    await admin.query(`ALTER TABLE "${schema}".access_log DISABLE TRIGGER access_log_append_only`);
    await admin.query(`UPDATE "${schema}".access_log SET service_request_id = 'forged' WHERE phase = 'attempt'`);
    await admin.query(`ALTER TABLE "${schema}".access_log ENABLE TRIGGER access_log_append_only`);
    expect(await verifyPostgresChain(admin, schema)).toBe(Number(rows[2]?.id));
  });
});

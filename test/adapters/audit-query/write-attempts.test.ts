import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { formatAccessTable } from '../../../src/adapters/audit-query/access-report.js';
import type { AuditQuery } from '../../../src/adapters/audit-query/audit-query.js';
import { FileAuditQuery } from '../../../src/adapters/audit-query/file-audit-query.js';
import { PostgresAuditQuery } from '../../../src/adapters/audit-query/postgres-audit-query.js';
import type { AttemptRecord, AuditRecord, AuditTrail } from '../../../src/ports/audit-trail.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { CHILD, fullRecord } from '../audit-postgres/records.js';

const available = await databaseAvailable();
const FROM = new Date('2026-11-21T08:00:00.000Z');
const TO = new Date('2026-11-21T10:00:00.000Z');

const attemptOf = (n: number, time: string, operation = 'changeAppointment'): AttemptRecord => {
  const { status: _status, outcome: _outcome, ...fields } = fullRecord(n, { time, operation, serviceRequestId: `svc-${n}` });
  return { ...fields, phase: 'attempt', outcome: 'allowed' };
};
// A write answered within the window; one whose outcome came just after it; one the service never answered (it stopped).
// Each outcome names what the EHR answered and the booking, a payment its type (hostile review helper-127, F3): read back by both stores.
const answered = [attemptOf(1, '2026-11-21T09:00:00.000Z', 'registerPayment'), fullRecord(1, {
  time: '2026-11-21T09:00:00.200Z', operation: 'registerPayment', serviceRequestId: 'svc-1', writeResult: 'OK PAYMENT_REGISTERED', contactId: '4711', paymentType: 'CARD',
})];
const lateOutcome = [attemptOf(2, '2026-11-21T09:59:59.900Z'), fullRecord(2, {
  time: '2026-11-21T10:00:00.100Z', operation: 'changeAppointment', serviceRequestId: 'svc-2', writeResult: 'INFO ALREADY_ARRIVED', contactId: '4712',
})];
const unanswered = attemptOf(3, '2026-11-21T09:30:00.000Z');
const read = fullRecord(4, { time: '2026-11-21T09:15:00.000Z', serviceRequestId: 'svc-4' });
const trailRecords: AuditRecord[] = [...answered, read, unanswered, ...lateOutcome];

async function fill(trail: AuditTrail): Promise<void> {
  for (const record of trailRecords) await trail.append(record);
  await trail.close();
}

function expectEachWriteOnce(records: AuditRecord[]): void {
  expect(records).toEqual([answered[1], read, unanswered]);
  const table = formatAccessTable(records, { patientId: CHILD, from: FROM, to: TO, zone: 'Europe/Stockholm', source: 'test' });
  expect(table).toMatch(/ +Answer +Booking +Payment type$/m);
  expect(table).toMatch(/attempted, no outcome recorded +guardian +127\.0\.0\.1 +req-3 +svc-3 +- +- +- +-$/m);
  expect(table).toMatch(/registerPayment +allowed 200 +guardian +127\.0\.0\.1 +req-1 +svc-1 +- +OK PAYMENT_REGISTERED +4711 +CARD$/m);
  expect(table).toMatch(/getJournalNotes +allowed 200 +guardian +127\.0\.0\.1 +req-4 +svc-4 +- +- +- +-$/m);
  expect(table).toMatch(/\n3 accesses recorded\.\n$/);
}

describe('npm run audit counts a write once: its outcome, or an attempt left without one (issue 12 item 2)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-attempts-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('issue 12 item 2: the file trail reports each request once, with the service request id', async () => {
    const file = path.join(dir, 'audit-trail.jsonl');
    await fill(await FileAuditTrail.open(file));
    const warnings: string[] = [];
    expectEachWriteOnce(await new FileAuditQuery(file, (m) => warnings.push(m)).accessesTo(CHILD, FROM, TO));
    expect(warnings).toEqual([]);
  });

  describe.skipIf(!available)('in PostgreSQL', () => {
    const schema = freshSchema();
    let admin: pg.Pool;
    let query: AuditQuery;
    beforeAll(async () => {
      admin = adminPool();
      await fill(PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined }));
      query = PostgresAuditQuery.create({ connectionString: databaseUrl(), schema });
    });
    afterAll(async () => {
      await query.close();
      await dropSchema(admin, schema);
      await admin.end();
    });

    it('issue 12 item 2: the PostgreSQL trail reports each request once, with the service request id', async () => {
      expectEachWriteOnce(await query.accessesTo(CHILD, FROM, TO));
    });
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../src/adapters/audit-postgres/postgres-audit-trail.js';
import type { AuditTrail } from '../../src/ports/audit-trail.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../support/database.js';
import { startTestApp } from '../support/test-app.js';

const PERSON = '191212121212';
const URL = '/patients/journalnotes/';
const FLOOD = 400;
const TALLY_MESSAGE = 'requests with a valid subscription key and no valid token refused';

interface Stored {
  operation: string;
  status: number;
  subscription?: string;
  actor?: { subject: string };
}

/**
 * Issue 20 item 4 (threat 45): 400 parallel requests with the app's valid key and a bad token, then
 * real reads. Before the fix every refusal was a durable audit record (400 of them); now the first
 * of each source, key, operation and status per minute is, and the rest are counted in the log when
 * the minute is over. A refusal of an authenticated caller (too weak a scope) still names who asked
 * for whom, one record each.
 */
async function floodScenario(trail: AuditTrail, stored: () => Promise<Stored[]>): Promise<void> {
  const t = await startTestApp({ auditTrail: trail, rateLimitNoKeyMax: 10_000 });
  try {
    const now = Math.floor(t.clock.now() / 1000);
    const bad = ['garbage', await t.personToken(PERSON, { iat: now - 7200, exp: now - 3600 }), undefined];
    const answers = await Promise.all(Array.from({ length: FLOOD }, (_, i) => t.call({ method: 'GET', url: URL, ...(bad[i % 3] ? { token: bad[i % 3] } : {}) })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array<number>(FLOOD).fill(401));
    const unscoped = await t.personToken(PERSON, { scope: 'user/Appointment-read' });
    const scopeAnswers = await Promise.all(Array.from({ length: 2 }, () => t.call({ method: 'GET', url: URL, token: unscoped })));
    expect(scopeAnswers.map((r) => r.statusCode)).toEqual([403, 403]);
    // Reads of patient data are audited one by one, as ever.
    const token = await t.personToken(PERSON);
    for (let i = 0; i < 3; i++) expect((await t.call({ method: 'GET', url: URL, token })).statusCode).toBe(200);
    expect((await stored()).map((r) => [r.operation, r.status, r.subscription])).toEqual([
      ['getJournalNotes', 401, 'test'], ['getJournalNotes', 403, 'test'], ['getJournalNotes', 403, 'test'],
      ['getJournalNotes', 200, 'test'], ['getJournalNotes', 200, 'test'], ['getJournalNotes', 200, 'test'],
    ]);
    // The next minute audits the first again, and the count of the last one is in the log.
    t.clock.advance(60_000);
    expect((await t.call({ method: 'GET', url: URL, token: 'garbage' })).statusCode).toBe(401);
    expect((await stored()).length).toBe(7);
    const tallies = t.logLines.map((l) => JSON.parse(l) as { msg: string; status?: number; refused?: number; audited?: number; subscription?: string })
      .filter((l) => l.msg === TALLY_MESSAGE);
    expect(tallies.map((l) => [l.status, l.refused, l.audited, l.subscription]).sort()).toEqual([[401, FLOOD, 1, 'test']]);
  } finally {
    await t.close();
  }
}

describe('issue 20 item 4: refusals with a valid key and no valid token are audited once per source, key, operation and status and minute (file audit trail)', () => {
  it('issue 20 item 4: 400 parallel bad-token requests write one audit line, not 400; the chain verifies', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-refusals-'));
    const file = path.join(dir, 'audit.jsonl');
    const trail = await FileAuditTrail.open(file);
    const lines = async (): Promise<string[]> => (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    try {
      await floodScenario(trail, async () => (await lines()).map((l) => JSON.parse(l) as Stored));
      expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
    } finally {
      await trail.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const available = await databaseAvailable();

describe.skipIf(!available)('issue 20 item 4: the same with the PostgreSQL audit trail', () => {
  const schema = freshSchema('refusal_collapse');
  let admin: pg.Pool;
  beforeAll(() => {
    admin = adminPool();
  });
  afterAll(async () => {
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('issue 20 item 4: 400 parallel bad-token requests store one row, not 400', async () => {
    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    try {
      await floodScenario(trail, async () => {
        const { rows } = await admin.query<{ operation: string; status: number; subscription: string | null }>(
          `SELECT operation, status, subscription FROM "${schema}".access_log ORDER BY id`);
        return rows.map((r) => ({ operation: r.operation, status: r.status, ...(r.subscription === null ? {} : { subscription: r.subscription }) }));
      });
    } finally {
      await trail.close();
    }
  });
});

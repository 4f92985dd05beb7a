import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { adminPool, databaseUrl, dropSchema, freshSchema, databaseAvailable } from '../../support/database.js';
import { runScript, RUNS_COMMANDS, type ScriptRun } from '../../support/run-script.js';
import { appendOrder, CHILD, inWindow } from './scenario.js';

const available = await databaseAvailable();
const CHILD_WITH_DASH = `${CHILD.slice(0, 8)}-${CHILD.slice(8)}`;

const audit = (args: string[], env: Record<string, string>): Promise<ScriptRun> => runScript('audit.ts', args, env);

/** The table rows expected for `inWindow`, in Swedish local time (CET in November). */
const EXPECTED_ROWS = [
  /^2026-11-21 00:00:00 +198112189876 +patient-app +test +getJournalNotes +allowed 200 +guardian +127\.0\.0\.1 +first-local-ms +- +-$/m,
  /^2026-11-21 10:00:02 +198112189876 +patient-app +test +getJournalNotes +allowed 200 +guardian +127\.0\.0\.1 +guardian-read +guardian-read +app-trace-7f3a$/m,
  /^2026-11-21 13:30:00 +client kiosk-7 +kiosk-7 +kiosk +markArrived +denied 403 +client +10\.0\.0\.7 +kiosk-refused +- +-$/m,
  /^2026-11-21 23:59:59 +198112189876 +patient-app +test +getJournalNotes +failed 503 +guardian +127\.0\.0\.1 +last-local-ms +- +-$/m,
];

function expectTable(run: ScriptRun, source: RegExp): void {
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Accesses to the data of patient 201701012393\n/);
  expect(run.stdout).toMatch(/from 2026-11-21 00:00:00 to 2026-11-21 23:59:59 \(Europe\/Stockholm local time\); source: /);
  expect(run.stdout).toMatch(source);
  expect(run.stdout).toMatch(/^Time +Who +Client +Subscription +Operation +Outcome +Basis +Address +Request id +Service request id +Caller request id$/m);
  const positions = EXPECTED_ROWS.map((row) => run.stdout.search(row));
  expect(positions.every((p) => p > 0)).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  expect(run.stdout).not.toMatch(/day-before|day-after|other-patient|min-8/);
  expect(run.stdout).toMatch(/\n4 accesses recorded\.\n$/);
}

describe.skipIf(!available)('npm run audit (src/start/commands/audit.ts)', RUNS_COMMANDS, () => {
  const schema = freshSchema();
  let admin: pg.Pool;
  let dataDir: string;

  beforeAll(async () => {
    admin = adminPool();
    const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    dataDir = await mkdtemp(path.join(tmpdir(), 'audit-cli-'));
    const file = await FileAuditTrail.open(path.join(dataDir, 'audit', 'audit-trail.jsonl'));
    for (const record of appendOrder) {
      await trail.append(record);
      await file.append(record);
    }
    await trail.close();
    await file.close();
  });
  afterAll(async () => {
    await dropSchema(admin, schema);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  const day = ['--patient', CHILD_WITH_DASH, '--from', '2026-11-21', '--to', '2026-11-21'];

  it('prints who accessed the patient from PostgreSQL, from the file, and as JSON', async () => {
    const [pgTable, fileTable, pgJson] = await Promise.all([
      audit([...day, '--schema', schema], { DATABASE_URL: databaseUrl() }),
      audit(day, { DATA_DIR: dataDir }),
      audit([...day, '--schema', schema, '--json'], { DATABASE_URL: databaseUrl() }),
    ]);
    expectTable(pgTable, new RegExp(`source: PostgreSQL schema ${schema}\n`));
    expectTable(fileTable, new RegExp(`source: file ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/audit/audit-trail\\.jsonl\n`));
    expect(pgJson.code).toBe(0);
    const json = JSON.parse(pgJson.stdout) as { patientId: string; from: string; to: string; count: number; records: AuditRecord[] };
    expect(json).toMatchObject({ patientId: CHILD, from: '2026-11-20T23:00:00.000Z', to: '2026-11-21T22:59:59.999Z', count: 4 });
    expect(json.records).toEqual(inWindow);
  });

  it('takes ISO date-times, local without an offset, and says when nothing was found', async () => {
    const [local, zulu] = await Promise.all([
      audit(['--patient', CHILD, '--from', '2026-11-21T10:00:02', '--to', '2026-11-21T13:30:00', '--json'], { DATA_DIR: dataDir }),
      audit(['--patient', CHILD, '--from', '2026-11-21T13:00:00Z', '--to', '2026-11-21T14:00:00+01:00'], { DATA_DIR: dataDir }),
    ]);
    expect((JSON.parse(local.stdout) as { records: AuditRecord[] }).records.map((r) => r.requestId)).toEqual(['guardian-read', 'kiosk-refused']);
    expect(zulu.code).toBe(0);
    expect(zulu.stdout).toMatch(/\n0 accesses recorded\.\n$/);
    expect(zulu.stdout).not.toMatch(/Request id/);
  });

  it('prints its usage and exits 0 for --help or -h, reading no trail', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await audit([flag], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
      expect([flag, run.code, run.stderr]).toEqual([flag, 0, '']);
      expect(run.stdout).toMatch(/^usage: npm run audit -- --patient .*\n {7}npm run audit -- --verify /);
    }
  });

  it('exits 2 with a usage line for bad arguments, before reading any trail', async () => {
    const bad = await Promise.all([
      audit(['--patient', '201701012394', '--from', '2026-11-21', '--to', '2026-11-21'], {}),
      audit(['--patient', CHILD, '--from', '2026-11-21'], {}),
      audit(['--patient', CHILD, '--from', '2026-11-22', '--to', '2026-11-21'], {}),
      audit(['--patient', CHILD, '--from', '2026-02-30', '--to', '2026-03-01'], {}),
      audit(['--patient', CHILD, '--from', '21/11/2026', '--to', '2026-11-21'], {}),
      audit([...day, '--verbose'], {}),
      audit([...day, '--schema', 'audit; drop table x'], { DATABASE_URL: databaseUrl() }),
    ]);
    const reasons = [/--patient must be a valid/, /required/, /--from must not be after --to/, /not a possible date/, /--from must be YYYY-MM-DD/, /verbose/, /--schema/];
    bad.forEach((run, i) => {
      expect([i, run.code]).toEqual([i, 2]);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(reasons[i] as RegExp);
      expect(run.stderr).toMatch(/^usage: npm run audit -- --patient <YYYYMMDDNNNC> --from .* --to .*$/m);
    });
  });

  it('exits 1 and says why when the trail cannot be read, never printing an empty report', async () => {
    const [noFile, noDatabase] = await Promise.all([
      audit(day, { DATA_DIR: path.join(dataDir, 'empty') }),
      audit(day, { DATABASE_URL: 'postgres://postgres:not-to-be-printed@127.0.0.1:1/test' }),
    ]);
    expect(noFile.code).toBe(1);
    expect(noFile.stdout).toBe('');
    expect(noFile.stderr).toMatch(/cannot read the audit trail .*no audit trail at/);
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stdout).toBe('');
    expect(noDatabase.stderr).toMatch(/cannot read the audit trail \(PostgreSQL schema audit\)/);
    expect(noDatabase.stderr).not.toContain('not-to-be-printed');
  });
});

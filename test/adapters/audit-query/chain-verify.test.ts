/**
 * `npm run audit -- --verify` (docs/operations.md#backups): the hash chain checked from the first record
 * or from a checkpoint, in PostgreSQL and in the file; the newest record's id and hash printed when it
 * holds, the first bad record named (id, time, why) and a non-zero exit when it does not.
 */
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChainKeys } from '../../../src/adapters/audit-chain/chain-keys.js';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS } from '../../support/run-script.js';
import { fullRecord } from '../audit-postgres/records.js';
import { TEST_CHAIN_KEY_FILE } from '../../support/chain-key.js';

const available = await databaseAvailable();
const BROKEN = 3;

describe.skipIf(!available)('npm run audit -- --verify', RUNS_COMMANDS, () => {
  const [intact, altered, deleted] = [freshSchema(), freshSchema(), freshSchema()];
  let admin: pg.Pool;
  let dir: string;
  let file: string;

  const verify = (args: string[], schema: string) => runScript('audit.ts', ['--verify', '--schema', schema, ...args], { DATABASE_URL: databaseUrl(), AUDIT_CHAIN_KEY_FILE: TEST_CHAIN_KEY_FILE });
  const verifyFile = (args: string[] = []) => runScript('audit.ts', ['--verify', ...args], { DATA_DIR: dir, AUDIT_CHAIN_KEY_FILE: TEST_CHAIN_KEY_FILE });
  const { signing: key } = parseChainKeys(readFileSync(TEST_CHAIN_KEY_FILE, 'utf8'), 'test key');
  const row = async (schema: string, id: number) => (await admin.query<{ hash: string; time: string }>(
    `SELECT hash, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time FROM "${schema}".access_log WHERE id = $1`, [id])).rows[0];
  /** What only the table's owner can do, with the append-only trigger set aside. */
  const tamper = async (schema: string, sql: string) => {
    const t = `"${schema}".access_log`;
    await admin.query(`ALTER TABLE ${t} DISABLE TRIGGER access_log_append_only; ${sql.replace('$t', t)}; ALTER TABLE ${t} ENABLE TRIGGER access_log_append_only`);
  };

  beforeAll(async () => {
    admin = adminPool();
    dir = await mkdtemp(path.join(tmpdir(), 'chain-verify-'));
    file = path.join(dir, 'audit', 'audit-trail.jsonl');
    const fileTrail = await FileAuditTrail.open(file, { key });
    for (const schema of [intact, altered, deleted]) {
      const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, key, onWarning: () => undefined });
      for (let n = 1; n <= 5; n++) await trail.append(fullRecord(n));
      await trail.close();
    }
    for (let n = 1; n <= 5; n++) await fileTrail.append(fullRecord(n));
    await fileTrail.close();
    await tamper(altered, `UPDATE $t SET outcome = 'denied' WHERE id = 3`);
    await tamper(deleted, 'DELETE FROM $t WHERE id = 4');
  });
  afterAll(async () => {
    for (const schema of [intact, altered, deleted]) await dropSchema(admin, schema);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('an intact chain in PostgreSQL: exit 0, the newest record\'s id, time and hash', async () => {
    const newest = await row(intact, 5);
    const run = await verify([], intact);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Audit chain of PostgreSQL schema ${intact}: intact, 5 records checked from the first record.\n`
      + `Newest record 5, ${newest?.time}, hash ${newest?.hash}\nKeyed with test-1 (5 records).\n`);
  });

  it('an altered row: exit 3, naming that row, its time and why', async () => {
    const run = await verify([], altered);
    expect(run.code).toBe(BROKEN);
    expect(run.stdout).toMatch(new RegExp(`^Audit chain of PostgreSQL schema ${altered}: BROKEN at record 3 \\(2026-11-21T09:00:03\\.123000Z\\): `
      + 'its content does not match its hash: it was altered\\.\\nLast intact record 2, '));
  });

  it('a deleted row: exit 3, naming the record after the gap and the one missing', async () => {
    const run = await verify([], deleted);
    expect(run.code).toBe(BROKEN);
    expect(run.stdout).toMatch(/BROKEN at record 5 \(2026-11-21T09:00:05\.123000Z\): it does not link to record 3 before it: record 4 is missing\./);
  });

  it('from a checkpoint: the records before it are taken on trust, a checkpoint whose hash changed is a break', async () => {
    const fromFour = await verify(['--from-checkpoint', '4'], altered);
    expect(fromFour.code).toBe(0);
    expect(fromFour.stdout).toMatch(/^Audit chain of .*: intact, 2 records checked from checkpoint record 4\.\n/);
    // Records cut from the end, or the checkpoint itself removed: the checkpoint is named as missing.
    for (const [schema, id] of [[intact, 9], [deleted, 4]] as const) {
      const gone = await verify(['--from-checkpoint', String(id)], schema);
      expect(gone.code).toBe(BROKEN);
      expect(gone.stdout).toMatch(new RegExp(`BROKEN at record ${id}: the checkpoint's record ${id} is missing: the trail was cut back or restored from an older backup\\.`));
    }
    const saved = path.join(dir, 'head.json');
    const json = await verify(['--json'], intact);
    expect(JSON.parse(json.stdout)).toMatchObject({ intact: true, checked: 5, newest: { id: 5, hash: (await row(intact, 5))?.hash }, broken: null });
    await writeFile(saved, json.stdout);
    const fromSaved = await verify(['--checkpoint', saved], intact);
    expect(fromSaved.code).toBe(0);
    expect(fromSaved.stdout).toMatch(/intact, 1 record checked from checkpoint record 5 \(its hash as recorded\)\./);
    // A head recorded elsewhere that record 5 no longer holds: it was replaced since.
    const other = path.join(dir, 'other-head.json');
    await writeFile(other, JSON.stringify({ id: 5, hash: 'ab'.repeat(32) }));
    const replaced = await verify(['--checkpoint', other], intact);
    expect(replaced.code).toBe(BROKEN);
    expect(replaced.stdout).toMatch(/BROKEN at record 5 \(.*\): it holds another hash than the checkpoint recorded: it was replaced\./);
  });

  it('the file trail: intact with its newest line, an edited line named, an unfinished last line left unchecked', async () => {
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const last = JSON.parse(lines[4] ?? '') as { hash: string; time: string };
    const whole = await verifyFile();
    expect(whole.code).toBe(0);
    expect(whole.stdout).toBe(`Audit chain of file ${file}: intact, 5 lines checked from the first line.\nNewest line 5, ${last.time}, hash ${last.hash}\n`
      + 'Keyed with test-1 (5 lines).\n');
    await appendFile(file, '{"time":"2026-11-21T09:00:06.123Z","requestId":"half');
    const unfinished = await verifyFile();
    expect(unfinished.code).toBe(0);
    expect(unfinished.stdout).toMatch(/intact, 5 lines checked .*\nThe last line is unfinished .*not checked\.\nKeyed with test-1 \(5 lines\)\.\n$/s);
    await writeFile(file, `${[...lines.slice(0, 2), (lines[2] ?? '').replace('"allowed"', '"denied"'), ...lines.slice(3)].join('\n')}\n`);
    const edited = await verifyFile();
    expect(edited.code).toBe(BROKEN);
    expect(edited.stdout).toMatch(/BROKEN at line 3 \(2026-11-21T09:00:03\.123Z\): its content does not match its hash: it was altered\./);
  });

  it('exits 2 for arguments that do not go together, 1 when there is no trail', async () => {
    const [withPatient, both, badId, noTrail] = await Promise.all([
      verify(['--patient', '191212121212'], intact), verify(['--from-checkpoint', '2', '--checkpoint', 'x.json'], intact),
      verify(['--from-checkpoint', 'two'], intact), runScript('audit.ts', ['--verify'], { DATA_DIR: path.join(dir, 'nothing') }),
    ]);
    for (const run of [withPatient, both, badId]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^ {7}npm run audit -- --verify \[--from-checkpoint <id> \| --checkpoint <file>\]/m);
    }
    expect(noTrail.code).toBe(1);
    expect(noTrail.stderr).toMatch(/cannot read the audit trail .*no audit trail at/);
  });
});

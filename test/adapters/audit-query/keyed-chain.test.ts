/**
 * Issue 44 item 6, threat 59: the audit chain is keyed (HMAC-SHA-256 under a key the store never
 * holds, its id in each record) and its heads are signed into the log, so that someone with write
 * access to the store cannot rewrite the trail and have `npm run audit -- --verify` call it intact
 * (docs/operations.md#checking-the-chain). Each store's trail holds two records from before the key,
 * two under key k1 and two under k2 (a rotation), and a head signed after the fifth.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_STORE, postgresStore } from '../../../src/adapters/audit-chain/signed-head.js';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { runScript, RUNS_COMMANDS, type ScriptRun } from '../../support/run-script.js';
import { fullRecord } from '../audit-postgres/records.js';
import { asOwner, ATTACKERS, headLine, k1, K1, k2, K2, rewriteFileTail, rewritePostgresTail, type Rewrite } from './keyed-trails.js';

const available = await databaseAvailable();
const BROKEN = 3;
const HEAD_AT = '2026-11-21T09:05:00.000Z';

/** One store's trail of six records as described above, and what can be done to it. */
interface Trail {
  /** The head signed after record 5, as a line of the service's log. */
  headFile: string;
  verify(args: string[]): Promise<ScriptRun>;
  rewrite(from: number, how: Rewrite): Promise<void>;
  /** The records from `from` on removed: no hash needs recomputing. */
  cut(from: number): Promise<void>;
  /** Record `n` stored by a service (under k2) started on the trail as it is now, as a restarted instance would. */
  append(n: number): Promise<void>;
}

interface Store {
  name: string;
  unit: 'line' | 'record';
  fresh(): Promise<Trail>;
}

let dir: string;
let admin: pg.Pool | undefined;
const schemas: string[] = [];
const files = { both: '', k1: '', k2: '', otherHead: '', alteredHead: '' };

/** Records 1-2 with no key, 3-4 under k1, 5-6 under k2; the head of the k2 trail after record 5, as `head()` gives it. */
async function sixRecords<T extends { append(r: ReturnType<typeof fullRecord>): Promise<void>; close(): Promise<void> }>(
  open: (key: typeof k1 | undefined) => Promise<T>, head: (trail: T) => Promise<{ id: number; hash: string; time?: string }>,
): Promise<{ id: number; hash: string; time?: string }> {
  let n = 0;
  for (const key of [undefined, k1]) {
    const trail = await open(key);
    for (let i = 0; i < 2; i++) await trail.append(fullRecord(++n));
    await trail.close();
  }
  const trail = await open(k2);
  await trail.append(fullRecord(++n));
  const point = await head(trail);
  await trail.append(fullRecord(++n));
  await trail.close();
  return point;
}

const FILE: Store = {
  name: 'the file trail', unit: 'line',
  async fresh() {
    const dataDir = await mkdtemp(path.join(dir, 'data-'));
    const file = path.join(dataDir, 'audit', 'audit-trail.jsonl');
    const point = await sixRecords((key) => FileAuditTrail.open(file, key === undefined ? {} : { key }), (t) => t.head());
    const headFile = path.join(dataDir, 'head.log');
    await writeFile(headFile, headLine(FILE_STORE, point, HEAD_AT));
    return {
      headFile,
      verify: (args) => runScript('audit.ts', ['--verify', ...args], { DATA_DIR: dataDir, AUDIT_CHAIN_KEY_FILE: '' }),
      rewrite: (from, how) => rewriteFileTail(file, from, how, (record) => { record.outcome = 'denied'; }),
      cut: async (from) => writeFile(file, `${(await readFile(file, 'utf8')).split('\n').slice(0, from - 1).join('\n')}\n`),
      append: async (n) => {
        const trail = await FileAuditTrail.open(file, { key: k2 });
        await trail.append(fullRecord(n));
        await trail.close();
      },
    };
  },
};

/**
 * What a chain check finds is tested here, not the append's deadline: a first append into a fresh schema
 * outlived the service's 2,500 ms once in a loaded .ci/run ("audit record not stored in PostgreSQL").
 */
const APPEND_TIMEOUT_MS = 30_000;

const POSTGRES: Store = {
  name: 'the PostgreSQL trail', unit: 'record',
  async fresh() {
    const schema = freshSchema('keyed_chain');
    schemas.push(schema);
    const point = await sixRecords(
      async (key) => PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, ...(key === undefined ? {} : { key }), appendTimeoutMs: APPEND_TIMEOUT_MS, onWarning: () => undefined }),
      (t) => t.head());
    const headFile = path.join(dir, `head-${schema}.log`);
    await writeFile(headFile, headLine(postgresStore(schema), point, HEAD_AT));
    const pool = admin as pg.Pool;
    return {
      headFile,
      verify: (args) => runScript('audit.ts', ['--verify', '--schema', schema, ...args], { DATABASE_URL: databaseUrl(), AUDIT_CHAIN_KEY_FILE: '' }),
      rewrite: (from, how) => rewritePostgresTail(pool, schema, from, how),
      cut: (from) => asOwner(pool, schema, 'DELETE FROM $t WHERE id >= $1', [from]),
      append: async (n) => {
        const trail = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, key: k2, appendTimeoutMs: APPEND_TIMEOUT_MS, onWarning: () => undefined });
        await trail.append(fullRecord(n));
        await trail.close();
      },
    };
  },
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'keyed-chain-'));
  Object.assign(files, {
    both: path.join(dir, 'keys'), k1: path.join(dir, 'k1'), k2: path.join(dir, 'k2'),
    otherHead: path.join(dir, 'other-head.log'), alteredHead: path.join(dir, 'altered-head.log'),
  });
  await writeFile(files.both, `# retired\n${K1}\n${K2}\n`);
  await writeFile(files.k1, `${K1}\n`);
  await writeFile(files.k2, `${K2}\n`);
  if (available) admin = adminPool();
});
afterAll(async () => {
  for (const schema of schemas) await dropSchema(admin as pg.Pool, schema);
  await admin?.end();
  await rm(dir, { recursive: true, force: true });
});

const stores = available ? [FILE, POSTGRES] : [FILE];

describe.each(stores)('issue 44 item 6: $name, keyed', RUNS_COMMANDS, ({ unit, fresh }) => {
  const at = (id: number): RegExp => new RegExp(`^Audit chain of .*: BROKEN at ${unit} ${id} \\(2026-11-21T09:00:0${id}\\.123(000)?Z\\): `);
  const keyed = (args: string[] = []): string[] => ['--key-file', files.both, ...args];

  it('key rotation: the records under each key and those from before the key verify; a record under a key no file holds is reported', async () => {
    const trail = await fresh();
    const [both, twoFiles, k1Only, none] = await Promise.all([
      trail.verify(keyed()), trail.verify(['--key-file', files.k1, '--key-file', files.k2]), trail.verify(['--key-file', files.k1]), trail.verify([]),
    ]);
    for (const run of [both, twoFiles]) {
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(new RegExp(`: intact, 6 ${unit}s checked from the first ${unit}\\.\\n.*\\nKeyed with k1 \\(2 ${unit}s\\), k2 \\(2 ${unit}s\\)\\.\\n`
        + `2 ${unit}s carry no key id: written before the chain had a key`));
    }
    expect(k1Only.code).toBe(BROKEN);
    expect(k1Only.stdout).toMatch(at(5));
    expect(k1Only.stdout).toContain('it is keyed with key id "k2", which no key file given holds: give the file that holds that key, or the record was forged.');
    expect(none.code).toBe(BROKEN);
    expect(none.stdout).toMatch(at(3));
    expect(none.stdout).toContain('key id "k1", which no key file given holds');
  });

  it('issue 44 item 6: a tail rewritten without the key (one record edited, the later ones chained again) fails at that record, with or without a checkpoint or a head', async () => {
    const unkeyed = await fresh();
    await unkeyed.rewrite(4, 'unkeyed');
    const guessed = await fresh();
    await guessed.rewrite(4, ATTACKERS);
    const runs = await Promise.all([
      unkeyed.verify(keyed()), unkeyed.verify(keyed(['--from-checkpoint', '3'])), unkeyed.verify(keyed(['--head', unkeyed.headFile])),
      guessed.verify(keyed()), guessed.verify(keyed(['--from-checkpoint', '2', '--head', guessed.headFile])),
    ]);
    for (const [i, run] of runs.entries()) {
      expect(run.code, `run ${i}`).toBe(BROKEN);
      expect(run.stdout, `run ${i}`).toMatch(at(4));
      expect(run.stdout, `run ${i}`).toContain(i < 3 ? 'it carries no key id after keyed records: it was rewritten without the chain key.'
        : 'its content does not match its hash: it was altered.');
    }
  });

  it('issue 52 item 10: with the chain key given, a trail rewritten from its first record without the key fails at its first record; the signed head shows the rewrite too', async () => {
    const trail = await fresh();
    await trail.rewrite(1, 'unkeyed');
    const [alone, withHead] = await Promise.all([trail.verify(keyed()), trail.verify(keyed(['--head', trail.headFile]))]);
    // Every record unkeyed, vouched for by nothing after it (before the fix: intact, exit 0).
    expect(alone.code).toBe(BROKEN);
    expect(alone.stdout).toMatch(at(1));
    expect(alone.stdout).toContain('it carries no key id, and no keyed record, signed head or checkpoint after it vouches for it: '
      + 'the trail from here was written anew without the chain key, or the service writing it has none.');
    expect(alone.stdout).toMatch(new RegExp(`\\nNo ${unit} from the first ${unit} holds\\.\\n`));
    expect(withHead.code).toBe(BROKEN);
    expect(withHead.stdout).toMatch(at(5));
    expect(withHead.stdout).toContain(`it holds another hash than the signed head of ${HEAD_AT} recorded: it, or a record before it, was rewritten`);
  });

  it('issue 52 item 10: records from before the key verify under a key only when something after them vouches for them', async () => {
    const trail = await fresh();
    // Records 1 and 2, written before the chain had a key; nothing keyed after them.
    await trail.cut(3);
    const [alone, checkpoint, noKey] = await Promise.all([trail.verify(keyed()), trail.verify(keyed(['--from-checkpoint', '2'])), trail.verify([])]);
    expect(alone.code).toBe(BROKEN);
    expect(alone.stdout).toMatch(at(1));
    // A checkpoint taken on trust at the last of them vouches for them, as a signed head naming it would.
    expect([checkpoint.code, checkpoint.stdout]).toEqual([0, expect.stringMatching(new RegExp(`: intact, 1 ${unit} checked from checkpoint ${unit} 2\\.`))]);
    // Without a key given there is nothing to expect of them: what the chain alone says.
    expect(noKey.code).toBe(0);
  });

  it('issue 44 item 6: the newest records removed leave an intact chain, and the signed head names the first one missing', async () => {
    const trail = await fresh();
    await trail.cut(5);
    const [alone, withHead] = await Promise.all([trail.verify(keyed()), trail.verify(keyed(['--head', trail.headFile]))]);
    expect(alone.code).toBe(0);
    expect(withHead.code).toBe(BROKEN);
    expect(withHead.stdout).toMatch(new RegExp(`BROKEN at ${unit} 5: the signed head of ${HEAD_AT} names ${unit} 5, and the trail ends before it: ${unit} 5 was removed\\.`));
    expect(withHead.stdout).toMatch(new RegExp(`Last intact ${unit} 4, `));
  });

  // Hostile review helper-133, F1: in PostgreSQL a row's id comes from a sequence, so rows stored after a cut
  // take later ids and link to the row before the cut. The signed head naming a removed row was passed over
  // (counted as not found) and the check said intact.
  it('the newest records removed and records stored after them: the signed head names the first one missing', async () => {
    const trail = await fresh();
    await trail.cut(5);
    await trail.append(7);
    const [alone, withHead] = await Promise.all([trail.verify(keyed()), trail.verify(keyed(['--head', trail.headFile]))]);
    expect(alone.code).toBe(0);
    expect(withHead.code).toBe(BROKEN);
    expect(withHead.stdout).toMatch(new RegExp(`BROKEN at ${unit} 5`));
    expect(withHead.stdout).toContain(unit === 'record' ? `the signed head of ${HEAD_AT} names record 5, which is missing: it was removed, and the records after it were stored over the gap.`
      : `it holds another hash than the signed head of ${HEAD_AT} recorded`);
    expect(withHead.stdout).toMatch(new RegExp(`Last intact ${unit} 4, `));
  });

  it('issue 44 item 6: a head that does not verify fails the check; heads of another trail alone are refused as arguments', async () => {
    const trail = await fresh();
    const head = await readFile(trail.headFile, 'utf8');
    await writeFile(files.alteredHead, head.replace('"id":5', '"id":4'));
    await writeFile(files.otherHead, head.replace(/"store":"[^"]+"/, '"store":"postgresql:elsewhere"'));
    const [altered, other, otherBeside] = await Promise.all([
      trail.verify(keyed(['--head', files.alteredHead])), trail.verify(keyed(['--head', files.otherHead])),
      trail.verify(keyed(['--head', files.otherHead, '--head', trail.headFile])),
    ]);
    expect(altered.code).toBe(BROKEN);
    expect(altered.stdout).toMatch(/: intact, 6 .*\nFAILED: the signed head at line 1 of .*altered-head\.log \(.*\) cannot be trusted: its MAC does not verify/s);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/no signed head given is of this trail \(.*\): 1 of another store/);
    expect(otherBeside.code).toBe(0);
    expect(otherBeside.stdout).toContain('Signed heads: 1 of 1 found holding their hash, 1 of another store passed over.');
  });
});

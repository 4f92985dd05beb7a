/**
 * Issue 43 items 6 and 11: each read's hand-kept test oracles live in its folder (`oracles.ts`,
 * test/support/read-oracles.ts), gathered with no registry line, so every read must have its file; and
 * they stay test code: the service's build leaves them out (scripts/build.ts, tsconfig.build.json), as
 * the import rules keep the service from importing one (.dependency-cruiser.cjs, import-rules.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { transpileService } from '../../scripts/build.js';
import { READ_NAMES } from '../../src/domain/operations/table.js';
import { oraclesFileOf, READ_ORACLES } from '../support/read-oracles.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const run = promisify(execFile);
const TSC = path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const isOracles = (file: string): boolean => /(^|[\\/])reads[\\/][^\\/]+[\\/]oracles\.(ts|js)$/.test(file);

describe('issue 43: a read\'s oracles, in its folder and out of the service', () => {
  const trees: string[] = [];
  afterAll(async () => Promise.all(trees.map((t) => rm(t, { recursive: true, force: true }))));

  it('every read of the operation table has its folder\'s oracles.ts, exporting its oracles under the read\'s name', () => {
    const missing = READ_NAMES.filter((read) => READ_ORACLES.get(read)?.oracles === undefined).map((read) => `${read}: ${oraclesFileOf(read)}`);
    expect(missing, 'npm run new-read writes it; docs/architecture.md#adding-a-read names what it states').toEqual([]);
    expect(READ_ORACLES.size).toBe(READ_NAMES.length);
  });

  it('the service\'s build (scripts/build.ts) writes no oracles, and its typecheck (tsconfig.build.json) reads none', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'oracles-build-'));
    trees.push(out);
    await transpileService(out);
    const built = await readdir(out, { recursive: true });
    expect(built.filter(isOracles)).toEqual([]);
    // Not a proof over an empty build: each read's operation is there, beside where its oracles would be.
    expect(READ_NAMES.filter((read) => !built.includes(path.join(path.dirname(oraclesFileOf(read)).replace(/^src\//, ''), 'operation.js')))).toEqual([]);
    const { stdout } = await run(process.execPath, [TSC, '--showConfig', '-p', 'tsconfig.build.json'], { cwd: REPOSITORY_ROOT, maxBuffer: 16 * 2 ** 20 });
    const files = (JSON.parse(stdout) as { files: string[] }).files;
    expect(files.filter(isOracles)).toEqual([]);
    expect(files).toContain('./src/reads/diagnoses/operation.ts');
  }, 60_000);
});

/**
 * docs/architecture.md#adding-a-read: `npm run new-read -- <name>` in a copy of the repository makes
 * one new folder and two registry lines, and the project still compiles with no other edit (the
 * compiler is what names what a new read still lacks, so a scaffold it refuses is a broken recipe).
 * Failed before: a test helper typed every read's FHIR plan as served (test/support/as-fhir-round-trip.ts).
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES as APP_OPERATION_NAMES } from '../../scripts/app-names/names.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const run = promisify(execFile);
const TSC = path.join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const TSX = path.join(REPOSITORY_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** The repository's tracked files, as a fresh clone has them. */
async function trackedFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z'], { cwd: REPOSITORY_ROOT, maxBuffer: 16 * 2 ** 20 });
  return stdout.split('\0').filter((f) => f !== '');
}

describe('npm run new-read in a copy of the repository', () => {
  let copy: string;
  let tracked: string[];
  beforeAll(async () => {
    copy = await mkdtemp(path.join(tmpdir(), 'pdas-new-read-'));
    tracked = await trackedFiles();
    for (const file of tracked) await cp(path.join(REPOSITORY_ROOT, file), path.join(copy, file), { recursive: false, force: true });
    await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    await run('git', ['init', '-q'], { cwd: copy });
    await run('git', ['add', '-A'], { cwd: copy });
    await run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '--no-verify', '-m', 'the repository'], { cwd: copy });
  }, 60_000);
  afterAll(async () => rm(copy, { recursive: true, force: true }));

  it('makes one folder and two registry lines, and the project compiles with no other edit', async () => {
    await run(process.execPath, [TSX, 'scripts/new-read.ts', 'referrals', '--sv', 'Remisser'], { cwd: copy });
    const { stdout } = await run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: copy });
    const changed = stdout.split('\n').filter((l) => l !== '' && !l.endsWith('node_modules'));
    const added = changed.filter((l) => l.startsWith('??')).map((l) => l.slice(3));
    const edited = changed.filter((l) => !l.startsWith('??')).map((l) => l.slice(3));
    expect(added.every((f) => f.startsWith('src/reads/referrals/'))).toBe(true);
    expect(added.length).toBeGreaterThan(0);
    expect(edited.sort()).toEqual(['src/reads/index.ts', 'src/reads/sources.ts']);
    const { stdout: diff } = await run('git', ['diff', '--numstat'], { cwd: copy });
    expect(diff.trim().split('\n').map((l) => l.split('\t').slice(0, 2).join('+'))).toEqual(['1+0', '1+0']);
    // The whole project, tests included, as `npm run typecheck` checks it.
    await expect(run(process.execPath, [TSC, '--noEmit', '-p', 'tsconfig.json'], { cwd: copy, maxBuffer: 16 * 2 ** 20 })).resolves.toBeDefined();
    // The patient app names the new read with no edit in app/: its names come from the table when it is built (issue 43 item 4).
    const names = pathToFileURL(path.join(copy, 'scripts', 'app-names', 'names.ts')).href;
    const { stdout: named } = await run(process.execPath, [TSX, '-e', `import(${JSON.stringify(names)}).then((m) => console.log(JSON.stringify(Object.keys(m.OPERATION_NAMES))))`], { cwd: copy });
    const newlyNamed = (JSON.parse(named) as string[]).filter((op) => !(op in APP_OPERATION_NAMES));
    expect(newlyNamed).toHaveLength(1);
    expect(Object.keys(APP_OPERATION_NAMES).every((op) => named.includes(JSON.stringify(op)))).toBe(true);
  }, 300_000);
});

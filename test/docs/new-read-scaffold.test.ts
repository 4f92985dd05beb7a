/**
 * docs/architecture.md#adding-a-read: `npm run new-read -- <name>` in a copy of the working tree makes
 * one new folder and two registry lines, and the project still compiles with no other edit (the
 * compiler is what names what a new read still lacks, so a scaffold it refuses is a broken recipe).
 * With `--mirror <Root>` it also writes the container answer, the extracts policy, the mirror reading,
 * a demo document, the upstream example and its test. Filled in by the recipe (test/docs/probe-read.ts:
 * demo records, a FHIR form of a new type, a release rule), the probe read changes its folder, the two
 * registry lines and its upstream example, and nothing else (the facts the typecheck asks of it are in
 * its folder's oracles.ts): the figures docs/architecture.md states are the ones measured here, and the
 * whole project compiles.
 * Failed before: a test helper typed every read's FHIR plan as served (test/support/as-fhir-round-trip.ts);
 * the docs' example name (referrals) once a real read took it; a copy of the tracked files only.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES as APP_OPERATION_NAMES } from '../../scripts/app-names/names.js';
import { mirrorNamesOf } from '../../scripts/new-read/mirror-templates.js';
import { namesOf } from '../../scripts/new-read/templates.js';
import { TYPE_CHECKER } from '../../scripts/typecheck.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';
import { fillInProbe } from './probe-read.js';

const run = promisify(execFile);
/** Node with tsx's loader, as test/support/run-script.ts runs commands: tsx's own launcher is one more process a command. */
const TSX = ['--import', 'tsx'];
/**
 * tsc's record of its last check of a copy (`--incremental`), kept between runs so a run rechecks only
 * what changed since (the check took 68 of the file's 110 s here with TypeScript 5.9): tsc checks each file whose text or
 * whose dependencies' types changed again, and repeats the errors of the rest from the record, so the
 * answer is a full check's. Under node_modules, as the installed TypeScript it belongs to: `npm ci` drops both; named for the
 * checker that writes it (scripts/typecheck.ts), so a record of another TypeScript's is never read.
 */
const KEPT_BUILD_INFO = path.join(REPOSITORY_ROOT, 'node_modules', '.cache', 'pdas-new-read-scaffold', 'typescript-native.tsbuildinfo');
const COMMIT = ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '--no-verify', '-m'];

/**
 * A read name no real read can have taken: letters only (a scope's resource is letters). The same in
 * every run (each run has a copy of its own), so the typecheck's record of the last run
 * (KEPT_BUILD_INFO) holds the scaffolded reads too: with a name of each run's own, the registry the
 * whole service imports differed each time, and tsc checked nearly every file again (108 s of 130 here).
 */
const uniqueName = (prefix: string): string => `${prefix}-scaffolded`;

/** The working tree as it is, tracked and untracked files alike (not what git ignores), as a new read's engineer has it. */
async function workingTree(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPOSITORY_ROOT, maxBuffer: 16 * 2 ** 20 });
  return [...new Set(stdout.split('\0'))].filter((f) => f !== '' && existsSync(path.join(REPOSITORY_ROOT, f)));
}

/** What changed in the copy since its last commit: added and edited files, and the edits' `+added-deleted` lines. */
async function changes(copy: string): Promise<{ added: string[]; edited: string[]; numstat: string[] }> {
  const { stdout } = await run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: copy });
  const lines = stdout.split('\n').filter((l) => l !== '' && !l.endsWith('node_modules'));
  const { stdout: diff } = await run('git', ['diff', '--numstat'], { cwd: copy });
  return {
    added: lines.filter((l) => l.startsWith('??')).map((l) => l.slice(3)).sort(),
    edited: lines.filter((l) => !l.startsWith('??')).map((l) => l.slice(3)).sort(),
    numstat: diff.trim().split('\n').filter((l) => l !== '').map((l) => l.split('\t').slice(0, 2).join('+')),
  };
}

/** The lines of new files. */
async function linesOf(copy: string, files: readonly string[]): Promise<number> {
  let lines = 0;
  for (const file of files) lines += (await readFile(path.join(copy, file), 'utf8')).split('\n').filter((l, i, all) => i < all.length - 1 || l !== '').length;
  return lines;
}

/** The files the typecheck names, as `npm run typecheck` checks the project (tests included). */
async function typecheckErrors(copy: string): Promise<string[]> {
  // In the copy's root, so the record names the files by the same relative paths whichever temporary folder the copy is in.
  const buildInfo = path.join(copy, 'tsconfig.tsbuildinfo');
  // None in a fresh clone: the check is then a full one.
  await cp(KEPT_BUILD_INFO, buildInfo).catch(() => undefined);
  try {
    // One checker: the suite's other files already keep both cores busy, and more would only take turns with them.
    await run(process.execPath, [TYPE_CHECKER, '--noEmit', '--checkers', '1', '--incremental', '--tsBuildInfoFile', buildInfo, '-p', 'tsconfig.json'], { cwd: copy, maxBuffer: 16 * 2 ** 20 });
    return [];
  } catch (err) {
    const out = (err as { stdout?: string }).stdout ?? String(err);
    return [...new Set(out.split('\n').filter((l) => /^\S+\(\d+,\d+\): error/.test(l)).map((l) => l.slice(0, l.indexOf('('))))].sort();
  } finally {
    // By rename, so a run beside this one never reads half a record.
    const next = `${KEPT_BUILD_INFO}.${process.pid}`;
    await mkdir(path.dirname(KEPT_BUILD_INFO), { recursive: true });
    await cp(buildInfo, next).then(() => rename(next, KEPT_BUILD_INFO)).catch(() => undefined);
  }
}

describe('npm run new-read in a copy of the working tree', () => {
  let copy: string;
  const plain = uniqueName('zz-plain');
  const probe = namesOf(uniqueName('zz-probe'), 'Prov');
  const mirror = mirrorNamesOf(probe, `${probe.pascal}EHRExtracts`);
  let scaffolded = { files: 0, lines: 0 };
  beforeAll(async () => {
    copy = await mkdtemp(path.join(tmpdir(), 'pdas-new-read-'));
    for (const file of await workingTree()) await cp(path.join(REPOSITORY_ROOT, file), path.join(copy, file), { force: true });
    await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    await run('git', ['init', '-q'], { cwd: copy });
    await run('git', ['add', '-A'], { cwd: copy });
    await run('git', [...COMMIT, 'the working tree'], { cwd: copy });
  }, 60_000);
  afterAll(async () => rm(copy, { recursive: true, force: true }));

  it('makes one folder and two registry lines (+1 line each)', async () => {
    await run(process.execPath, [...TSX, 'scripts/new-read.ts', plain, '--sv', 'Prov'], { cwd: copy });
    const { added, edited, numstat } = await changes(copy);
    expect(added.length).toBeGreaterThan(0);
    expect(added.filter((f) => !f.startsWith(`src/reads/${plain}/`))).toEqual([]);
    expect(edited).toEqual(['src/reads/index.ts', 'src/reads/sources.ts']);
    expect(numstat).toEqual(['1+0', '1+0']);
    // The patient app names the new read with no edit in app/: its names come from the table when it is built (issue 43 item 4).
    const names = pathToFileURL(path.join(copy, 'scripts', 'app-names', 'names.ts')).href;
    const { stdout: named } = await run(process.execPath, [...TSX, '-e', `import(${JSON.stringify(names)}).then((m) => console.log(JSON.stringify(Object.keys(m.OPERATION_NAMES))))`], { cwd: copy });
    const newlyNamed = (JSON.parse(named) as string[]).filter((op) => !(op in APP_OPERATION_NAMES));
    expect(newlyNamed).toHaveLength(1);
    expect(Object.keys(APP_OPERATION_NAMES).every((op) => named.includes(JSON.stringify(op)))).toBe(true);
    await run('git', ['add', '-A'], { cwd: copy });
    await run('git', [...COMMIT, plain], { cwd: copy });
  }, 60_000);

  it('with --mirror also writes the mirror reading, the demo document, the upstream example and its test', async () => {
    await run(process.execPath, [...TSX, 'scripts/new-read.ts', probe.name, '--mirror', mirror.root], { cwd: copy });
    const { added, edited, numstat } = await changes(copy);
    expect(added).toEqual([
      ...['README.md', 'answer.ts', 'demo-xml.ts', 'demo.ts', 'example.json', 'operation.test.ts', 'operation.ts', 'oracles.ts', 'sources.ts', 'xml.test.ts']
        .map((f) => `src/reads/${probe.name}/${f}`),
      `test/fixtures/upstream/${mirror.kind}.xml`,
    ]);
    expect(edited).toEqual(['src/reads/index.ts', 'src/reads/sources.ts']);
    expect(numstat).toEqual(['1+0', '1+0']);
    scaffolded = { files: added.length + edited.length, lines: await linesOf(copy, added) + 2 };
    await run('git', ['add', '-A'], { cwd: copy });
    await run('git', [...COMMIT, probe.name], { cwd: copy });
  }, 60_000);

  it('filled in by the recipe, the probe read changes its folder and nothing else, as the docs say', async () => {
    await fillInProbe(copy, probe, mirror);
    // Step 4's last move: the OpenAPI example, as the demo person sees the answer.
    await run(process.execPath, [...TSX, 'scripts/openapi-examples.ts'], { cwd: copy });
    const { added, edited, numstat } = await changes(copy);
    const inFolder = (f: string): boolean => f.startsWith(`src/reads/${probe.name}/`);
    expect(added.filter((f) => !inFolder(f))).toEqual([]);
    expect(edited.filter((f) => !inFolder(f))).toEqual([]);
    const filled = { files: added.length + edited.length, lines: await linesOf(copy, added) + numstat.reduce((sum, n) => sum + Number(n.split('+')[0]), 0) };
    const figures = `the scaffold made ${scaffolded.files} files (+${scaffolded.lines} lines): ${scaffolded.files - 3} in the folder, `
      + `the two registry lines and the upstream example; filling it in changed ${filled.files} files (+${filled.lines} lines), all in the folder`;
    // Its section of the patient app, as its form describes it, with no edit in app/ (issue 57 item 2).
    const names = pathToFileURL(path.join(copy, 'scripts', 'app-names', 'names.ts')).href;
    const { stdout: sections } = await run(process.execPath, [...TSX, '-e', `import(${JSON.stringify(names)}).then((m) => console.log(JSON.stringify(m.APP_READS)))`], { cwd: copy });
    expect((JSON.parse(sections) as { read: string }[]).find((r) => r.read === probe.operation)).toEqual({
      read: probe.operation, title: expect.objectContaining({ en: probe.en }) as unknown, searches: ['CarePlan?patient={id}'], view: 'list', types: ['CarePlan'], keepsDigits: false,
    });
    const docs = (await readFile(path.join(REPOSITORY_ROOT, 'docs', 'architecture.md'), 'utf8')).replace(/\s+/g, ' ');
    expect(docs.includes(figures), `docs/architecture.md#adding-a-read states the measured figures: "${figures}"`).toBe(true);
  }, 60_000);

  it('compiles, the plain read with no other edit and the filled-in probe read with everything it has', async () => {
    expect(await typecheckErrors(copy)).toEqual([]);
  }, 300_000);
});

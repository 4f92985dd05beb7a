/**
 * Issue 47 item 1: `npm start` builds dist/ without the type checker (tsc ran 10 to 40 s before the
 * first line reached the screen), says what it is doing, and what it builds runs. The build goes into
 * a folder of its own beside package.json and node_modules, as a fresh clone has them; the service
 * then starts from it in demo mode and serves the API's documentation and the patient app.
 */
import { copyFile, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTS } from '../../scripts/typecheck.js';
import { RUNS_COMMANDS, runScript } from '../support/run-script.js';
import { whileServing } from '../support/spawn-service.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('issue 47 item 1: the build npm start runs', RUNS_COMMANDS, () => {
  let clone: string;
  beforeAll(async () => {
    clone = await mkdtemp(path.join(tmpdir(), 'pdas-start-build-'));
    await copyFile(path.join(ROOT, 'package.json'), path.join(clone, 'package.json'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
  });
  afterAll(async () => rm(clone, { recursive: true, force: true }));

  it('is the transpile-only build, never tsc; npm run build type-checks first', async () => {
    const { scripts } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.prestart).toBe('tsx scripts/build.ts --transpile-only');
    expect(scripts.build).toBe('tsx scripts/build.ts');
    // What CI runs before the suite checks the app's types too, which npm start no longer does.
    expect(scripts.typecheck).toBe('node --import tsx scripts/typecheck.ts');
    expect(PROJECTS).toContain(path.join('app', 'tsconfig.json'));
  });

  it('says what it builds before it builds, and the service runs from what it built', async () => {
    const dist = path.join(clone, 'dist');
    const built = await runScript('build.ts', ['--transpile-only', '--out-dir', dist], {});
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    const lines = built.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Building .*dist\/ from src\/ and app\/ for npm start: esbuild, transpile only \(the type check is npm run typecheck\) …$/);
    expect(lines.at(-1)).toMatch(/^Built .*dist\/ in \d+\.\d s: the service \(\d+ modules, \d+ files written\), the patient app\.$/);

    const ran = await whileServing(path.join(dist, 'server.js'), path.join(clone, 'data'),
      async (api) => Promise.all([fetch(`${api}/docs/`), fetch(`${api}/app/`)]).then((answers) => answers.map((a) => a.status)));
    expect(ran).toEqual({ code: 0, visited: [200, 200] });
  });
});

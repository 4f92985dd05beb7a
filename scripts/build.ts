// `npm run build` and `npm start`'s prestart: dist/ from src/ (the service) and app/ (the patient app).
// One emitter for both, esbuild, file by file as tsc would write them (ES modules, source maps beside),
// so what `npm start` runs is what the image runs. `npm run build` type-checks first (tsc, the service's
// sources and the app), so an image never holds code that does not compile; `npm start` transpiles only
// (--transpile-only): well under a second and says so, where tsc took 10 to 40 s before the first line
// (docs/running.md#the-demo-defaults-and-what-npm-start-runs). The typecheck is `npm run typecheck`, run by CI.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { DEMO_POLICY_FILES } from '../src/start/demo-policies.js';
import { buildPatientApp, patientAppIsCurrent, writeAtomically } from './build-app.js';
import { typecheck } from './typecheck.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
export const DIST = path.join(ROOT, 'dist');
/** dist/app is the patient app's (scripts/build-app.ts): the service's build leaves it alone. */
const APP_DIR = 'app';

/** Every file below `dir`, as paths relative to it. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

/** Test code beside the service's: the tests, and each read's hand-kept test oracles (test/support/read-oracles.ts). */
const isTestCode = (f: string): boolean => /\.test\.ts$/.test(f) || /^reads[\\/][^\\/]+[\\/]oracles\.ts$/.test(f);
/** What the service's build reads: its modules (not the test code beside them) and the JSON they import. */
const isSource = (f: string): boolean => /\.ts$/.test(f) && !/\.d\.ts$/.test(f) && !isTestCode(f);
const isJson = (f: string): boolean => f.endsWith('.json');

/**
 * Writes `contents` unless the file already holds exactly that (an unchanged module keeps its time), and
 * whole: a service already running from dist/ that imports a module late never reads half of one.
 */
async function writeIfChanged(file: string, contents: Uint8Array): Promise<boolean> {
  const before = await readFile(file).catch(() => undefined);
  if (before !== undefined && Buffer.compare(before, contents) === 0) return false;
  await mkdir(path.dirname(file), { recursive: true });
  await writeAtomically(file, contents);
  return true;
}

/**
 * src/ as JavaScript in dist/, one module per source (not bundled: the composition root imports an
 * adapter only when the settings pick it), each with its source map; the JSON the modules import is
 * copied beside them; a file in dist/ that no source makes any more (a module removed) is deleted.
 */
export async function transpileService(outDir = DIST): Promise<{ modules: number; written: number }> {
  const sources = await filesBelow(SRC);
  const result = await build({
    entryPoints: sources.filter(isSource).map((f) => path.join(SRC, f)),
    outdir: outDir, outbase: SRC, write: false, bundle: false,
    format: 'esm', platform: 'node', target: 'node22',
    sourcemap: 'linked', sourcesContent: false,
    tsconfig: path.join(ROOT, 'tsconfig.build.json'), logLevel: 'warning',
  });
  const outputs = new Map(result.outputFiles.map((f) => [f.path, f.contents]));
  for (const json of sources.filter(isJson)) outputs.set(path.join(outDir, json), await readFile(path.join(SRC, json)));
  // The example release policies demo mode runs when RELEASE_POLICY_FILE is unset, so the image can run the demo too.
  for (const name of Object.values(DEMO_POLICY_FILES)) outputs.set(path.join(outDir, 'examples', name), await readFile(path.join(ROOT, 'examples', name)));
  let written = 0;
  for (const [file, contents] of outputs) if (await writeIfChanged(file, contents)) written += 1;
  const stale = (await filesBelow(outDir).catch(() => [])).filter((f) => f.split(path.sep)[0] !== APP_DIR && !outputs.has(path.join(outDir, f)));
  await Promise.all(stale.map((f) => rm(path.join(outDir, f), { force: true })));
  return { modules: sources.filter(isSource).length, written };
}

const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main(transpileOnly: boolean, outDir: string): Promise<void> {
  const started = performance.now();
  const shown = outDir.startsWith(ROOT) ? path.relative(ROOT, outDir) : outDir;
  if (transpileOnly) {
    console.log(`Building ${shown}/ from src/ and app/ for npm start: esbuild, transpile only (the type check is npm run typecheck) …`);
  } else {
    console.log('Type-checking src/ and app/ (tsc) …');
    typecheck(['tsconfig.build.json', path.join('app', 'tsconfig.json')]);
    console.log(`Type-checked in ${seconds(started)}; building ${shown}/ (esbuild) …`);
  }
  const service = await transpileService(outDir);
  const appDir = path.join(outDir, APP_DIR);
  const appCurrent = await patientAppIsCurrent(appDir);
  if (!appCurrent) await buildPatientApp({ typecheck: false }, appDir);
  console.log(`Built ${shown}/ in ${seconds(started)}: the service (${service.modules} modules, ${service.written} files written), `
    + `the patient app${appCurrent ? ' (unchanged)' : ''}.`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'transpile-only': { type: 'boolean', default: false }, 'out-dir': { type: 'string' } } });
  await main(values['transpile-only'], path.resolve(values['out-dir'] ?? DIST));
}

// `npm run build:app`: type-checks the patient app (app/, its own tsconfig with the DOM library) and
// bundles it with esbuild into dist/app/ (docs/patient-app.md): main.js with fhirclient and Chart.js
// inside, index.html and style.css. The service serves those files itself; nothing comes from a CDN.
// scripts/build.ts builds it too, after its own type check of app/ (`npm run build`) or without one (`npm start`).
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type ts from 'typescript';
import { accessLogNamesForEsbuild, namesModuleSource } from './app-names/modules.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const APP = path.join(ROOT, 'app');
export const APP_OUT_DIR = path.join(ROOT, 'dist', 'app');

/**
 * fhirclient requires polyfills for browsers without fetch or WebCrypto (cross-fetch,
 * isomorphic-webcrypto) behind checks that never pass in a browser the page supports: empty
 * modules in their place keep them and their own dependencies out of the bundle.
 */
const UNUSED_POLYFILLS: Plugin = {
  name: 'unused-polyfills',
  setup(b) {
    b.onResolve({ filter: /^(isomorphic-webcrypto|cross-fetch|abortcontroller-polyfill)(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'unused-polyfill' }));
    b.onLoad({ filter: /.*/, namespace: 'unused-polyfill' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/** The app's type errors, as tsc prints them; none is an empty list. TypeScript is loaded only when asked (npm start never does). */
export async function typecheckApp(): Promise<string[]> {
  const { default: typescript } = await import('typescript');
  const host: ts.ParseConfigFileHost = { ...typescript.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(typescript.flattenDiagnosticMessageText(d.messageText, '\n')); } };
  const config = typescript.getParsedCommandLineOfConfigFile(path.join(APP, 'tsconfig.json'), {}, host);
  if (config === undefined) throw new Error('app/tsconfig.json could not be read');
  const diagnostics = typescript.getPreEmitDiagnostics(typescript.createProgram(config.fileNames, config.options));
  return diagnostics.map((d) => {
    const where = d.file === undefined || d.start === undefined ? '' : (() => {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${path.relative(ROOT, d.file.fileName)}:${line + 1}:${character + 1}: `;
    })();
    return `${where}${typescript.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** Each file is written beside its place and renamed into it, so a test reading dist/app meanwhile sees whole files. */
export async function writeAtomically(file: string, contents: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

/** The access log's names the bundle was built with (a dot file: the service never serves it), so a changed operation table rebuilds the app. */
const NAMES_STAMP = '.access-log-names';

export async function buildPatientApp(options: { typecheck: boolean } = { typecheck: true }, outDir = APP_OUT_DIR): Promise<void> {
  const problems = options.typecheck ? await typecheckApp() : [];
  if (problems.length > 0) throw new Error(`app/ does not type-check:\n${problems.join('\n')}`);
  const bundle = await build({
    entryPoints: [path.join(APP, 'src', 'main.ts')],
    bundle: true, format: 'esm', platform: 'browser', target: 'es2020', minify: true, write: false,
    outfile: path.join(outDir, 'main.js'),
    // fhirclient's "pure" build: the browser's own fetch and AbortController, no polyfills.
    define: { FHIRCLIENT_PURE: 'true', 'process.env.NODE_ENV': '"production"' },
    plugins: [UNUSED_POLYFILLS, accessLogNamesForEsbuild],
    logLevel: 'warning',
  });
  const css = await build({ entryPoints: [path.join(APP, 'style.css')], bundle: true, minify: true, write: false, outfile: path.join(outDir, 'style.css'), logLevel: 'warning' });
  await mkdir(outDir, { recursive: true });
  for (const file of [...bundle.outputFiles, ...css.outputFiles]) await writeAtomically(file.path, file.contents);
  await writeAtomically(path.join(outDir, 'index.html'), await readFile(path.join(APP, 'index.html')));
  await writeAtomically(path.join(outDir, NAMES_STAMP), await namesModuleSource());
}

async function newestChange(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestChange(full) : (await stat(full)).mtimeMs);
  }
  return newest;
}

/** Whether dist/app was built after the last change to app/, this script or the installed packages, with the operation table's names of now. */
export async function patientAppIsCurrent(outDir = APP_OUT_DIR): Promise<boolean> {
  const built = await Promise.all(['main.js', 'index.html', 'style.css'].map((f) => stat(path.join(outDir, f)).then((s) => s.mtimeMs, () => 0)));
  const sources = Math.max(await newestChange(APP), ...await Promise.all([fileURLToPath(import.meta.url), path.join(ROOT, 'package-lock.json')]
    .map((f) => stat(f).then((s) => s.mtimeMs))));
  if (Math.min(...built) <= sources) return false;
  return await readFile(path.join(outDir, NAMES_STAMP), 'utf8').catch(() => undefined) === await namesModuleSource();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildPatientApp();
  console.log(`patient app built into ${path.relative(process.cwd(), APP_OUT_DIR) || APP_OUT_DIR}`);
}

/**
 * The project's type check: TypeScript 7's native compiler (the `typescript-native` package, an alias of
 * `typescript@7`), which checks the service's program in a third of the CPU time of TypeScript 5.9's
 * (8–11 against 33 s of CPU here; docs/testing.md). `typescript` 5.9 stays installed for what needs its
 * JavaScript API, which TypeScript 7 does not have: typescript-eslint's typed rules and openapi-typescript.
 * Both report the same errors on this code; `npm run typecheck`, `npm run build` and the scaffold's test
 * (test/docs/new-read-scaffold.test.ts) all check through this file.
 *
 *   node --import tsx scripts/typecheck.ts
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** TypeScript 7's `tsc`, run with `node`: its package exports no path to it, so by its manifest's `bin`. */
const MANIFEST = createRequire(import.meta.url).resolve('typescript-native/package.json');
export const TYPE_CHECKER = path.join(path.dirname(MANIFEST), (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { bin: { tsc: string } }).bin.tsc);

/** What `npm run typecheck` checks: the service with its tests and tools, the patient app, and the app's DOM tests. */
export const PROJECTS = ['tsconfig.json', path.join('app', 'tsconfig.json'), path.join('test', 'app-dom', 'tsconfig.json')] as const;

/** Checks each project in turn, printing tsc's own report; throws at the first with errors. */
export function typecheck(projects: readonly string[], cwd = ROOT): void {
  for (const project of projects) execFileSync(process.execPath, [TYPE_CHECKER, '--noEmit', '-p', project], { cwd, stdio: 'inherit' });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    typecheck(PROJECTS);
  } catch {
    // tsc printed the errors; its stack trace would only bury them.
    process.exitCode = 1;
  }
}

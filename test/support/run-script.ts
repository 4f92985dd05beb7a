import { execFile } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import { bundleOf } from './command-bundles.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The options of a describe block whose tests run commands: each is a process of its own (tsx
 * compiling the command), 1.3 to 2.2 s here and over 3 s on a loaded machine, and a test runs up to
 * six in a row (chain-verify's checkpoint test took 20.3 s once in a full run and timed out at the
 * default 20 s). A time-out is no speed target, so these blocks get room.
 */
export const RUNS_COMMANDS = { timeout: 90_000 } as const;

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** How long one command may take before it counts as hung: a loaded CI machine took over 15 s to start one. */
const SCRIPT_TIMEOUT_MS = 45_000;

/** What node runs for `scripts/<script>`, from the repository's root: its bundle when there is one and `asOperator` is not asked, else the script by tsx. */
export function commandEntry(script: string, asOperator = false): string[] {
  const bundle = !asOperator && inject('commandBundles') === true ? bundleOf(script) : undefined;
  return bundle === undefined ? ['--import', 'tsx', path.join('scripts', script)] : [bundle];
}

/**
 * `scripts/<script> ...` run as a process, bounded so a hang fails the test: its bundle when `npm test`
 * built one (test/support/command-bundles.ts, a fifth of the CPU), else by tsx as an operator runs it
 * (`npm run <name> -- ...`; `asOperator` asks for that always). DATABASE_URL and DATA_DIR start empty:
 * a test names the store it means. Node with tsx's loader, not `npx tsx`: npx and tsx's own launcher
 * were two more processes a run, some 0.4 s each.
 */
export function runScript(script: string, args: readonly string[], env: Record<string, string>, options: { timeoutMs?: number; asOperator?: boolean } = {}): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...commandEntry(script, options.asOperator === true), ...args], {
      cwd: ROOT, timeout: options.timeoutMs ?? SCRIPT_TIMEOUT_MS, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env },
    }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') });
    });
  });
}

/**
 * `run` over each of `items`, at most `atOnce` at a time, the results in the items' order: a test that
 * runs one command on many bad arguments waits for a few processes at once rather than each in turn.
 */
export async function inTurns<T, R>(items: readonly T[], atOnce: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await run(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  return results;
}

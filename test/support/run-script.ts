import { execFile } from 'node:child_process';
import path from 'node:path';

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

/**
 * `scripts/<script> ...` run by tsx as an operator runs it (`npm run <name> -- ...`), bounded so a hang
 * fails the test. DATABASE_URL and DATA_DIR start empty: a test names the store it means. Node with tsx's
 * loader, not `npx tsx`: npx and tsx's own launcher were two more processes a run, some 0.4 s each.
 */
export function runScript(script: string, args: readonly string[], env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', path.join('scripts', script), ...args], {
      cwd: ROOT, timeout: options.timeoutMs ?? SCRIPT_TIMEOUT_MS, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env },
    }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') });
    });
  });
}

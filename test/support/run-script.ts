import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npx tsx scripts/<script> ...` as an operator runs it (`npm run <name> -- ...`), bounded so a hang
 * fails the test. DATABASE_URL and DATA_DIR start empty: a test names the store it means.
 */
export function runScript(script: string, args: readonly string[], env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile('npx', ['tsx', path.join('scripts', script), ...args], {
      cwd: ROOT, timeout: 15_000, env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...env },
    }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') });
    });
  });
}

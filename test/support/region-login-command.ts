// `npm run region-login -- <folder> …` (scripts/region-login.ts) as a person runs it, in a process of its
// own on a port the kernel picks, until it says where it listens; and stopped as Ctrl-C stops it. Its
// bundle when `npm test` built one (test/support/command-bundles.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { commandEntry } from './run-script.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface StandIn { issuer: string; stdout: string; child: ChildProcess }

export function startStandIn(folder: string, args: string[] = []): Promise<StandIn> {
  const child = spawn(process.execPath, [...commandEntry('region-login.ts'), folder, '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`region-login did not start: ${stdout}`));
    }, 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const issuer = /SIGN_IN_LOGIN_ISSUER=(\S+)/.exec(stdout)?.[1];
      if (issuer !== undefined) {
        clearTimeout(timer);
        resolve({ issuer, stdout, child });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`region-login ended (${String(code)}): ${stdout}`));
    });
  });
}

export const stopStandIn = (child: ChildProcess): Promise<void> => new Promise((resolve) => {
  if (child.exitCode !== null) return resolve();
  child.once('exit', () => resolve());
  child.kill('SIGTERM');
});

import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { builtServiceArgs } from './built-service.js';
import { inheritedEnv } from './compile-cache.js';

export interface ServiceRun { code: number | null; stdout: string; stderr: string }

/** The service's environment: loopback, every port 0 unless `env` says otherwise, `dataDir` its DATA_DIR. */
const serviceEnv = (env: Record<string, string>, dataDir: string): Record<string, string | undefined> =>
  ({ ...inheritedEnv(), HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', DATA_DIR: dataDir, ...env });

/**
 * Runs the real service (dist/server.js, as `npm start` runs it: built-service.ts) on loopback with every port
 * 0 unless `env` says otherwise, until it ends by itself or `stopWhen(stdout)` holds (then SIGTERM).
 * Bounded: a service still running after 60 s is killed and the promise rejects.
 */
export async function runService(env: Record<string, string>, dataDir: string, stopWhen: (stdout: string) => boolean = () => false): Promise<ServiceRun> {
  const service = await builtServiceArgs();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, service, { env: serviceEnv(env, dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service was still running after 60 s: ${stdout}${stderr}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stopWhen(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setImmediate(() => resolve({ code, stdout, stderr }));
    });
  });
}

/**
 * A start that ends by itself (a refusal), its stdout and stderr written to one file as a terminal
 * shows them: in the order the process wrote them. Bounded as runService is.
 */
export async function runServiceOnScreen(env: Record<string, string>, dataDir: string): Promise<{ code: number | null; screen: string }> {
  const service = await builtServiceArgs();
  const file = path.join(dataDir, 'screen.txt');
  const fd = openSync(file, 'w');
  const child = spawn(process.execPath, service, { env: serviceEnv(env, dataDir), stdio: ['ignore', fd, fd] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service was still running after 60 s: ${readFileSync(file, 'utf8')}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      closeSync(fd);
      resolve({ code, screen: readFileSync(file, 'utf8') });
    });
  });
}

/**
 * The built service (`node <entry>`, e.g. dist/server.js) in demo mode while `visit` uses it at the
 * address its banner names; then SIGTERM, and its exit code beside what `visit` answered. Bounded by
 * 60 s, as runService is.
 */
export function whileServing<T>(entry: string, dataDir: string, visit: (api: string) => Promise<T>): Promise<{ code: number | null; visited: T }> {
  const child = spawn(process.execPath, [entry], { env: serviceEnv({}, dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner, or still running, after 60 s: ${output}`));
    }, 60_000);
    let visited: Promise<T> | undefined;
    const read = (d: Buffer) => {
      output += d.toString();
      const api = /\(DEMO MODE\) on (http:\/\/\S+)/.exec(output)?.[1];
      if (api === undefined || visited !== undefined) return;
      visited = visit(api).finally(() => child.kill('SIGTERM'));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (visited === undefined) reject(new Error(`ended without a banner (${code}): ${output}`));
      else visited.then((v) => resolve({ code, visited: v }), reject);
    });
  });
}

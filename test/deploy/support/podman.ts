/**
 * podman as this machine needs it: runc (crun fails on its cgroups) and low ulimits on every
 * container. Always asynchronous: the EHR simulator and the token issuer the containers call run in
 * the test's own process, so its event loop must keep turning while podman works.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

const RUNC = '/usr/sbin/runc';
export const PODMAN_GLOBAL = existsSync(RUNC) ? ['--runtime', RUNC] : [];
export const LIMITS = ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1000:1000'];

export interface Run { code: number; stdout: string; stderr: string }

/** Runs `command args`; resolves with its exit code and output (never rejects on a non-zero exit). */
export function run(command: string, args: readonly string[], options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024, env: options.env ?? process.env }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr: err !== null && stderr === '' ? err.message : stderr });
    });
  });
}

/** podman with this machine's runtime; `env` adds variables a `-e NAME` (no value) passes on, so secrets stay off the command line. */
export function podman(args: readonly string[], timeoutMs = 60_000, env: Record<string, string> = {}): Promise<Run> {
  return run('podman', [...PODMAN_GLOBAL, ...args], { timeoutMs, env: { ...process.env, ...env } });
}

/** podman that must succeed: its output, or an error naming the command and what it said. */
export async function podmanOk(args: readonly string[], timeoutMs = 60_000, env: Record<string, string> = {}): Promise<string> {
  const result = await podman(args, timeoutMs, env);
  if (result.code !== 0) throw new Error(`podman ${args.slice(0, 3).join(' ')} … failed (${result.code}): ${withoutSystemdNoise(result.stderr).slice(-2000)}`);
  return result.stdout;
}

/**
 * Podman schedules HEALTHCHECKs with systemd timers; without systemd (as here) it logs an error for
 * each container and carries on. `podman healthcheck run` still runs the check on demand.
 */
export function withoutSystemdNoise(text: string): string {
  return text.split('\n').filter((l) => !l.includes('systemd connection')).join('\n');
}

export function inCi(): boolean {
  const ci = (process.env.CI ?? '').toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false';
}

/** What test:deploy needs on PATH, and the Debian package that brings each. */
export async function missingTools(needBase: boolean): Promise<string[]> {
  const tools: Array<[string, string]> = [['podman', 'podman'], ['haproxy', 'haproxy'], ...(needBase ? [['debootstrap', 'debootstrap'] as [string, string]] : [])];
  const missing: string[] = [];
  for (const [tool, pkg] of tools) {
    if ((await run('sh', ['-c', `command -v ${tool}`])).code !== 0) missing.push(pkg);
  }
  if (!existsSync(RUNC) && (await run('sh', ['-c', 'command -v runc || command -v crun'])).code !== 0) missing.push('runc');
  return missing;
}

/** The processes a soak starts (the service, the EHR simulator): spawned, watched, and always stopped. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface LogScan {
  lines: number;
  /** pino level 50+ (error, fatal). */
  errors: string[];
  warnings: number;
  /** Lines holding a secret or an identity number they must never hold (their first 300 characters). */
  leaks: string[];
  /** The last lines, for a report when the process fails. */
  tail: string[];
}

/** A node process running a TypeScript entry point, its output scanned line by line and never kept whole. */
export class ChildNode {
  readonly scan: LogScan = { lines: 0, errors: [], warnings: 0, leaks: [], tail: [] };
  exitCode: number | null = null;
  signal: NodeJS.Signals | null = null;
  readonly exited: Promise<void>;
  private partial = '';

  private constructor(readonly name: string, readonly child: ChildProcess, private readonly forbidden: readonly string[]) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.signal = signal;
        resolve();
      });
    });
    const onData = (data: Buffer): void => {
      const text = this.partial + data.toString('utf8');
      const lines = text.split('\n');
      this.partial = (lines.pop() ?? '').slice(-100_000);
      for (const line of lines) this.line(line);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  }

  /** `node --import tsx <entry>` in `cwd` with exactly `env` (plus PATH). */
  static start(name: string, entry: string, cwd: string, env: Record<string, string>, forbidden: readonly string[] = []): ChildNode {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ChildNode(name, child, forbidden);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === null && this.signal === null;
  }

  /** Resident set size from /proc (bytes), or undefined once the process is gone. */
  async rssBytes(): Promise<number | undefined> {
    if (this.pid === undefined || !this.running) return undefined;
    try {
      const status = await readFile(`/proc/${this.pid}/status`, 'utf8');
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. Resolves once it has exited. */
  async stop(graceMs: number): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** For an exit handler: no waiting, no promises. */
  killNow(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  private line(line: string): void {
    if (line.trim() === '') return;
    const s = this.scan;
    s.lines += 1;
    s.tail.push(line.slice(0, 500));
    if (s.tail.length > 40) s.tail.shift();
    const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? '0');
    if (level >= 50 && s.errors.length < 50) s.errors.push(line.slice(0, 500));
    if (level === 40) s.warnings += 1;
    if (s.leaks.length < 20 && this.forbidden.some((f) => line.includes(f))) s.leaks.push(line.slice(0, 300));
  }
}

/** Polls `url` until it answers `status` (bounded); throws with `why()` appended otherwise. */
export async function waitFor(url: string, status: number, timeoutMs: number, why: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === status) return;
      last = `status ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (last: ${last})\n${why()}`);
}

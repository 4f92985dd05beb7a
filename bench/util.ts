/** Small helpers shared by the bench scripts: CPU pinning, free ports, waiting, numbers and tables. */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

let tasksetChecked: boolean | undefined;

/** Whether `taskset` (util-linux) can be run here. */
export function hasTaskset(): boolean {
  if (tasksetChecked === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      tasksetChecked = true;
    } catch {
      tasksetChecked = false;
    }
  }
  return tasksetChecked;
}

/** Pins every thread of this process to one core (when taskset exists); returns whether it did. */
export function pinSelf(core: number): boolean {
  if (!hasTaskset()) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `[command, args]` that runs `command args` pinned to `core` when taskset exists. */
export function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return hasTaskset() ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

/**
 * A free port on 127.0.0.1 for a server whose address must be known before it starts (PUBLIC_BASE_URL,
 * a redirect URI). A port from `listen(0)` lies in the system's ephemeral range, which every outgoing
 * connection draws its local port from: one took such a port between our close and the server's listen
 * (EADDRINUSE, CI of a137b54). So the port is drawn below that range, where only an explicit bind takes
 * one, and checked free; `listen(0)` only where the system leaves no room below its range. A port a
 * browser refuses (BROWSER_REFUSED_PORTS) is never handed out. `draw`: a number in [0, 1), as Math.random.
 */
export async function freePort(draw: () => number = Math.random): Promise<number> {
  const [low] = ephemeralPorts();
  const floor = 10_000;
  for (let attempt = 0; low - floor > 1_000 && attempt < 64; attempt++) {
    const port = floor + Math.floor(draw() * (low - floor));
    if (!BROWSER_REFUSED_PORTS.has(port) && await bindable(port)) return port;
  }
  for (;;) {
    const port = await listenedPort(0);
    if (!BROWSER_REFUSED_PORTS.has(port)) return port;
  }
}

/** The system's ephemeral port range, `[first, last]` (Linux's file; its default elsewhere). */
export function ephemeralPorts(): [number, number] {
  try {
    const [first, last] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(first) && Number.isInteger(last)) return [first!, last!];
  } catch { /* not Linux: its default range */ }
  return [32_768, 60_999];
}

/**
 * The ports a browser refuses to open (the Fetch standard's "bad ports", Chromium's ERR_UNSAFE_PORT): a
 * browser test's service drawn on 10080 could not be opened (CI of 83d0223), so none is handed out.
 */
export const BROWSER_REFUSED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const bindable = (port: number): Promise<boolean> => listenedPort(port).then(() => true, () => false);

function listenedPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => {
      const address = srv.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(bound));
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `check` until it is true or `timeoutMs` has passed. `ended`: the process being waited for,
 * if any: once it has exited, waiting stops at once with its exit code and the last line of its log
 * (`log`, where its output goes), which is where a start that was refused says why.
 */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000, ended?: { child: ChildProcess; log: string }): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (ended !== undefined && ended.child.exitCode !== null) {
      throw new Error(`${what}: it exited with ${ended.child.exitCode} before it listened: ${lastLine(ended.log)} (all of it in ${ended.log})`);
    }
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The last non-empty line of a file, or what kept it from being read. */
function lastLine(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) ?? '';
  } catch (err) {
    return `(no log: ${(err as Error).message})`;
  }
}

/** Peak resident set (VmHWM) of a process, in bytes; undefined where /proc is missing. */
export function peakRss(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets a process's VmHWM to its current RSS (Linux `clear_refs` 5); returns whether it could. */
export function resetPeakRss(pid: number): boolean {
  try {
    execFileSync('sh', ['-c', `echo 5 > /proc/${pid}/clear_refs`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** utime + stime of a process from /proc/<pid>/stat, in microseconds. */
export function procCpuUs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1e6) / 100;
  } catch {
    return undefined;
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export const median = (xs: readonly number[]): number => percentile([...xs].sort((a, b) => a - b), 50);

export function fmt(n: number | undefined, digits = 0): string {
  if (n === undefined || Number.isNaN(n)) return '–';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A plain Markdown table. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const write = (text: string): void => void process.stdout.write(`${text}\n`);

/** The service as `npm start` runs it: compiled JavaScript, no TypeScript loader in the process. */
export const SERVICE_ENTRY = 'dist/server.js';

/** dist/ as `npm start` builds it (scripts/build.ts), so the bench always measures the sources as they are now. */
export function buildService(): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--transpile-only'], { stdio: 'inherit' });
}

/** The node flags `npm start` gives the service, read from package.json so the bench cannot drift from it. */
export function serviceNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const words = (scripts.start ?? '').split(/\s+/).filter(Boolean);
  if (words[0] !== 'node' || words.at(-1) !== SERVICE_ENTRY) throw new Error(`npm start is not "node [flags] ${SERVICE_ENTRY}"`);
  return words.slice(1, -1);
}

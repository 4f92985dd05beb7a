/**
 * Part 9 of `npm run bench` (`--only slow-reader`): callers that ask for the ~9 MiB journal over
 * xml-http and never read the answer (docs/contract.md#what-never-happens, SEND_MIN_BYTES_PER_S).
 * One process, warmed up by one full read: its peak RSS over one more such read alone, then over 60
 * connections (issue 44 item 12; 40 before) that each take their answer's first bytes and stop
 * reading, until the service has cut every one of them. 9a: the 60 ask at once; most then wait for
 * the EHR's fetch room past EHR_TIMEOUT_MS and are answered 504 (src/adapters/ehr-xml-http/fetch-room.ts),
 * holding no large answer at all. 9b: they ask one after the other, each once the one before has
 * had its first bytes, so that each would hold a large answer: the worst case. Past
 * SEND_MAX_LARGE_ANSWERS (32) the rest are answered 503 and hold nothing
 * (src/http/serialization/large-answers.ts); 9c is 9b with that limit lifted, as before it was
 * there. A connection answered other than 200 is closed at its first bytes. A paused socket sees no reset, so each
 * connection writes zero bytes every 100 ms: the write fails with ECONNRESET once the service has
 * reset it, and sends nothing before.
 */
import { connect } from 'node:net';
import { request } from 'undici';
import { fmt, peakRss, sleep, table } from './util.js';

/** The service under test, as bench/run.ts's Target gives it. */
export interface MeasuredService {
  readonly origin: string;
  readonly pid: number;
  reset(): Promise<unknown>;
  /** With BENCH_MEMORY_PEAK: process.memoryUsage() when the sampled RSS peaked. */
  stats(): Promise<{ peak?: Record<string, unknown> }>;
}

export interface SlowReaderResult {
  scenario: string;
  connections: number;
  answerBytes: number;
  /** SEND_GRACE_MS + the answer's bytes at SEND_MIN_BYTES_PER_S: when each must have been closed. */
  boundMs: number;
  alonePeakMB: number | undefined;
  slowPeakMB: number | undefined;
  /** For each answer of 200, from its first byte to the reset the connection saw; undefined: still open at the end. */
  closedAfterMs: Array<number | undefined>;
  /** Each answer's status, from its first bytes. */
  statuses: number[];
  /** From the first connection's first byte to the last one's. */
  startedWithinMs: number;
  /** With BENCH_MEMORY_PEAK: what the peak of the never-readers was made of, MB. */
  peakOf: Record<string, unknown> | undefined;
  /** The service answered a full read after the cuts. */
  afterwards: number;
}

const PROBE_MS = 100;

interface NeverReader {
  /** Resolves with the answer's status once its first bytes have come. */
  begun: Promise<{ status: number; at: number }>;
  /** From the answer's first byte to the reset the connection saw; undefined if still open after `giveUpMs`. */
  closed: Promise<number | undefined>;
}

/** One connection that asks once, takes the first bytes of the answer and then never reads again. */
function neverReader(origin: string, path: string, headers: Record<string, string>, giveUpMs: number): NeverReader {
  const { hostname, port } = new URL(origin);
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const socket = connect(Number(port), hostname);
  let firstByte: number | undefined;
  let probe: NodeJS.Timeout | undefined;
  let done: (at: number | undefined) => void = () => undefined;
  const begun = new Promise<{ status: number; at: number }>((resolve) => socket.once('data', (chunk: Buffer) => {
    firstByte = performance.now();
    socket.pause();
    const status = Number(chunk.subarray(9, 12).toString('latin1'));
    resolve({ status, at: firstByte });
    // A refusal holds nothing of the answer: not a reader the deadline must cut.
    if (status !== 200) done(undefined);
    else probe = setInterval(() => socket.write(Buffer.alloc(0)), PROBE_MS);
  }));
  const closed = new Promise<number | undefined>((resolve) => {
    done = (at: number | undefined): void => {
      clearInterval(probe);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(at === undefined || firstByte === undefined ? undefined : at - firstByte);
    };
    const giveUp = setTimeout(() => done(undefined), giveUpMs);
    socket.once('error', () => done(performance.now()));
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n${head}\r\n`);
  return { begun, closed };
}

async function readWhole(origin: string, path: string, headers: Record<string, string>): Promise<number> {
  const res = await request(origin + path, { headers });
  const bytes = Buffer.byteLength(await res.body.text());
  if (res.statusCode !== 200) throw new Error(`${path}: status ${res.statusCode}`);
  return bytes;
}

export async function measureSlowReaders(
  service: MeasuredService, scenario: string, path: string, headers: Record<string, string>,
  limits: { graceMs: number; minBytesPerS: number }, oneAfterAnother: boolean, connections = 60,
): Promise<SlowReaderResult> {
  // The warm-up read: the first one after a start may miss EHR_TIMEOUT_MS on a loaded machine.
  let answerBytes = 0;
  for (let attempt = 1; answerBytes === 0; attempt++) {
    answerBytes = await readWhole(service.origin, path, headers).catch((err: unknown) => {
      if (attempt >= 3) throw err;
      return 0;
    });
  }
  const boundMs = limits.graceMs + (answerBytes / limits.minBytesPerS) * 1000;
  await service.reset();
  await readWhole(service.origin, path, headers);
  const alone = peakRss(service.pid);
  await service.reset();
  const readers: NeverReader[] = [];
  for (let i = 0; i < connections; i++) {
    const reader = neverReader(service.origin, path, headers, boundMs + 60_000);
    readers.push(reader);
    if (oneAfterAnother) await reader.begun;
  }
  const begun = await Promise.all(readers.map((r) => r.begun));
  const closedAll = await Promise.all(readers.map((r) => r.closed));
  const closedAfterMs = closedAll.filter((_ms, i) => begun[i]?.status === 200);
  const slow = peakRss(service.pid);
  const { peak } = await service.stats();
  const peakOf = peak === undefined ? undefined
    : Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v / 2 ** 20) : v]));
  await sleep(100);
  const afterwards = await readWhole(service.origin, path, headers);
  const mb = (n: number | undefined): number | undefined => (n === undefined ? undefined : n / 2 ** 20);
  begun.sort((a, b) => a.at - b.at);
  return {
    scenario, peakOf, connections, answerBytes, boundMs, alonePeakMB: mb(alone), slowPeakMB: mb(slow), closedAfterMs, afterwards,
    statuses: begun.map((b) => b.status), startedWithinMs: (begun.at(-1)?.at ?? 0) - (begun[0]?.at ?? 0),
  };
}

export function slowReaderTable(results: SlowReaderResult[]): string {
  const s = (ms: number | undefined): string => fmt(ms === undefined ? undefined : ms / 1000, 1);
  return table(
    ['scenario', 'connections', 'answer MB', 'peak RSS MB, one read alone', 'peak RSS MB, all never reading', 'added MB', 'first bytes within s', 'closed after first byte, s: min / median / max', 'bound s', 'of 200 still open', 'not 200'],
    results.map((r) => {
      const closed = r.closedAfterMs.filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
      return [
        r.scenario, String(r.connections), fmt(r.answerBytes / 2 ** 20, 1), fmt(r.alonePeakMB), fmt(r.slowPeakMB), fmt((r.slowPeakMB ?? Number.NaN) - (r.alonePeakMB ?? Number.NaN)),
        s(r.startedWithinMs), `${s(closed[0])} / ${s(closed[Math.floor(closed.length / 2)])} / ${s(closed.at(-1))}`,
        s(r.boundMs), String(r.closedAfterMs.length - closed.length), String(r.statuses.filter((status) => status !== 200).length),
      ];
    }),
  );
}

/**
 * The open-loop load generator, in a process of its own (started by open-loop.ts): requests arrive
 * as a Poisson process at a fixed rate whatever the server does, each latency measured from the
 * request's scheduled arrival (no coordinated omission).
 *
 * Why not undici here: an open-loop generator must not stall, or its own pauses are counted as the
 * server's latency. Run in the bench's orchestrator with undici, it collected garbage (full
 * collections included) and was descheduled often enough that in traces half the bursts of slow
 * answers began with the generator sending 10–28 ms late while the server's loop was idle. wrk2,
 * the usual tool, is not available here. So this is a bare HTTP/1.1 keep-alive client that
 * allocates almost nothing per request: one prebuilt request, arrival times drawn beforehand,
 * results in typed arrays. It reads only what it needs: the status and Content-Length (the
 * service never answers chunked; a chunked or unparseable answer counts as an error and its
 * connection is dropped).
 *
 * Protocol over IPC: the parent sends one `GeneratorTask`; the generator answers `{ type: 'measuring' }`
 * when the measured part starts and then `{ type: 'result', result }`, and exits.
 */
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import process from 'node:process';
import { percentile } from './util.js';

export interface GeneratorTask {
  origin: string;
  path: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  warmupSeconds: number;
  /** Where to write the per-request trace (BENCH_OPEN_LOOP_TRACE), if anywhere. */
  traceFile?: string;
}

export interface GeneratorResult {
  sent: number;
  completed: number;
  errors: number;
  non2xx: number;
  /** How many measured answers had each status other than 2xx. */
  statuses: Record<number, number>;
  /** Latency percentiles of the measured requests, ms. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late this generator sent measured requests (ms after their arrival): its own share of the latency. */
  sendLagP99Ms: number;
  sendLagMaxMs: number;
}

/**
 * Connections, all opened before the first arrival and kept (as wrk2 does), so a burst after a
 * stall does not also make the server accept hundreds of new connections. A request that finds
 * none free waits here, its latency still counted from its arrival.
 */
const CONNECTIONS = 256;
const DRAIN_MS = 15_000;
const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection carrying one request at a time. */
interface Connection {
  socket: Socket;
  connected: boolean;
  /** Index of the request in flight, or -1. */
  request: number;
  /** Bytes of an answer's head seen so far, when it came in more than one chunk. */
  head: Buffer | undefined;
  /** Body bytes still to come, or -1 while the head is being read. */
  bodyLeft: number;
}

export function run(task: GeneratorTask, onMeasuring: () => void): Promise<GeneratorResult> {
  const { hostname, port } = new URL(task.origin);
  const headerLines = Object.entries(task.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const requestBytes = Buffer.from(`GET ${task.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${headerLines}\r\n`, 'latin1');

  // Arrival times drawn beforehand (ms from start): exponential gaps, a Poisson process of `rate` per second.
  const totalMs = (task.warmupSeconds + task.seconds) * 1000;
  const capacity = Math.ceil(task.rate * (task.seconds + task.warmupSeconds) * 1.5) + 100;
  const arrival = new Float64Array(capacity);
  let count = 0;
  for (let t = 0; count < capacity;) {
    t += (-Math.log(1 - Math.random()) * 1000) / task.rate;
    if (t >= totalMs) break;
    arrival[count++] = t;
  }
  const warmMs = task.warmupSeconds * 1000;
  // Requests count.. are the priming ones, one per connection, sent before the first arrival.
  const total = count + CONNECTIONS;
  const sentAt = new Float64Array(total);
  const headAt = new Float64Array(total);
  const doneAt = new Float64Array(total).fill(Number.NaN);
  const status = new Uint16Array(total);

  const idle: Connection[] = [];
  const open = new Set<Connection>();
  let connecting = 0;
  // Requests waiting for a connection, in arrival order (a ring would do; a plain index suffices since they are served in order).
  const waiting: number[] = [];
  let waitingHead = 0;
  let start = 0;
  let started = false;
  let priming = false;
  let stopped = false;
  let reopened = 0;
  let finished = 0;
  let begin: () => void = () => undefined;

  const now = (): number => performance.now() - start;

  /** Drops a connection; its request, if any, stays unanswered and counts as an error. */
  const fail = (conn: Connection): void => {
    if (conn.request >= 0) {
      finished++;
      conn.request = -1;
    }
    if (open.delete(conn)) {
      const i = idle.indexOf(conn);
      if (i >= 0) idle.splice(i, 1);
    } else if (!conn.connected) {
      connecting--;
      conn.connected = true;
    }
    conn.socket.destroy();
    primed();
    // Lost connections are replaced, so the pool keeps its size (a bounded number of times: a server that is gone stays gone).
    if (started && !stopped && reopened < CONNECTIONS * 4 && open.size + connecting < CONNECTIONS) {
      reopened++;
      openConnection();
    }
  };

  const send = (conn: Connection, request: number): void => {
    conn.request = request;
    conn.head = undefined;
    conn.bodyLeft = -1;
    sentAt[request] = now();
    conn.socket.write(requestBytes);
  };

  const release = (conn: Connection): void => {
    if (waitingHead < waiting.length) send(conn, waiting[waitingHead++]!);
    else idle.push(conn);
    primed();
  };

  const primed = (): void => {
    if (!priming || finished < CONNECTIONS) return;
    priming = false;
    begin();
  };

  /**
   * One request on every connection before the first arrival: Node's server answers 408 and closes
   * a connection that has sent no request within its headers timeout (10 s here), so a connection
   * first used late in the run could meet that 408 in flight. A used keep-alive connection may idle.
   */
  const prime = (): void => {
    priming = true;
    let i = count;
    for (const conn of open) send(conn, i++);
  };

  const onHead = (conn: Connection, head: Buffer): boolean => {
    const text = head.toString('latin1');
    const code = Number(text.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(text);
    if (!Number.isInteger(code) || !length || /\r\ntransfer-encoding:/i.test(text)) return false;
    status[conn.request] = code;
    headAt[conn.request] = now();
    conn.bodyLeft = Number(length[1]);
    return true;
  };

  const onData = (conn: Connection, chunk: Buffer): void => {
    if (conn.request < 0) return fail(conn);
    let rest = chunk;
    if (conn.bodyLeft < 0) {
      const head = conn.head ? Buffer.concat([conn.head, chunk]) : chunk;
      const end = head.indexOf(HEADER_END);
      if (end < 0) {
        conn.head = head;
        return;
      }
      if (!onHead(conn, head.subarray(0, end + 4))) return fail(conn);
      rest = head.subarray(end + 4);
    }
    conn.bodyLeft -= rest.length;
    if (conn.bodyLeft > 0) return;
    if (conn.bodyLeft < 0) return fail(conn);
    doneAt[conn.request] = now();
    conn.request = -1;
    finished++;
    release(conn);
  };

  const openConnection = (): void => {
    connecting++;
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    const conn: Connection = { socket, connected: false, request: -1, head: undefined, bodyLeft: -1 };
    socket.once('connect', () => {
      connecting--;
      conn.connected = true;
      open.add(conn);
      // The first connections wait to be primed all together; a replacement goes to work at once.
      if (started) release(conn);
      else if (open.size === CONNECTIONS) prime();
    });
    socket.on('data', (chunk: Buffer) => onData(conn, chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => fail(conn));
  };

  const dispatch = (request: number): void => {
    const conn = idle.pop();
    if (conn) return send(conn, request);
    waiting.push(request);
  };

  return new Promise((resolve, reject) => {
    let next = 0;
    let measuring = false;
    const notConnected = setTimeout(() => reject(new Error(`could not open ${CONNECTIONS} connections to ${task.origin}`)), 10_000);
    begin = () => {
      started = true;
      finished = 0;
      clearTimeout(notConnected);
      start = performance.now();
      tick();
    };
    const tick = (): void => {
      const t = now();
      if (!measuring && t >= warmMs) {
        measuring = true;
        onMeasuring();
      }
      while (next < count && arrival[next]! <= t) dispatch(next++);
      if (next < count) {
        setTimeout(tick, Math.max(0, Math.min(5, arrival[next]! - now())));
        return;
      }
      const drainUntil = now() + DRAIN_MS;
      const drain = (): void => {
        if (finished < count && now() < drainUntil) {
          setTimeout(drain, 10);
          return;
        }
        stopped = true;
        for (const conn of [...open]) conn.socket.destroy();
        resolve(summarise());
      };
      drain();
    };
    for (let i = 0; i < CONNECTIONS; i++) openConnection();
  });

  function summarise(): GeneratorResult {
    const latencies: number[] = [];
    const lags: number[] = [];
    const trace: string[] = [];
    let sent = 0;
    let non2xx = 0;
    const statuses: Record<number, number> = {};
    let lost = 0;
    for (let i = 0; i < count; i++) {
      if (arrival[i]! < warmMs) continue;
      sent++;
      if (Number.isNaN(doneAt[i]!)) {
        lost++;
        continue;
      }
      if (status[i]! < 200 || status[i]! >= 300) {
        non2xx++;
        statuses[status[i]!] = (statuses[status[i]!] ?? 0) + 1;
      }
      const latency = doneAt[i]! - arrival[i]!;
      latencies.push(latency);
      lags.push(sentAt[i]! - arrival[i]!);
      if (task.traceFile) {
        trace.push(`${(arrival[i]! - warmMs).toFixed(2)} ${latency.toFixed(3)} ${(sentAt[i]! - arrival[i]!).toFixed(3)} ${(headAt[i]! - arrival[i]!).toFixed(3)}`);
      }
    }
    if (task.traceFile) {
      // The header gives the measured part's start as Unix ms, to line the trace up with the server's own logs.
      writeFileSync(task.traceFile, `# measured from ${(performance.timeOrigin + start + warmMs).toFixed(1)}\n${trace.join('\n')}\n`);
    }
    latencies.sort((a, b) => a - b);
    lags.sort((a, b) => a - b);
    return {
      sent,
      completed: latencies.length,
      // Requests whose connection failed, and those still unanswered when the drain ran out.
      errors: lost,
      non2xx,
      statuses,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? Number.NaN,
      sendLagP99Ms: percentile(lags, 99),
      sendLagMaxMs: lags.at(-1) ?? Number.NaN,
    };
  }
}

if (process.send) {
  process.once('message', (task: GeneratorTask) => {
    void run(task, () => process.send?.({ type: 'measuring' })).then((result) => {
      process.send?.({ type: 'result', result }, () => process.exit(0));
    });
  });
}

/**
 * Issue 34 item 4: a caller that stops reading holds memory (docs/contract.md#what-never-happens).
 * An answer must be taken at SEND_MIN_BYTES_PER_S after SEND_GRACE_MS, counted from its first
 * byte, or its connection is reset and the rest dropped. Here both are small, so that a ~6 MB
 * journal answer (larger than what the kernel's socket buffers take of it) must be taken within
 * 0.3 s + 6 s: a connection that never reads must be gone by then, one that reads a little faster
 * than the rate never cut, and the service must go on answering.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeDocument } from '../../bench/fixtures.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { createLogger } from '../../src/http/logging.js';
import { startDemoService, type DemoService } from '../support/demo-service.js';
import { SCHEDULING_SLACK_MS } from '../support/scheduling.js';

const PATIENT = '198112189876';
const DEMO_PATIENT = '191212121212';
const GRACE_MS = 300;
const MIN_BYTES_PER_S = 2 ** 20;

interface Stalled {
  /** From when it stopped reading to the reset the connection saw; undefined if it was still open `giveUpMs` after that. */
  closedAfterMs: number | undefined;
  firstBytes: Buffer;
}

/**
 * Asks, reads until `readBytes` have come (the first bytes of the answer by default) and then
 * never reads again. A paused socket notices no reset, so it writes zero bytes every 20 ms: that
 * fails once the connection is reset and sends nothing before. It gives up `giveUpMs` after it
 * stopped reading (the send deadline counts from there, not from the request, which may wait its
 * turn for answer memory behind the other stalled answers), or after a minute without an answer.
 */
function stallingReader(port: number, requests: string, giveUpMs: number, readBytes = 1): Promise<Stalled> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let stalledAt: number | undefined;
    let firstBytes: Buffer | undefined;
    let received = 0;
    let probe: NodeJS.Timeout | undefined;
    const done = (at: number | undefined): void => {
      clearInterval(probe);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs: at === undefined || stalledAt === undefined ? undefined : at - stalledAt, firstBytes: firstBytes ?? Buffer.alloc(0) });
    };
    let giveUp = setTimeout(() => done(undefined), 60_000);
    socket.once('error', () => done(performance.now()));
    socket.on('data', (chunk: Buffer) => {
      firstBytes ??= chunk;
      received += chunk.length;
      if (received < readBytes) return;
      stalledAt = performance.now();
      clearTimeout(giveUp);
      giveUp = setTimeout(() => done(undefined), giveUpMs);
      socket.pause();
      socket.removeAllListeners('data');
      probe = setInterval(() => socket.write(Buffer.alloc(0)), 20);
    });
    socket.write(requests);
  });
}

/**
 * Reads one answer at `bytesPerS` (unpaced when omitted), counting its bytes; resolves with its
 * status line and body length, and the error that ended the connection if one did.
 */
function paceReader(port: number, request: string, bytesPerS = Number.POSITIVE_INFINITY): Promise<{ status: string; bodyBytes: number; error?: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let head = Buffer.alloc(0);
    let headEnd = -1;
    let received = 0;
    let started: number | undefined;
    let expected = Number.POSITIVE_INFINITY;
    const finish = (error?: string): void => {
      socket.destroy();
      const status = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      resolve({ status, bodyBytes: headEnd < 0 ? 0 : received - headEnd - 4, ...(error ? { error } : {}) });
    };
    socket.on('error', (err: NodeJS.ErrnoException) => finish(err.code ?? err.message));
    socket.on('data', (chunk: Buffer) => {
      started ??= performance.now();
      received += chunk.length;
      if (headEnd < 0) {
        head = Buffer.concat([head, chunk]);
        headEnd = head.indexOf('\r\n\r\n');
        if (headEnd >= 0) expected = Number(/content-length: (\d+)/i.exec(head.subarray(0, headEnd).toString('latin1'))?.[1]);
      }
      if (headEnd >= 0 && received - headEnd - 4 >= expected) {
        finish();
        return;
      }
      // Ahead of the pace: wait until the bytes read so far are due.
      const aheadMs = (received / bytesPerS) * 1000 - (performance.now() - started);
      if (aheadMs > 0) {
        socket.pause();
        setTimeout(() => socket.resume(), aheadMs);
      }
    });
    socket.write(request);
  });
}

describe('issue 34 item 4: an answer not taken at SEND_MIN_BYTES_PER_S is cut', () => {
  let dir: string;
  let service: DemoService;
  let port: number;
  let request: (id: string) => string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-send-deadline-'));
    const ehrDir = path.join(dir, 'ehr');
    await generateDemoData(ehrDir, { now: Date.now(), zone: 'Europe/Stockholm' });
    const demoJournal = await readFile(path.join(ehrDir, 'patients', DEMO_PATIENT, 'journalnotes.xml'), 'utf8');
    await mkdir(path.join(ehrDir, 'patients', PATIENT), { recursive: true });
    await writeFile(path.join(ehrDir, 'patients', PATIENT, 'journalnotes.xml'), largeDocument(demoJournal, 9 * 2 ** 20).split(DEMO_PATIENT).join(PATIENT));
    const log = new Writable({ write(chunk: Buffer, _encoding, callback) { lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>); callback(); } });
    service = await startDemoService({
      DATA_DIR: path.join(dir, 'data'), EHR_DATA_DIR: ehrDir, SEND_GRACE_MS: String(GRACE_MS), SEND_MIN_BYTES_PER_S: String(MIN_BYTES_PER_S),
      // The answer's size is the point (more than the kernel's buffers take), not what the demo's example policy withholds of it.
      RELEASE_POLICY_FILE: 'none',
    }, createLogger('info', log));
    port = Number(new URL(service.api).port);
    const token = await service.clientToken('user/JournalNote-read');
    request = (id) => `GET /patients/journalnotes/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nOcp-Apim-Subscription-Key: ${service.key}\r\n`
      + `Authorization: Bearer ${token}\r\npatient: ${PATIENT}\r\nX-Request-Id: ${id}\r\n\r\n`;
  }, 60_000);

  afterAll(async () => {
    await service?.runtime.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('issue 34 item 4: connections that never read are reset within the grace plus the answer\'s size at the rate; a caller reading just above the rate gets all of it; the next requests are answered', async () => {
    const whole = await paceReader(port, request('whole-first'));
    expect(whole.status).toBe('HTTP/1.1 200 OK');
    const answerBytes = whole.bodyBytes;
    // Larger than the kernel's buffers take of it: what is left must be held in the process.
    expect(answerBytes).toBeGreaterThan(5 * 2 ** 20);
    const boundMs = GRACE_MS + (answerBytes / MIN_BYTES_PER_S) * 1000;

    const [stalled, paced] = await Promise.all([
      Promise.all([
        ...Array.from({ length: 3 }, (_, i) => stallingReader(port, request(`never-read-${i}`), boundMs + 10_000)),
        // Pipelined: the first answer read in full, then nothing of the second (its deadline counts from its own first byte).
        stallingReader(port, request('read-first') + request('never-read-second'), boundMs + 10_000, answerBytes + 2000),
      ]),
      paceReader(port, request('paced'), MIN_BYTES_PER_S * 1.5),
    ]);
    expect(stalled.map((s) => s.firstBytes.subarray(0, 15).toString('latin1'))).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
    expect(paced).toEqual({ status: 'HTTP/1.1 200 OK', bodyBytes: answerBytes });

    // One line per cut, naming the request and what it had taken, and no identity number.
    const cuts = lines.filter((l) => String(l.msg).startsWith('answer not taken'));
    expect(cuts.every((l) => Number(l.takenBytes) < answerBytes && l.answerBytes === answerBytes)).toBe(true);
    expect(JSON.stringify(cuts)).not.toContain(PATIENT);
    // The audit record was stored before the answer began: a cut answer released part of the record, and stays audited as allowed.
    // The cut line names the service's own request id; the record beside it keeps the caller's for operators.
    const trail = (await readFile(path.join(dir, 'data', 'audit', 'audit-trail.jsonl'), 'utf8')).split('\n').filter(Boolean)
      .map((line) => JSON.parse(line) as { requestId?: string; callerRequestId?: string; outcome?: string; status?: number });
    const recordsOf = (l: Record<string, unknown>) => trail.filter((r) => r.requestId === l.reqId);
    const cutIds = cuts.flatMap((l) => recordsOf(l).map((r) => r.callerRequestId));

    // The pipelined caller read its first answer at full speed, and the kernel may grow a reading
    // socket's receive buffer far beyond the answer (net.ipv4.tcp_rmem allows 32 MiB on these
    // machines): then it takes all of the second answer, which leaves the process in full and is no
    // longer the service's to hold or cut. That, and only that, excuses it: no cut, the answer
    // finished (its "request completed" line, written once the last byte left the process), the
    // connection left open with the bytes in the caller's kernel. The three that never read are cut.
    // (A loopback probe on this machine: after a reader took 6.2 MB at full speed and stopped, the
    // kernel took a second 6.2 MB in 77 ms in one run of two, and none of it in the other; CI failed
    // so once, "still open", with the service right.)
    const [second] = stalled.slice(3);
    const takenInFull = second?.closedAfterMs === undefined && !cutIds.includes('never-read-second')
      && lines.some((l) => l.msg === 'request completed' && l.callerRequestId === 'never-read-second');
    const mustBeCut = takenInFull ? stalled.slice(0, 3) : stalled;
    const late = mustBeCut.filter((s) => s.closedAfterMs === undefined || s.closedAfterMs > boundMs + SCHEDULING_SLACK_MS);
    expect({ late: late.map((s) => s.closedAfterMs ?? 'still open'), boundMs }).toEqual({ late: [], boundMs });
    expect(cutIds.sort()).toEqual(['never-read-0', 'never-read-1', 'never-read-2', ...(takenInFull ? [] : ['never-read-second'])]);
    expect(cuts.map((l) => recordsOf(l).map((r) => [r.outcome, r.status]))).toEqual(Array(cuts.length).fill([['allowed', 200]]));

    const next = await Promise.all([paceReader(port, request('after-1')), paceReader(port, request('after-2'))]);
    expect(next).toEqual(Array(2).fill({ status: 'HTTP/1.1 200 OK', bodyBytes: answerBytes }));
  }, 60_000);
});

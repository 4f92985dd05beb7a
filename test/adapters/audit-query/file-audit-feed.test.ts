/**
 * What only the file audit feed meets (src/adapters/audit-query/file-audit-feed.ts): a last line still
 * being written is left for the next call, a trail cut shorter than the position or replaced by
 * another file is told and read on from its end, and a call reads a bounded stretch, never the file.
 */
import { appendFile, mkdtemp, readFile, rename, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { FileAuditFeed } from '../../../src/adapters/audit-query/file-audit-feed.js';
import { AuditFeedUnavailableError } from '../../../src/ports/audit-feed.port.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { CHILD, T0, trailRecords } from './access-log-records.js';

const offsetOf = (position: string): number => Number(/^file:(\d+):/.exec(position)?.[1]);

/** The request ids of every record from `position` on, over as many calls as the bound takes, and where they end. */
async function drain(feed: FileAuditFeed, position: string): Promise<{ ids: string[]; position: string }> {
  const ids: string[] = [];
  for (let calls = 0; calls < 100; calls++) {
    const page = await feed.after(position, 10);
    if (page.position === position) break;
    ids.push(...page.records.map((r) => r.requestId));
    position = page.position;
  }
  return { ids, position };
}

describe('the file audit feed', () => {
  let dir: string;
  let file: string;
  let warnings: string[];
  let feed: FileAuditFeed;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-file-feed-'));
    file = path.join(dir, 'audit-trail.jsonl');
    warnings = [];
    feed = new FileAuditFeed(file, { onWarning: (m) => warnings.push(m) });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function write(records: readonly AuditRecord[]): Promise<void> {
    const trail = await FileAuditTrail.open(file);
    // As the service appends: the trail keeps the order of the calls.
    await Promise.all(records.map((r) => trail.append(r)));
    await trail.close();
  }

  const read = (n: number, at: number): AuditRecord => ({
    time: new Date(at).toISOString(), requestId: `r-${n}`, serviceRequestId: `r-${n}`, operation: 'getLabResults', patientId: CHILD,
    outcome: 'allowed', status: 200, sourceAddress: '10.1.2.3',
  });

  it('before the trail exists, starts at nothing; then gives what the first trail writes', async () => {
    const start = await feed.after(undefined, 10);
    expect(start).toEqual({ records: [], position: 'file:0:' });
    await write([read(1, T0)]);
    expect((await feed.after(start.position, 10)).records.map((r) => r.requestId)).toEqual(['r-1']);
  });

  it('leaves a torn last line for the next call, which gives it once it is whole', async () => {
    await write([read(1, T0)]);
    const start = (await feed.after(undefined, 10)).position;
    await write([read(2, T0 + 1)]);
    const whole = await readFile(file, 'utf8');
    const line = `${JSON.stringify(read(3, T0 + 2))}\n`;
    await appendFile(file, line.slice(0, 40));
    const first = await feed.after(start, 10);
    expect(first.records.map((r) => r.requestId)).toEqual(['r-2']);
    expect(offsetOf(first.position)).toBe(Buffer.byteLength(whole));
    expect(await feed.after(first.position, 10)).toEqual({ records: [], position: first.position });
    await appendFile(file, line.slice(40));
    expect((await feed.after(first.position, 10)).records.map((r) => r.requestId)).toEqual(['r-3']);
    expect(warnings).toEqual([]);
  });

  it('a trail cut shorter than the position is told, and read on from its end', async () => {
    await write(trailRecords(30));
    const end = (await feed.after(undefined, 10)).position;
    await truncate(file, 100);
    const cut = await feed.after(end, 10);
    expect(cut.records).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^the audit trail is shorter than the feed's position \(100 < \d+ bytes\): /)]);
    // The cut left a torn line at its end: the feed stands before it.
    expect(offsetOf(cut.position)).toBe(0);
  });

  it('a trail replaced by another file, grown past the position, is told and read on from its end', async () => {
    await write([read(1, T0)]);
    const end = (await feed.after(undefined, 10)).position;
    await rename(file, `${file}.1`);
    await write([read(2, T0 + 1), read(3, T0 + 2), read(4, T0 + 3)]);
    const replaced = await feed.after(end, 10);
    expect(replaced.records).toEqual([]);
    // Not "shorter" (hostile review helper-133, F5: "shorter … (134665 < 134660 bytes)" for a line changed before the position).
    expect(warnings).toEqual([expect.stringMatching(/^the audit trail before the feed's position is not the one the feed read: it is another file now/)]);
    await write([read(5, T0 + 4)]);
    expect((await feed.after(replaced.position, 10)).records.map((r) => r.requestId)).toEqual(['r-5']);
  });

  it('reads a bounded stretch a call, and gets through a long trail over many calls, records or not', async () => {
    const bounded = new FileAuditFeed(file, { maxBytesPerCall: 64 * 1024 });
    const start = (await bounded.after(undefined, 10)).position;
    const records = trailRecords(1500);
    await write(records);
    let position = start;
    const seen: string[] = [];
    let calls = 0;
    for (;;) {
      const page = await bounded.after(position, 100_000);
      if (page.position === position) break;
      // One bound, and at most one read of 64 KiB past it to finish.
      expect(offsetOf(page.position) - offsetOf(position)).toBeLessThanOrEqual(2 * 64 * 1024);
      seen.push(...page.records.map((r) => r.requestId));
      position = page.position;
      calls++;
    }
    const wanted = records.filter((r) => r.phase === undefined && r.patientId !== undefined).map((r) => r.serviceRequestId);
    expect(seen).toEqual(wanted);
    expect(calls).toBeGreaterThanOrEqual(Math.ceil(offsetOf(position) / (2 * 64 * 1024)));
  });

  it('skips a line too long to be a record, even past its bound, and waits at one still unfinished', async () => {
    const feed = new FileAuditFeed(file, { maxBytesPerCall: 64 * 1024, onWarning: (m) => warnings.push(m) });
    await write([read(1, T0)]);
    const start = (await feed.after(undefined, 10)).position;
    const long = `{"time":"${new Date(T0).toISOString()}","note":"${'x'.repeat(1100 * 1024)}"`;
    // Raw lines: a trail opened again would set an unchained tail aside.
    await appendFile(file, `${long}}\n${JSON.stringify(read(2, T0 + 1))}\n`);
    const page = await drain(feed, start);
    expect(page.ids).toEqual(['r-2']);
    expect(warnings).toEqual([expect.stringContaining('longer than 1048576 bytes starts at byte')]);
    await appendFile(file, long);
    const waiting = await feed.after(page.position, 10);
    expect(waiting).toEqual({ records: [], position: page.position });
    await appendFile(file, `}\n${JSON.stringify(read(3, T0 + 2))}\n`);
    expect((await drain(feed, waiting.position)).ids).toEqual(['r-3']);
  });

  it('a trail that cannot be read is AuditFeedUnavailableError', async () => {
    const onDirectory = new FileAuditFeed(dir);
    await expect(onDirectory.after('file:0:', 10)).rejects.toBeInstanceOf(AuditFeedUnavailableError);
  });
});

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { nextWriteOpener } from './next-write.js';

const record = (n: number): AuditRecord => ({
  time: new Date(Date.UTC(2026, 10, 21, 9, 0, n)).toISOString(), requestId: `r-${n}`, operation: 'getJournalNotes',
  sourceAddress: '127.0.0.1', outcome: 'allowed', status: 200, patientId: '191212121212',
});

describe('FileAuditTrail', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-'));
    file = path.join(dir, 'a', 'audit.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const lines = async () => (await readFile(file, 'utf8')).trim().split('\n');
  const requestIds = async () => (await lines()).map((l) => (JSON.parse(l) as AuditRecord).requestId);

  it('appends one line per record, concurrently, in order, with an unbroken hash chain', async () => {
    const trail = await FileAuditTrail.open(file);
    await Promise.all(Array.from({ length: 50 }, (_, i) => trail.append(record(i))));
    await trail.close();
    const written = await lines();
    expect(written).toHaveLength(50);
    expect(written.map((l) => (JSON.parse(l) as AuditRecord).requestId)).toEqual(Array.from({ length: 50 }, (_, i) => `r-${i}`));
    expect(FileAuditTrail.verifyChain(written)).toBe(0);
  });

  it('writes each record as its own JSON followed by prev and hash, whatever its strings hold', async () => {
    const awkward: AuditRecord = {
      ...record(7), requestId: 'quote " backslash \\ newline \n tab \t', sourceAddress: '::ffff:127.0.0.1',
      actor: { issuer: 'https://idp.example/"x"', subject: 'Åsa Öberg ✓ \u2028 \ud800', personId: '191212121212' },
      clientId: 'kiosk</script>', subscription: 'a'.repeat(64), delegation: 'care-giver',
    };
    const trail = await FileAuditTrail.open(file);
    await trail.append(record(1));
    await trail.append(awkward);
    await trail.close();
    const [first, second] = await lines();
    const { hash: firstHash } = JSON.parse(first ?? '') as { hash: string };
    const { hash } = JSON.parse(second ?? '') as { hash: string };
    expect(second).toBe(JSON.stringify({ ...awkward, prev: firstHash, hash }));
    expect(FileAuditTrail.verifyChain([first ?? '', second ?? ''])).toBe(0);
  });

  it('lets a busy trail gather the records of its commit delay into one durable write', async () => {
    const now = 1_000;
    const grouped = await FileAuditTrail.open(file, { commitDelayMs: 20, now: () => now });
    await grouped.append(record(0));
    // Written within BUSY_WITHIN_MS of "now": busy, so the next records wait and go together.
    await Promise.all([1, 2, 3, 4, 5].map((n) => grouped.append(record(n))));
    expect(grouped.durableWrites).toBe(2);
    await grouped.close();

    const other = path.join(dir, 'b', 'audit.jsonl');
    const immediate = await FileAuditTrail.open(other, { commitDelayMs: 0, now: () => now });
    await immediate.append(record(0));
    await Promise.all([1, 2, 3, 4, 5].map((n) => immediate.append(record(n))));
    // Without the delay the first of them goes alone and the rest queue behind it.
    expect(immediate.durableWrites).toBe(3);
    await immediate.close();
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
  });

  it('lets an idle trail write at once, without waiting for company', async () => {
    let now = 1_000;
    const trail = await FileAuditTrail.open(file, { commitDelayMs: 60_000, now: () => now });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      // A commit delay here would never end: the faked setTimeout is never advanced.
      await trail.append(record(0));
      now += 1_000;
      await trail.append(record(1));
    } finally {
      vi.useRealTimers();
    }
    expect(trail.durableWrites).toBe(2);
    await trail.close();
    expect(await lines()).toHaveLength(2);
  });

  it('continues the chain after a restart', async () => {
    const first = await FileAuditTrail.open(file);
    await first.append(record(1));
    await first.close();
    const second = await FileAuditTrail.open(file);
    await second.append(record(2));
    await second.close();
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
  });

  it('lets a verifier find an edited or removed record', async () => {
    const trail = await FileAuditTrail.open(file);
    for (let i = 0; i < 5; i++) await trail.append(record(i));
    await trail.close();
    const original = await lines();
    const edited = [...original];
    edited[2] = (edited[2] ?? '').replace('"outcome":"allowed"', '"outcome":"denied"');
    expect(FileAuditTrail.verifyChain(edited)).toBe(3);
    expect(FileAuditTrail.verifyChain([...original.slice(0, 1), ...original.slice(2)])).toBe(2);
    await writeFile(file, edited.join('\n'));
  });

  // The review of 2026-11-29: two writers of one trail (the service and a support command, or two
  // processes on one DATA_DIR) each chained onto their own last line, and the chain broke without a word
  // (53 breaks: a false alarm of tampering, and a trail that proves nothing). Taking turns, they keep one chain.
  it('chains onto what another writer appended since its own last write', async () => {
    const one = await FileAuditTrail.open(file);
    const two = await FileAuditTrail.open(file);
    await one.append(record(1));
    await two.append(record(2));
    await two.append(record(3));
    await one.append(record(4));
    await two.append(record(5));
    expect([(await one.head()).id, (await two.head()).id]).toEqual([4, 5]);
    await Promise.all([one.close(), two.close()]);
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
    expect(await requestIds()).toEqual(['r-1', 'r-2', 'r-3', 'r-4', 'r-5']);
  });

  it('refuses to write after a trail another process cut short, or left in part of a line, until it is opened again', async () => {
    const trail = await FileAuditTrail.open(file);
    await trail.append(record(1));
    await trail.append(record(2));
    const whole = await readFile(file, 'utf8');
    await writeFile(file, `${whole}{"time":"2026-11-21T09:00:03.000Z","requestId":"r-`);
    await expect(trail.append(record(3))).rejects.toThrow(/another process: it ends in part of a line/);
    // Readiness says so: nothing restarts a service whose every request is refused without it.
    expect(await trail.ping()).toBe(false);
    await writeFile(file, whole.slice(0, whole.indexOf('\n') + 1));
    await expect(trail.append(record(4))).rejects.toThrow(/another process: it is shorter/);
    await trail.close();
    const again = await FileAuditTrail.open(file);
    await again.append(record(5));
    await again.close();
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
  });

  // The second review of 2026-11-29: another's record landing between this trail's look at its file and
  // its own write left it counting its file short, reading from inside its own line ever after, and
  // refusing every batch (503 for every request, readiness green) until a restart.
  it('goes on after another writer appended between its look at the file and its own write', async () => {
    const other = await FileAuditTrail.open(file);
    const { open: opener, arm } = nextWriteOpener();
    arm(async (target, bytes, offset) => {
      await other.append({ ...record(9), requestId: 'r' });
      return target.write(bytes, offset);
    });
    const trail = await FileAuditTrail.open(file, { open: opener });
    await trail.append(record(1));
    await trail.append(record(2));
    await trail.append(record(3));
    expect(await trail.ping()).toBe(true);
    await Promise.all([trail.close(), other.close()]);
    const written = await lines();
    expect(written.map((l) => (JSON.parse(l) as AuditRecord).requestId)).toEqual(['r', 'r-1', 'r-2', 'r-3']);
    // The two writes at one moment broke the chain once, where they met; after it, it holds.
    expect(FileAuditTrail.verifyChain(written)).toBe(2);
    expect(FileAuditTrail.verifyChain(written.slice(1))).toBe(0);
  });

  // The same review: a support command opening the trail while the service's batch was half on disk took
  // it for a torn tail, cut it off, and the service answered on a record that was no longer there.
  it('opened beside the service, waits for a write under way and never cuts it off', async () => {
    const service = await FileAuditTrail.open(file);
    await service.append(record(1));
    const whole = await readFile(file, 'utf8');
    await writeFile(file, `${whole}{"half":`);
    const beside = FileAuditTrail.open(file, { beside: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writeFile(file, whole);
    await service.append(record(2));
    const support = await beside;
    await support.append(record(3));
    await Promise.all([support.close(), service.close()]);
    expect((await readdir(path.dirname(file))).filter((f) => f.includes('torn'))).toEqual([]);
    expect(await requestIds()).toEqual(['r-1', 'r-2', 'r-3']);
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
    // A part of a line that stays: the support command does not open, and cuts nothing.
    await writeFile(file, `${await readFile(file, 'utf8')}{"half":`);
    await expect(FileAuditTrail.open(file, { beside: true })).rejects.toThrow(/ends in part of a line/);
    expect((await readdir(path.dirname(file))).filter((f) => f.includes('torn'))).toEqual([]);
  });

  // The third review of 2026-11-29: a write that failed was cut back to where this trail last wrote, and
  // with it the records another process had appended in between and answered on.
  it('after a failed write cuts its own bytes alone, never another writer\'s records', async () => {
    const other = await FileAuditTrail.open(file);
    const { open: opener, arm } = nextWriteOpener();
    const trail = await FileAuditTrail.open(file, { open: opener });
    await trail.append(record(1));
    arm(async (target, bytes, offset) => {
      await other.append({ ...record(8), requestId: 'other' });
      await target.write(bytes, offset, Math.floor((bytes.length - offset) / 2));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    await expect(trail.append(record(2))).rejects.toThrow(/ENOSPC/);
    await trail.append(record(3));
    await other.append(record(4));
    await Promise.all([trail.close(), other.close()]);
    expect(await requestIds()).toEqual(['r-1', 'other', 'r-3', 'r-4']);
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
  });

  // The same review: readiness, down for a file's end another process left in part of a line, stayed
  // down once that write was done, until a request wrote a batch: which one taken out of rotation never gets.
  it('says it is up again once another process\'s write under way is done, without a batch of its own', async () => {
    const trail = await FileAuditTrail.open(file);
    await trail.append(record(1));
    const whole = await readFile(file, 'utf8');
    await writeFile(file, `${whole}{"half":`);
    await expect(trail.append(record(2))).rejects.toThrow(/ends in part of a line/);
    expect(await trail.ping()).toBe(false);
    const other = await FileAuditTrail.open(`${file}.elsewhere`);
    await other.append(record(7));
    await other.close();
    await writeFile(file, `${whole}${await readFile(`${file}.elsewhere`, 'utf8')}`);
    expect(await trail.ping()).toBe(true);
    await trail.append(record(3));
    await trail.close();
    expect(await requestIds()).toEqual(['r-1', 'r-7', 'r-3']);
  });

  it('refuses appends after close', async () => {
    const trail = await FileAuditTrail.open(file);
    await trail.close();
    await expect(trail.append(record(1))).rejects.toThrow(/closed/);
  });
});

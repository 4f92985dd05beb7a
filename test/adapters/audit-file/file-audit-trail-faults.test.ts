import type { open } from 'node:fs/promises';
import { readdir, readFile, rm, mkdtemp, appendFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { nextWriteOpener } from './next-write.js';

const record = (n: number): AuditRecord => ({
  time: new Date(Date.UTC(2026, 10, 21, 9, 0, n)).toISOString(), requestId: `r-${n}`, operation: 'getJournalNotes',
  sourceAddress: '127.0.0.1', outcome: 'allowed', status: 200, patientId: '191212121212',
});

/**
 * `open` as the trail uses it, but the handle's next write after `failNextWrite()` puts half of
 * its bytes on disk and then fails with ENOSPC, as a full disk does.
 */
function fullDiskOpener(): { open: typeof open; failNextWrite: () => void } {
  const { open: opener, arm } = nextWriteOpener();
  return {
    open: opener,
    failNextWrite: () => arm(async (target, bytes, offset) => {
      await target.write(bytes, offset, Math.floor((bytes.length - offset) / 2));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    }),
  };
}

describe('FileAuditTrail after a failed or torn write (threat 40 of docs/threat-model.md#found-by-independent-review)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-faults-'));
    file = path.join(dir, 'audit', 'audit-trail.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const lines = async (): Promise<string[]> => (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');

  it('issue 12 item 6: a write that fails half-way (ENOSPC) is rejected, leaves no torn bytes, and the chain goes on unbroken', async () => {
    const disk = fullDiskOpener();
    const trail = await FileAuditTrail.open(file, { open: disk.open, commitDelayMs: 0 });
    await trail.append(record(1));
    disk.failNextWrite();
    await expect(trail.append(record(2))).rejects.toThrow(/ENOSPC/);
    await trail.append(record(3));
    await trail.close();

    const written = await lines();
    expect((await readFile(file, 'utf8')).endsWith('\n')).toBe(true);
    expect(written.map((l) => (JSON.parse(l) as AuditRecord).requestId)).toEqual(['r-1', 'r-3']);
    expect(FileAuditTrail.verifyChain(written)).toBe(0);
    // A restart continues the same chain.
    const again = await FileAuditTrail.open(file);
    await again.append(record(4));
    await again.close();
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
  });

  it('issue 12 item 6: a failed batch of several records rejects them all and stores none of them', async () => {
    const disk = fullDiskOpener();
    // A busy trail (it wrote "just now") gathers the three into one durable write.
    const trail = await FileAuditTrail.open(file, { open: disk.open, commitDelayMs: 5, now: () => 1_000 });
    await trail.append(record(1));
    disk.failNextWrite();
    const batch = await Promise.allSettled([2, 3, 4].map((n) => trail.append(record(n))));
    expect(batch.map((b) => b.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(trail.durableWrites).toBe(2);
    await trail.append(record(5));
    await trail.close();
    const written = await lines();
    expect(written.map((l) => (JSON.parse(l) as AuditRecord).requestId)).toEqual(['r-1', 'r-5']);
    expect(FileAuditTrail.verifyChain(written)).toBe(0);
  });

  it('issue 12 item 6: a torn last line (half a line appended) is set aside at open, recorded in the chain, and the trail starts', async () => {
    const first = await FileAuditTrail.open(file);
    await first.append(record(1));
    await first.append(record(2));
    await first.close();
    const intact = await readFile(file, 'utf8');
    const half = JSON.stringify(record(3)).slice(0, 60);
    await appendFile(file, half);

    const warnings: string[] = [];
    const trail = await FileAuditTrail.open(file, { onWarning: (m) => warnings.push(m) });
    await trail.append(record(4));
    await trail.close();

    const written = await lines();
    expect(FileAuditTrail.verifyChain(written)).toBe(0);
    expect(written).toHaveLength(4);
    expect((await readFile(file, 'utf8')).startsWith(intact)).toBe(true);
    const note = JSON.parse(written[2] ?? '') as Record<string, unknown>;
    const setAside = `audit-trail.jsonl.torn-at-${Buffer.byteLength(intact)}`;
    expect(note).toMatchObject({ event: 'torn-tail-set-aside', bytes: Buffer.byteLength(half), setAsideIn: setAside });
    expect(note.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((JSON.parse(written[3] ?? '') as AuditRecord).requestId).toBe('r-4');
    expect(await readFile(path.join(dir, 'audit', setAside), 'utf8')).toBe(half);
    expect((await stat(path.join(dir, 'audit', setAside))).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([expect.stringContaining(setAside)]);
    expect(warnings[0]).not.toContain('191212121212');
  });

  it('issue 12 item 6: a trail that is whole opens without setting anything aside', async () => {
    const first = await FileAuditTrail.open(file);
    await first.append(record(1));
    await first.close();
    const warnings: string[] = [];
    const again = await FileAuditTrail.open(file, { onWarning: (m) => warnings.push(m) });
    await again.append(record(2));
    await again.close();
    expect(warnings).toEqual([]);
    expect(await readdir(path.dirname(file))).toEqual(['audit-trail.jsonl']);
    expect(FileAuditTrail.verifyChain(await lines())).toBe(0);
  });

  it('issue 12 item 6: a torn tail made of complete garbage lines after the last record is set aside too', async () => {
    const first = await FileAuditTrail.open(file);
    await first.append(record(1));
    await first.close();
    // A crash on some file systems leaves zero-filled blocks, here followed by a newline.
    await appendFile(file, `${'\u0000'.repeat(40)}\n${'\u0000'.repeat(10)}`);
    const trail = await FileAuditTrail.open(file, { onWarning: () => undefined });
    await trail.append(record(2));
    await trail.close();
    const written = await lines();
    expect(written).toHaveLength(3);
    expect(FileAuditTrail.verifyChain(written)).toBe(0);
    expect(JSON.parse(written[1] ?? '')).toMatchObject({ event: 'torn-tail-set-aside', bytes: 51 });
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { SealedPageCursors } from '../../../src/adapters/page-cursor/sealed-page-cursors.js';
import { intervalOf, ReadAccessLog } from '../../../src/domain/access-log/read-access-log.js';
import { DomainError } from '../../../src/domain/errors.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';

const ZONE = 'Europe/Stockholm';
const PATIENT = '191212121212';
const OTHER = '201701012393';
const T0 = Date.parse('2026-11-21T08:00:00.000Z');
/** A day after the trail's records: the log as read then. */
const SETTINGS = { zone: ZONE, clock: { now: () => T0 + 86_400_000 } };
/** The service's own request id of record `n`: a UUID, the only form the log shows (issue 34 item 10). */
const idOf = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function trailWith(n: number): Promise<MemoryAuditTrail> {
  const trail = new MemoryAuditTrail();
  for (let i = 0; i < n; i++) {
    const patientId = i % 3 === 2 ? OTHER : PATIENT;
    await trail.append({
      time: new Date(T0 + i * 1000).toISOString(), requestId: idOf(i), operation: 'getAppointments', sourceAddress: '127.0.0.1',
      actor: { issuer: 'https://issuer', subject: 's', personId: patientId }, patientId, delegation: 'self', outcome: 'allowed', status: 200,
    });
    // A write's attempt record is not an entry of the log.
    if (i % 10 === 0) {
      await trail.append({ time: new Date(T0 + i * 1000).toISOString(), requestId: `a${i}`, operation: 'registerPayment', sourceAddress: '127.0.0.1', patientId, phase: 'attempt', outcome: 'allowed' });
    }
  }
  return trail;
}

/** Who pages, as the routes bind a cursor to them (src/http/log-reader.ts). */
const CALLER = JSON.stringify(['https://idp.example', 'tolvan', 'patient-app']);

describe('issue 14 access log: pages and cursors', () => {
  const cursors = new SealedPageCursors(randomBytes(32));

  it('issue 14: every record about the patient exactly once, oldest first, over pages of any size; attempts left out', async () => {
    const log = new ReadAccessLog(await trailWith(450), cursors, SETTINGS);
    for (const limit of [1, 7, 100, 500]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await log.page({ patientId: PATIENT, basis: 'self', viewer: { personId: PATIENT }, caller: CALLER, interval: {}, limit, ...(cursor ? { cursor } : {}) });
        expect(page.entries.length).toBeLessThanOrEqual(limit);
        seen.push(...page.entries.map((e) => e.requestId));
        cursor = page.next;
      } while (cursor !== undefined);
      expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => i).filter((i) => i % 3 !== 2).map(idOf));
    }
  });

  it('issue 14: fromDateTime and toDateTime are inclusive local seconds', async () => {
    const log = new ReadAccessLog(await trailWith(30), cursors, SETTINGS);
    // 09:00:03 to 09:00:09 Stockholm (UTC+1) = T0 + 3 s .. T0 + 9.999 s.
    const page = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval: intervalOf({ from: '20261121090003', to: '20261121090009' }, ZONE), limit: 100 });
    expect(page.entries.map((e) => e.requestId)).toEqual([3, 4, 6, 7, 9].map(idOf));
    expect(page.next).toBeUndefined();
  });

  it('issue 14: a cursor altered, forged, or used for another patient or interval is refused', async () => {
    const log = new ReadAccessLog(await trailWith(30), cursors, SETTINGS);
    const first = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval: {}, limit: 2 });
    const cursor = first.next ?? '';
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    const attempts = [
      { patientId: PATIENT, interval: {}, cursor: flipped },
      { patientId: PATIENT, interval: {}, cursor: cursor.slice(0, -1) },
      { patientId: PATIENT, interval: {}, cursor: `${cursor}A` },
      { patientId: OTHER, interval: {}, cursor },
      { patientId: PATIENT, interval: intervalOf({ from: '20261121090000' }, ZONE), cursor },
      { patientId: PATIENT, interval: {}, cursor: new SealedPageCursors(randomBytes(32)).seal({ after: { timeMs: T0, id: '1' }, untilMs: T0 }, `memory|${PATIENT}||`) },
      // Another caller (hostile review helper-86, 4).
      { patientId: PATIENT, interval: {}, cursor, caller: JSON.stringify(['https://idp.example', 'someone else', '']) },
    ];
    for (const a of attempts) {
      await expect(log.page({ caller: CALLER, ...a, basis: 'client', viewer: {}, limit: 2 })).rejects.toThrow(DomainError);
    }
    // The same cursor with another page size is fine.
    const second = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval: {}, limit: 5, cursor });
    expect(second.entries[0]?.requestId).toBe(idOf(3));
  });

  // Each page read is itself an entry of the log: a walk whose end moved with the clock met its own page on the
  // next one and never ended at limit=1 (hostile review helper-86, 2), nor with a toDateTime still to come.
  it('a walk ends where the log stood when it began, at limit=1, open towards now or bounded in the future', async () => {
    for (const interval of [{}, intervalOf({ to: '20991231235959' }, ZONE)]) {
      const trail = await trailWith(30);
      let now = T0 + 86_400_000;
      const log = new ReadAccessLog(trail, cursors, { zone: ZONE, clock: { now: () => now } });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        expect(pages++).toBeLessThan(30);
        const page = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval, limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(...page.entries.map((e) => e.requestId));
        cursor = page.next;
        // The page's own record, a moment later, as the audit writes it.
        now += 1;
        await trail.append({
          time: new Date(now).toISOString(), requestId: idOf(1000 + pages), operation: 'getAccessLog', sourceAddress: '127.0.0.1',
          actor: { issuer: 'https://issuer', subject: 's', personId: PATIENT }, patientId: PATIENT, delegation: 'self', outcome: 'allowed', status: 200,
        });
      } while (cursor !== undefined);
      expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 !== 2).map(idOf));
      // The next walk shows the pages of the last one.
      const after = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval, limit: 500 });
      expect(after.entries).toHaveLength(seen.length + pages);
    }
  });

  it('a walk\'s end cannot be moved: it is sealed in the cursor, so a cursor altered to reach further is refused', async () => {
    const log = new ReadAccessLog(await trailWith(30), cursors, SETTINGS);
    const first = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval: {}, limit: 2 });
    const bytes = Buffer.from(first.next ?? '', 'base64url');
    // The end's last byte (format 2: version, time, end, id).
    bytes.writeUInt8(bytes.readUInt8(16) ^ 1, 16);
    await expect(log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval: {}, limit: 2, cursor: bytes.toString('base64url') }))
      .rejects.toThrow(DomainError);
  });

  it('issue 14: the limit is 1 to 500', async () => {
    const log = new ReadAccessLog(await trailWith(3), cursors, SETTINGS);
    for (const limit of [0, 501, 1.5, Number.NaN]) {
      await expect(log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, interval: {}, limit })).rejects.toThrow(DomainError);
    }
  });
});

// Hostile review (helper-87, F2): past the guardian age limit the page was still read, to count it, so the
// answer's time grew with the entries the range held (14 against 7 ms), which the limit is to keep from a
// guardian; a read by id scanning an hour's pages was slower still where there were entries.
describe('the access log past the guardian age limit', () => {
  const cursors = new SealedPageCursors(randomBytes(32));
  const CHILD = '201701012393';
  const GUARDIAN = '198112189876';

  it('reads nothing of the log, whatever the range: the answer is the same, and so is its cost', async () => {
    const trail = await trailWith(30);
    const page = vi.spyOn(trail, 'page');
    const log = new ReadAccessLog(trail, cursors, { ...SETTINGS, policy: { guardianAgeLimit: { operations: { getAccessLog: 9 } } } });
    const asGuardian = { patientId: CHILD, basis: 'guardian' as const, viewer: { personId: GUARDIAN }, caller: CALLER, limit: 100 };
    const answers = [await log.page({ ...asGuardian, interval: {} }), await log.page({ ...asGuardian, interval: intervalOf({ from: '20000101000000', to: '20000101000001' }, ZONE) })];
    expect(answers).toEqual([{ entries: [], withheld: 1 }, { entries: [], withheld: 1 }]);
    expect(page).not.toHaveBeenCalled();
    // The child herself reads it.
    expect((await log.page({ ...asGuardian, basis: 'self', viewer: { personId: CHILD }, interval: {} })).entries.length).toBeGreaterThan(0);
  });
});

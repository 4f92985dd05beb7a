import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { HmacPageCursors } from '../../../src/adapters/page-cursor/hmac-page-cursors.js';
import { ReadAccessLog } from '../../../src/domain/access-log/read-access-log.js';
import { DomainError } from '../../../src/domain/errors.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';

const ZONE = 'Europe/Stockholm';
const PATIENT = '191212121212';
const OTHER = '201701012393';
const T0 = Date.parse('2026-11-21T08:00:00.000Z');
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
  const cursors = new HmacPageCursors(randomBytes(32));

  it('issue 14: every record about the patient exactly once, oldest first, over pages of any size; attempts left out', async () => {
    const log = new ReadAccessLog(await trailWith(450), cursors, ZONE);
    for (const limit of [1, 7, 100, 500]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await log.page({ patientId: PATIENT, basis: 'self', viewer: { personId: PATIENT }, caller: CALLER, range: {}, limit, ...(cursor ? { cursor } : {}) });
        expect(page.entries.length).toBeLessThanOrEqual(limit);
        seen.push(...page.entries.map((e) => e.requestId));
        cursor = page.next;
      } while (cursor !== undefined);
      expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => i).filter((i) => i % 3 !== 2).map(idOf));
    }
  });

  it('issue 14: fromDateTime and toDateTime are inclusive local seconds', async () => {
    const log = new ReadAccessLog(await trailWith(30), cursors, ZONE);
    // 09:00:03 to 09:00:09 Stockholm (UTC+1) = T0 + 3 s .. T0 + 9.999 s.
    const page = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, range: { from: '20261121090003', to: '20261121090009' }, limit: 100 });
    expect(page.entries.map((e) => e.requestId)).toEqual([3, 4, 6, 7, 9].map(idOf));
    expect(page.next).toBeUndefined();
  });

  it('issue 14: a cursor altered, forged, or used for another patient or interval is refused', async () => {
    const log = new ReadAccessLog(await trailWith(30), cursors, ZONE);
    const first = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, range: {}, limit: 2 });
    const cursor = first.next ?? '';
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    const attempts = [
      { patientId: PATIENT, range: {}, cursor: flipped },
      { patientId: PATIENT, range: {}, cursor: cursor.slice(0, -1) },
      { patientId: PATIENT, range: {}, cursor: `${cursor}A` },
      { patientId: OTHER, range: {}, cursor },
      { patientId: PATIENT, range: { from: '20261121090000' }, cursor },
      { patientId: PATIENT, range: {}, cursor: new HmacPageCursors(randomBytes(32)).seal({ timeMs: T0, id: '1' }, `memory|${PATIENT}||`) },
      // Another caller (hostile review helper-86, 4).
      { patientId: PATIENT, range: {}, cursor, caller: JSON.stringify(['https://idp.example', 'someone else', '']) },
    ];
    for (const a of attempts) {
      await expect(log.page({ caller: CALLER, ...a, basis: 'client', viewer: {}, limit: 2 })).rejects.toThrow(DomainError);
    }
    // The same cursor with another page size is fine.
    const second = await log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, range: {}, limit: 5, cursor });
    expect(second.entries[0]?.requestId).toBe(idOf(3));
  });

  it('issue 14: the limit is 1 to 500', async () => {
    const log = new ReadAccessLog(await trailWith(3), cursors, ZONE);
    for (const limit of [0, 501, 1.5, Number.NaN]) {
      await expect(log.page({ patientId: PATIENT, basis: 'self', viewer: {}, caller: CALLER, range: {}, limit })).rejects.toThrow(DomainError);
    }
  });
});

// Hostile review (helper-87, F2): past the guardian age limit the page was still read, to count it, so the
// answer's time grew with the entries the range held (14 against 7 ms), which the limit is to keep from a
// guardian; a read by id scanning an hour's pages was slower still where there were entries.
describe('the access log past the guardian age limit', () => {
  const cursors = new HmacPageCursors(randomBytes(32));
  const CHILD = '201701012393';
  const GUARDIAN = '198112189876';

  it('reads nothing of the log, whatever the range: the answer is the same, and so is its cost', async () => {
    const trail = await trailWith(30);
    const page = vi.spyOn(trail, 'page');
    const log = new ReadAccessLog(trail, cursors, ZONE, new Map(), { policy: { guardianAgeLimit: { operations: { getAccessLog: 9 } } }, clock: { now: () => T0 } });
    const asGuardian = { patientId: CHILD, basis: 'guardian' as const, viewer: { personId: GUARDIAN }, caller: CALLER, limit: 100 };
    const answers = [await log.page({ ...asGuardian, range: {} }), await log.page({ ...asGuardian, range: { from: '20000101000000', to: '20000101000001' } })];
    expect(answers).toEqual([{ entries: [], withheld: 1 }, { entries: [], withheld: 1 }]);
    expect(page).not.toHaveBeenCalled();
    // The child herself reads it.
    expect((await log.page({ ...asGuardian, basis: 'self', viewer: { personId: CHILD }, range: {} })).entries.length).toBeGreaterThan(0);
  });
});

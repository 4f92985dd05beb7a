import { describe, expect, it, vi } from 'vitest';
import { DocumentsInFlight } from '../../../src/adapters/ehr-xml-http/documents-in-flight.js';
import { ExpectedSizes, FetchRoom, FIRST_GUESS_BYTES } from '../../../src/adapters/ehr-xml-http/fetch-room.js';
import { AnswerAbandonedError } from '../../../src/ports/answer-memory.port.js';
import { STAYING, turn } from './held-work.js';

const MB = 1024 * 1024;
const SMALL = 256 * 1024;

/** Takes a place for `bytes`, noting in `log` when it got it. */
function taking(room: FetchRoom, log: string[], name: string, bytes: number, abandoned = STAYING) {
  return room.take(bytes, abandoned).then(({ place }) => (log.push(name), place));
}

describe('FetchRoom (issue 20 item 6: large documents wait before they are fetched)', () => {
  it('gives room in order of arrival while the bytes fit, a document larger than the room alone, and never holds a small one back', async () => {
    const room = new FetchRoom(SMALL, 3 * MB);
    const log: string[] = [];
    const a = taking(room, log, 'a', 2 * MB);
    const b = taking(room, log, 'b', 2 * MB);
    const c = taking(room, log, 'c', 1 * MB);
    const small = taking(room, log, 'small', SMALL);
    await turn();
    // b does not fit beside a; c would, but waits behind b; the small one never waits and holds nothing.
    expect(log).toEqual(['a', 'small']);
    expect([room.bytesHeld, room.readsWaiting]).toEqual([2 * MB, 2]);
    (await a).leave();
    await turn();
    expect(log).toEqual(['a', 'small', 'b', 'c']);
    expect(room.bytesHeld).toBe(3 * MB);
    const huge = taking(room, log, 'huge', 10 * MB);
    (await b).leave();
    (await c).leave();
    (await small).leave();
    await turn();
    expect(log).toEqual(['a', 'small', 'b', 'c', 'huge']);
    (await huge).leave();
    (await huge).leave();
    expect(room.bytesHeld).toBe(0);
  });

  it('holds what a document really has once fetched: less lets the next in, more is held until it leaves', async () => {
    const room = new FetchRoom(SMALL, 2 * MB);
    const log: string[] = [];
    const first = await taking(room, log, 'first', 2 * MB);
    const second = taking(room, log, 'second', 1 * MB);
    await turn();
    expect(log).toEqual(['first']);
    first.fetched(1 * MB);
    await turn();
    expect(log).toEqual(['first', 'second']);
    expect(room.bytesHeld).toBe(2 * MB);
    // Expected small, fetched large: room for what it has, and the next waits for it.
    const surprise = (await room.take(SMALL, STAYING)).place;
    surprise.fetched(3 * MB);
    expect(room.bytesHeld).toBe(5 * MB);
    const third = taking(room, log, 'third', 1 * MB);
    first.leave();
    (await second).leave();
    await turn();
    expect(log).toEqual(['first', 'second']);
    surprise.leave();
    await turn();
    expect(log).toEqual(['first', 'second', 'third']);
    (await third).fetched(SMALL);
    expect(room.bytesHeld).toBe(0);
  });

  it('drops a waiter whose caller leaves, asks nothing for it, and lets the next in', async () => {
    const room = new FetchRoom(SMALL, 1 * MB);
    const log: string[] = [];
    const first = await taking(room, log, 'first', 1 * MB);
    const caller = new AbortController();
    const leaving = taking(room, log, 'leaving', 1 * MB, caller.signal);
    const next = taking(room, log, 'next', 1 * MB);
    await turn();
    caller.abort();
    await expect(leaving).rejects.toBeInstanceOf(AnswerAbandonedError);
    expect(room.readsWaiting).toBe(1);
    first.leave();
    await turn();
    expect(log).toEqual(['first', 'next']);
    (await next).leave();
    await expect(room.take(1 * MB, caller.signal)).rejects.toBeInstanceOf(AnswerAbandonedError);
  });

  it('waits no longer than what is left of the deadline, and fails as the deadline does', async () => {
    // The room's clock is its timers: faked, so that a busy machine cannot make 20 ms look like 130.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const tooLong = (): Error => new Error('deadline');
      const room = new FetchRoom(SMALL, 1 * MB, { maxWaitMs: 60, tooLong });
      const first = await taking(room, [], 'first', 1 * MB);
      // 40 of the 60 ms were waited elsewhere: 20 are left here.
      let outcome = 'waiting';
      void room.take(1 * MB, STAYING, 40).then(() => { outcome = 'given'; }, (err: Error) => { outcome = err.message; });
      await vi.advanceTimersByTimeAsync(19);
      expect(outcome).toBe('waiting');
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBe('deadline');
      await expect(room.take(1 * MB, STAYING, 60)).rejects.toThrow('deadline');
      expect(room.readsWaiting).toBe(0);
      first.leave();
      expect(room.bytesHeld).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('ExpectedSizes', () => {
  it('expects a record\'s last size, else its read\'s last size, else a large first guess, and forgets the record noted longest ago', () => {
    const sizes = new ExpectedSizes(3);
    expect(sizes.of('getJournalNotes', '191212121212')).toBe(FIRST_GUESS_BYTES);
    sizes.note('getJournalNotes', '191212121212', 3 * MB);
    sizes.note('getJournalNotes', '198112189876', 20_000);
    expect(sizes.of('getJournalNotes', '191212121212')).toBe(3 * MB);
    expect(sizes.of('getJournalNotes', '200404122384')).toBe(20_000);
    expect(sizes.of('getMedications', '191212121212')).toBe(FIRST_GUESS_BYTES);
    // A short journal stays expected short while the read's last answers are long.
    sizes.note('getJournalNotes', '194608632396', 2 * MB);
    expect(sizes.of('getJournalNotes', '198112189876')).toBe(20_000);
    // Noted again, a record is the newest; past three records, the one noted longest ago is forgotten.
    sizes.note('getJournalNotes', '191212121212', 10_000);
    sizes.note('getJournalNotes', '197305242385', 5 * MB);
    expect(sizes.of('getJournalNotes', '198112189876')).toBe(5 * MB);
    expect(sizes.of('getJournalNotes', '191212121212')).toBe(10_000);
    expect(sizes.of('getJournalNotes', '194608632396')).toBe(2 * MB);
  });
});

describe('DocumentsInFlight.asking', () => {
  it('counts a wait for room as the answer\'s wait, so its EHR call gets only what is left of the deadline', async () => {
    const room = new FetchRoom(SMALL, 1 * MB);
    const budget = new DocumentsInFlight(1 * MB, { room });
    const holder = await budget.asking('getJournalNotes', '191212121212');
    let waited: number | undefined = -1;
    const answer = budget.answering({ read: 'getJournalNotes', patientId: '198112189876' }, STAYING, async () => {
      const place = await budget.asking('getJournalNotes', '198112189876');
      waited = budget.waited();
      return budget.run(2 * MB, () => Promise.resolve('tree'), place);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(room.readsWaiting).toBe(1);
    holder.leave();
    await expect(answer).resolves.toBe('tree');
    expect(waited).toBeGreaterThanOrEqual(15);
    // Let into the mapping budget, it left the room; its size is expected next time.
    expect(room.bytesHeld).toBe(0);
    const again = await budget.asking('getJournalNotes', '198112189876');
    expect(room.bytesHeld).toBe(2 * MB);
    again.leave();
  });

  it('never makes an answer that holds mapping budget wait for room, which documents waiting for that budget may fill', async () => {
    const room = new FetchRoom(SMALL, 1 * MB);
    const budget = new DocumentsInFlight(1 * MB, { room });
    let finish = (): void => undefined;
    const serialised = new Promise<void>((resolve) => (finish = resolve));
    const log: string[] = [];
    const holder = budget.answering({ read: 'getJournalNotes', patientId: '191212121212' }, STAYING, async () => {
      const place = await budget.asking('getJournalNotes', '191212121212');
      await budget.run(1 * MB, () => Promise.resolve('first'), place);
      await serialised;
      // A second document of the same answer, while another answer's document fills the room waiting for this one's budget.
      const second = await budget.asking('getJournalNotes', '191212121212');
      log.push('second asked');
      return budget.run(1 * MB, () => Promise.resolve('second'), second);
    });
    await turn();
    const other = budget.answering({ read: 'getJournalNotes', patientId: '198112189876' }, STAYING, async () => {
      const place = await budget.asking('getJournalNotes', '198112189876');
      return budget.run(1 * MB, () => Promise.resolve('other'), place);
    });
    await turn();
    expect(room.bytesHeld).toBe(1 * MB);
    finish();
    await expect(holder).resolves.toBe('second');
    await expect(other).resolves.toBe('other');
    expect(log).toEqual(['second asked']);
    expect([room.bytesHeld, budget.bytesInFlight]).toEqual([0, 0]);
  });
});

import { describe, expect, it } from 'vitest';
import { DocumentsInFlight, SMALL_DOCUMENT_BYTES } from '../../../src/adapters/ehr-xml-http/documents-in-flight.js';
import { AnswerMemoryFullError, type AnswerSubject } from '../../../src/ports/answer-memory.port.js';
import { held as heldWork, STAYING, turn } from './held-work.js';

const MB = 1024 * 1024;
let patients = 0;
/** An answer of a record of its own (answers of one record take turns: record-lanes.test.ts). */
const own = (): AnswerSubject => ({ read: 'getJournalNotes', patientId: String(191200000000 + ++patients) });

/** A mapping that ends when `end()` is called, noting when it started. */
function held(log: string[], name: string): { map: () => Promise<string>; end: () => void } {
  const { work, end } = heldWork(log, name);
  return { map: work, end };
}

describe('DocumentsInFlight (issue 20 item 6)', () => {
  it('maps large documents only while their bytes fit the budget, first come first served, and small ones at once', async () => {
    const budget = new DocumentsInFlight(3 * MB);
    const log: string[] = [];
    const a = held(log, 'a');
    const b = held(log, 'b');
    const c = held(log, 'c');
    const d = held(log, 'd');
    const small = held(log, 'small');
    const runs = [budget.run(2 * MB, a.map), budget.run(2 * MB, b.map), budget.run(1 * MB, c.map), budget.run(SMALL_DOCUMENT_BYTES, small.map)];
    await turn();
    // b does not fit beside a; c would, but waits its turn behind b; the small one never waits.
    expect(log).toEqual(['a', 'small']);
    expect(budget.bytesInFlight).toBe(2 * MB);
    a.end();
    await turn();
    expect(log).toEqual(['a', 'small', 'b', 'c']);
    expect(budget.bytesInFlight).toBe(3 * MB);
    const late = budget.run(10 * MB, d.map);
    b.end();
    c.end();
    small.end();
    await turn();
    // Larger than the whole budget: mapped alone.
    expect(log).toEqual(['a', 'small', 'b', 'c', 'd']);
    expect(budget.bytesInFlight).toBe(3 * MB);
    d.end();
    await expect(Promise.all([...runs, late])).resolves.toEqual(['a', 'b', 'c', 'small', 'd']);
    expect(budget.bytesInFlight).toBe(0);
  });

  it('gives the bytes back when a mapping fails', async () => {
    const budget = new DocumentsInFlight(2 * MB);
    await expect(budget.run(2 * MB, () => Promise.reject(new Error('malformed')))).rejects.toThrow('malformed');
    expect(budget.bytesInFlight).toBe(0);
    await expect(budget.run(2 * MB, () => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('DocumentsInFlight while answering (issue 20 item 6: a tree lives until its answer is serialised)', () => {
  it('keeps an answer\'s bytes counted after its tree is built, until the answer ends', async () => {
    const budget = new DocumentsInFlight(2 * MB);
    const log: string[] = [];
    let finish = (): void => undefined;
    const serialised = new Promise<void>((resolve) => (finish = resolve));
    const first = budget.answering(own(), STAYING, async () => {
      const tree = await budget.run(2 * MB, () => Promise.resolve('tree'));
      log.push('built');
      await serialised;
      return tree;
    });
    await turn();
    expect(log).toEqual(['built']);
    expect(budget.bytesInFlight).toBe(2 * MB);
    // The next answer's document waits for the first answer to be written, not only built.
    const next = budget.answering(own(), STAYING, () => budget.run(2 * MB, () => (log.push('next'), Promise.resolve('next tree'))));
    await turn();
    expect(log).toEqual(['built']);
    finish();
    await expect(first).resolves.toBe('tree');
    await expect(next).resolves.toBe('next tree');
    expect(log).toEqual(['built', 'next']);
    expect(budget.bytesInFlight).toBe(0);
  });

  it('lets an answer that already holds bytes map its next document at once, so it never waits for itself', async () => {
    const budget = new DocumentsInFlight(2 * MB);
    const answer = budget.answering(own(), STAYING, async () => {
      await budget.run(2 * MB, () => Promise.resolve('journal'));
      return budget.run(1 * MB, () => Promise.resolve('second'));
    });
    await expect(answer).resolves.toBe('second');
    expect(budget.bytesInFlight).toBe(0);
  });

  it('gives an answer\'s bytes back when it fails', async () => {
    const budget = new DocumentsInFlight(2 * MB);
    await expect(budget.answering(own(), STAYING, async () => {
      await budget.run(2 * MB, () => Promise.resolve('tree'));
      throw new Error('serialising failed');
    })).rejects.toThrow('serialising failed');
    expect(budget.bytesInFlight).toBe(0);
  });

  it('keeps answers apart: one answer\'s bytes never let another answer skip the queue', async () => {
    const budget = new DocumentsInFlight(2 * MB);
    let finish = (): void => undefined;
    const holding = budget.answering(own(), STAYING, async () => {
      await budget.run(2 * MB, () => Promise.resolve('a'));
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await turn();
    let mapped = false;
    const other = budget.answering(own(), STAYING, () => budget.run(1 * MB, () => ((mapped = true), Promise.resolve('b'))));
    await turn();
    expect(mapped).toBe(false);
    finish();
    await holding;
    await expect(other).resolves.toBe('b');
  });
});

describe('DocumentsInFlight waiting (issue 20 item 6: documents wait with their bytes already fetched)', () => {
  it('refuses a large document once the bytes waiting would pass the limit, without mapping it, and lets the line drain', async () => {
    const budget = new DocumentsInFlight(2 * MB, { waitingLimit: 3 * MB });
    const log: string[] = [];
    const first = held(log, 'first');
    const running = budget.run(2 * MB, first.map);
    const second = budget.run(2 * MB, () => (log.push('second'), Promise.resolve('second')));
    await turn();
    expect(budget.bytesWaiting).toBe(2 * MB);
    // 2 MB waiting + 2 MB would pass 3 MB: refused at once, never mapped, nothing counted.
    await expect(budget.run(2 * MB, () => (log.push('third'), Promise.resolve('third')))).rejects.toBeInstanceOf(AnswerMemoryFullError);
    expect(budget.bytesWaiting).toBe(2 * MB);
    // A small one never waits, so it is never refused.
    await expect(budget.run(SMALL_DOCUMENT_BYTES, () => Promise.resolve('small'))).resolves.toBe('small');
    first.end();
    await expect(Promise.all([running, second])).resolves.toEqual(['first', 'second']);
    expect(log).toEqual(['first', 'second']);
    expect([budget.bytesWaiting, budget.bytesInFlight]).toEqual([0, 0]);
  });

  it('always lets the first waiter in line, however large', async () => {
    const budget = new DocumentsInFlight(2 * MB, { waitingLimit: 1 * MB });
    const first = held([], 'first');
    const running = budget.run(2 * MB, first.map);
    const big = budget.run(9 * MB, () => Promise.resolve('big'));
    await turn();
    expect(budget.bytesWaiting).toBe(9 * MB);
    first.end();
    await expect(Promise.all([running, big])).resolves.toEqual(['first', 'big']);
  });
});

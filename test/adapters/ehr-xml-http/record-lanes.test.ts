import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordLanes } from '../../../src/adapters/ehr-xml-http/record-lanes.js';
import { AnswerAbandonedError } from '../../../src/ports/answer-memory.port.js';
import { held, STAYING, turn } from './held-work.js';

describe('RecordLanes: answers of one record take turns (issue 20 item 6)', () => {
  it('begins at most `width` answers of one record, the rest in order of arrival, and never holds back another record', async () => {
    const lanes = new RecordLanes(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => held(log, name)) as [ReturnType<typeof held>, ReturnType<typeof held>, ReturnType<typeof held>, ReturnType<typeof held>];
    const other = held(log, 'other patient');
    const runs = [a, b, c, d].map((h) => lanes.through('journal 191212121212', STAYING, h.work));
    const elsewhere = lanes.through('journal 201701012393', STAYING, other.work);
    await turn();
    expect(log).toEqual(['a', 'b', 'other patient']);
    b.end();
    await turn();
    expect(log).toEqual(['a', 'b', 'other patient', 'c']);
    a.end();
    c.end();
    await turn();
    expect(log).toEqual(['a', 'b', 'other patient', 'c', 'd']);
    d.end();
    other.end();
    await expect(Promise.all([...runs, elsewhere])).resolves.toEqual(['a', 'b', 'c', 'd', 'other patient']);
    expect(lanes.records).toBe(0);
  });

  it('passes the turn on when an answer fails', async () => {
    const lanes = new RecordLanes(1);
    const failing = lanes.through('r', STAYING, () => Promise.reject(new Error('EHR down')));
    const next = lanes.through('r', STAYING, () => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('EHR down');
    await expect(next).resolves.toBe('next');
    expect(lanes.records).toBe(0);
  });

  it('drops an answer whose caller leaves while it waits, without beginning it, and keeps the order of the rest', async () => {
    const lanes = new RecordLanes(1);
    const log: string[] = [];
    const first = held(log, 'first');
    const running = lanes.through('r', STAYING, first.work);
    const leaving = new AbortController();
    const dropped = lanes.through('r', leaving.signal, () => (log.push('dropped'), Promise.resolve('dropped')));
    const last = lanes.through('r', STAYING, () => (log.push('last'), Promise.resolve('last')));
    await turn();
    leaving.abort();
    await expect(dropped).rejects.toBeInstanceOf(AnswerAbandonedError);
    first.end();
    await expect(Promise.all([running, last])).resolves.toEqual(['first', 'last']);
    expect(log).toEqual(['first', 'last']);
    expect(lanes.records).toBe(0);
  });

  it('begins nothing for a caller already gone, even with the record free', async () => {
    const lanes = new RecordLanes(2);
    const gone = new AbortController();
    gone.abort();
    let begun = false;
    await expect(lanes.through('r', gone.signal, () => ((begun = true), Promise.resolve('x')))).rejects.toBeInstanceOf(AnswerAbandonedError);
    expect([begun, lanes.records]).toEqual([false, 0]);
  });

  it('lets an answer already begun finish when its caller leaves', async () => {
    const lanes = new RecordLanes(1);
    const leaving = new AbortController();
    const log: string[] = [];
    const h = held(log, 'begun');
    const run = lanes.through('r', leaving.signal, h.work);
    await turn();
    leaving.abort();
    h.end();
    await expect(run).resolves.toBe('begun');
  });

  it('refuses a width that is not a positive integer, and a longest wait that is not positive', () => {
    for (const width of [0, -1, 1.5, Number.NaN]) expect(() => new RecordLanes(width)).toThrow(RangeError);
    for (const maxWaitMs of [0, -1, Number.NaN]) expect(() => new RecordLanes(1, { maxWaitMs })).toThrow(RangeError);
  });
});

describe('RecordLanes: the longest wait for a turn', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails an answer that waited maxWaitMs with tooLong(), unbegun, and keeps the line for the rest', async () => {
    vi.useFakeTimers();
    const lanes = new RecordLanes(1, { maxWaitMs: 1000, tooLong: () => new Error('EHR did not answer within the deadline') });
    const log: string[] = [];
    const first = held(log, 'first');
    const running = lanes.through('r', STAYING, first.work);
    const outwaited = lanes.through('r', STAYING, () => (log.push('outwaited'), Promise.resolve('outwaited')));
    const rejected = expect(outwaited).rejects.toThrow('EHR did not answer within the deadline');
    await vi.advanceTimersByTimeAsync(999);
    const later = lanes.through('r', STAYING, () => (log.push('later'), Promise.resolve('later')));
    await vi.advanceTimersByTimeAsync(1);
    await rejected;
    expect(lanes.waiting).toBe(1);
    first.end();
    await expect(Promise.all([running, later])).resolves.toEqual(['first', 'later']);
    expect(log).toEqual(['first', 'later']);
    expect(lanes.records).toBe(0);
  });

  it('lets nobody wait past it when none is set, and leaves no timer behind for an answer that got its turn', async () => {
    vi.useFakeTimers();
    const lanes = new RecordLanes(1, { maxWaitMs: 1000 });
    const first = held([], 'first');
    const running = lanes.through('r', STAYING, first.work);
    const second = lanes.through('r', STAYING, () => Promise.resolve('second'));
    await vi.advanceTimersByTimeAsync(500);
    first.end();
    await expect(Promise.all([running, second])).resolves.toEqual(['first', 'second']);
    expect(vi.getTimerCount()).toBe(0);
  });
});

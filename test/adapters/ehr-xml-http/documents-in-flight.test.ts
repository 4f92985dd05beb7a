import { describe, expect, it } from 'vitest';
import { DocumentsInFlight, SMALL_DOCUMENT_BYTES } from '../../../src/adapters/ehr-xml-http/documents-in-flight.js';

const MB = 1024 * 1024;

/** A mapping that ends when `end()` is called, noting when it started. */
function held(log: string[], name: string): { map: () => Promise<string>; end: () => void } {
  let end = (): void => undefined;
  const done = new Promise<string>((resolve) => (end = () => resolve(name)));
  return { map: () => (log.push(name), done), end: () => end() };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

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

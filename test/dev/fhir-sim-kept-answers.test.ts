/** The development FHIR server's kept GET answers (src/dev/fhir-sim/kept-answers.ts): never one the repository no longer holds. */
import { describe, expect, it } from 'vitest';
import { KeptAnswers, type Answer } from '../../src/dev/fhir-sim/kept-answers.js';

const answer = (text: string): Answer => ({ status: 200, headers: {}, text });

/** A computation the test finishes when it chooses, counting how often it ran. */
function held(text: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => { finish = resolve; });
  const run = { count: 0, finish: () => finish(), compute: async () => { run.count += 1; await done; return answer(text); } };
  return run;
}

describe('the development FHIR server\'s kept answers', () => {
  it('computes a GET once and answers it again from the store, until a change', async () => {
    const kept = new KeptAnswers();
    let computed = 0;
    const compute = async () => answer(`v${++computed}`);
    expect((await kept.read('Appointment?x', compute)).text).toBe('v1');
    expect((await kept.read('Appointment?x', compute)).text).toBe('v1');
    await kept.change(async () => answer('written'));
    expect((await kept.read('Appointment?x', compute)).text).toBe('v2');
  });

  it('keeps no answer computed while a change runs', async () => {
    const kept = new KeptAnswers();
    const write = held('written');
    const changing = kept.change(write.compute);
    expect((await kept.read('k', async () => answer('during'))).text).toBe('during');
    write.finish();
    await changing;
    expect((await kept.read('k', async () => answer('after'))).text).toBe('after');
  });

  it('keeps no answer whose computation a change began and ended during', async () => {
    const kept = new KeptAnswers();
    const read = held('begun before');
    const reading = kept.read('k', read.compute);
    await kept.change(async () => answer('written'));
    read.finish();
    expect((await reading).text).toBe('begun before');
    expect((await kept.read('k', async () => answer('after'))).text).toBe('after');
  });

  it('keeps no answer of a change, and forgets everything kept when a change fails', async () => {
    const kept = new KeptAnswers();
    await kept.read('k', async () => answer('old'));
    await expect(kept.change(async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect((await kept.read('k', async () => answer('new'))).text).toBe('new');
  });

  it('holds a bounded number of answers', async () => {
    const kept = new KeptAnswers();
    let computed = 0;
    const compute = async () => answer(String(++computed));
    for (let i = 0; i <= 512; i++) await kept.read(`k${i}`, compute);
    // The 513th answer emptied the store: the first is computed again.
    await kept.read('k0', compute);
    expect(computed).toBe(514);
  });
});

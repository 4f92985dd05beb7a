/**
 * Property tests run on fixed seeds (issue 43 item 2; docs/testing.md#property-tests-and-seeds): every
 * fast-check property of the suite goes through test/support/seeds.ts, which checks it on the seeds
 * its test lists, or on `npm run fuzz`'s round seed alone; the fuzz script's files are the ones that
 * do so, found in the tree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzOptions } from '../../scripts/fuzz/options.js';
import { propertyFiles, testFilesMatching } from '../../scripts/fuzz/property-files.js';
import { assertProperty, FUZZ_SEED_VARIABLE, fuzzSeed, seedRuns } from '../support/seeds.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

describe('the seeds a property runs on', () => {
  it('are the listed ones, the runs shared among them, unless a fuzz round names its own', () => {
    expect(seedRuns({ seeds: [1, 2, 3], numRuns: 300 }, {})).toEqual([{ seed: 1, numRuns: 100 }, { seed: 2, numRuns: 100 }, { seed: 3, numRuns: 100 }]);
    expect(seedRuns({ seeds: [5, 6], numRuns: 3 }, {})).toEqual([{ seed: 5, numRuns: 2 }, { seed: 6, numRuns: 2 }]);
    expect(seedRuns({ seeds: [1, 2, 3], numRuns: 300 }, { [FUZZ_SEED_VARIABLE]: '987654' })).toEqual([{ seed: 987654, numRuns: 300 }]);
    expect(fuzzSeed({})).toBeUndefined();
    for (const bad of ['x', '1.5', String(2 ** 31), '1e40']) expect(() => fuzzSeed({ [FUZZ_SEED_VARIABLE]: bad })).toThrow(/32-bit integer, e\.g\./);
  });

  it('give the same cases every run: the values a property sees are the seeds\', not the clock\'s', async () => {
    const seen = async (): Promise<number[]> => {
      const values: number[] = [];
      await assertProperty(fc.property(fc.integer(), (n) => { values.push(n); }), { seeds: [11, 12], numRuns: 20 });
      return values;
    };
    const first = await seen();
    expect(first).toHaveLength(20);
    expect(await seen()).toEqual(first);
  });

  it('name the seed when a property fails', async () => {
    const runs = { seeds: [4242], numRuns: 10 } as const;
    const seed = seedRuns(runs)[0]?.seed;
    await expect(assertProperty(fc.property(fc.nat(), (n) => n < 0), runs)).rejects.toThrow(`seed: ${seed}`);
  });
});

describe('every property of the suite', () => {
  it('goes through the seeds helper: no fc.assert of its own, so none draws a random seed', async () => {
    const own = await testFilesMatching(REPOSITORY_ROOT, (text) => /\bfc\.(assert|check)\(/.test(text));
    expect(own).toEqual([]);
  });

  it('is one `npm run fuzz` runs: its files are every file that uses the helper, this one included', async () => {
    const files = await propertyFiles(REPOSITORY_ROOT);
    expect(files).toContain('test/dev/fuzz-seeds.test.ts');
    expect(files).toContain('test/security/fhir-input-fuzzing.test.ts');
    const properties = await testFilesMatching(REPOSITORY_ROOT, (text) => text.includes('assertProperty('));
    expect(files).toEqual(properties);
  });

  it('`npm run fuzz` takes minutes or rounds, a seed to repeat, and files; bad arguments are refused saying how', () => {
    expect(fuzzOptions([])).toEqual({ minutes: 10, rounds: undefined, seed: undefined, files: [] });
    expect(fuzzOptions(['--rounds', '3', '--seed', '77', 'test/a.test.ts'])).toEqual({ minutes: undefined, rounds: 3, seed: 77, files: ['test/a.test.ts'] });
    expect(fuzzOptions(['--minutes', '30'])).toMatchObject({ minutes: 30, rounds: undefined });
    expect(() => fuzzOptions(['--rounds', '0'])).toThrow(/--rounds must be a whole number from 1 to 10000, e\.g\. --rounds 5/);
    expect(() => fuzzOptions(['--minutes', '5', '--rounds', '2'])).toThrow(/not both/);
    expect(() => fuzzOptions(['--seed=-1'])).toThrow(/--seed must be a whole number/);
  });
});

/**
 * Property tests on fixed seeds (docs/testing.md#property-tests-and-seeds). Each property lists a few
 * seeds in its test and `npm test` checks it on exactly those, so the same commit gives the same
 * result in CI and on a laptop. `npm run fuzz` (scripts/fuzz.ts) runs the same properties on a fresh
 * random seed a round, set in FUZZ_SEED_VARIABLE and printed; a seed that finds a defect is added to
 * the property's list, where it stays as a regression test.
 */
import fc from 'fast-check';

/** Set by `npm run fuzz` to the round's seed; unset, every property runs on its own listed seeds. */
export const FUZZ_SEED_VARIABLE = 'PDAS_FUZZ_SEED';

export interface PropertyRuns {
  /** The seeds `npm test` checks the property on; the runs are shared out among them. */
  seeds: readonly [number, ...number[]];
  /** Cases in all, over the listed seeds (with a fuzz seed, all of them on it). */
  numRuns: number;
}

/** The fuzz round's seed, or undefined outside `npm run fuzz`; a value that is no 32-bit integer is refused, not ignored. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[FUZZ_SEED_VARIABLE];
  if (raw === undefined || raw === '') return undefined;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 31) {
    throw new RangeError(`${FUZZ_SEED_VARIABLE} must be a 32-bit integer, e.g. 20261126; got ${JSON.stringify(raw)}`);
  }
  return seed;
}

/** The (seed, runs) pairs a property is checked on: its listed seeds, or the fuzz round's alone. */
export function seedRuns(runs: PropertyRuns, env: NodeJS.ProcessEnv = process.env): Array<{ seed: number; numRuns: number }> {
  const fuzz = fuzzSeed(env);
  if (fuzz !== undefined) return [{ seed: fuzz, numRuns: runs.numRuns }];
  const each = Math.max(1, Math.ceil(runs.numRuns / runs.seeds.length));
  return runs.seeds.map((seed) => ({ seed, numRuns: each }));
}

/**
 * fc.assert over each seed of `runs` in turn. A failure names the seed (fast-check's own report
 * carries it with the shrunk counterexample) and, under `npm run fuzz`, how to keep it.
 */
export async function assertProperty<Ts>(
  property: fc.IRawProperty<Ts>,
  runs: PropertyRuns & Omit<fc.Parameters<Ts>, 'seed' | 'numRuns' | 'path'>,
): Promise<void> {
  const { seeds: _seeds, numRuns: _numRuns, ...parameters } = runs;
  const fuzzing = fuzzSeed() !== undefined;
  for (const { seed, numRuns } of seedRuns(runs)) {
    try {
      await fc.assert(property, { ...parameters, seed, numRuns });
    } catch (err) {
      if (!fuzzing || !(err instanceof Error)) throw err;
      err.message = `${FUZZ_SEED_VARIABLE}=${seed} found a defect: add ${seed} to this property's seeds (a fixed-seed regression test) `
        + `and fix it.\n${err.message}`;
      throw err;
    }
  }
}

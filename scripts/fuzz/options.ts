/** `npm run fuzz`'s arguments: how long or how many rounds, and which property files (default: all of them). */
import { parseArgs } from 'node:util';

export interface FuzzOptions {
  /** Stop starting rounds after this many minutes (--minutes; default 10 when --rounds is not given). */
  minutes: number | undefined;
  /** Run exactly this many rounds (--rounds). */
  rounds: number | undefined;
  /** The round's seed for round 1 (--seed, to repeat a run); later rounds draw fresh ones. */
  seed: number | undefined;
  /** Property test files to run; empty means every file that uses test/support/seeds.ts. */
  files: string[];
}

const USAGE = 'usage: npm run fuzz -- [--minutes N | --rounds N] [--seed S] [test files...]';

function positive(name: string, raw: string | undefined, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new RangeError(`--${name} must be a whole number from 1 to ${max}, e.g. --${name} 5; got ${JSON.stringify(raw)}. ${USAGE}`);
  return n;
}

export function fuzzOptions(argv: string[]): FuzzOptions {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: { minutes: { type: 'string' }, rounds: { type: 'string' }, seed: { type: 'string' } },
  });
  const rounds = positive('rounds', values.rounds, 10_000);
  const minutes = positive('minutes', values.minutes, 24 * 60) ?? (rounds === undefined ? 10 : undefined);
  if (rounds !== undefined && values.minutes !== undefined) throw new RangeError(`give --minutes or --rounds, not both. ${USAGE}`);
  let seed: number | undefined;
  if (values.seed !== undefined) {
    seed = Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 31) throw new RangeError(`--seed must be a whole number from 0 to 2147483647; got ${JSON.stringify(values.seed)}. ${USAGE}`);
  }
  return { minutes, rounds, seed, files: positionals };
}

// `npm run fuzz -- [--minutes N | --rounds N] [--seed S] [files...]`: the property tests of `npm test`
// on fresh random seeds (docs/testing.md#property-tests-and-seeds). `npm test` checks each property on
// the seeds its test lists; here every round draws one seed, prints it, and runs every property file
// (those that use test/support/seeds.ts, or the files named) with it in PDAS_FUZZ_SEED, for as many
// minutes or rounds as asked. The first round that fails stops the run and says how to keep its seed.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUZZ_SEED_VARIABLE } from '../test/support/seeds.js';
import { fuzzOptions } from './fuzz/options.js';
import { propertyFiles } from './fuzz/property-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const options = fuzzOptions(process.argv.slice(2));
const files = options.files.length > 0 ? options.files : await propertyFiles(ROOT);
const until = options.minutes === undefined ? Infinity : Date.now() + options.minutes * 60_000;
const limit = options.rounds ?? Infinity;
console.log(`fuzz: ${files.length} property files, ${options.rounds === undefined ? `${options.minutes} minutes` : `${options.rounds} rounds`}`);

for (let round = 1; round <= limit && Date.now() < until; round++) {
  const seed = round === 1 && options.seed !== undefined ? options.seed : randomInt(2 ** 31);
  console.log(`fuzz round ${round}: ${FUZZ_SEED_VARIABLE}=${seed}`);
  const run = spawnSync(process.execPath, [VITEST, 'run', ...files], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, [FUZZ_SEED_VARIABLE]: String(seed) },
  });
  if (run.status !== 0) {
    console.log(`fuzz round ${round}: ${FUZZ_SEED_VARIABLE}=${seed} FAILED. Repeat it with\n`
      + `  ${FUZZ_SEED_VARIABLE}=${seed} npx vitest run <the failing file>\n`
      + `then add ${seed} to the failing property's seeds in its test (a fixed-seed regression test that npm test runs from now on) and fix the defect.`);
    process.exit(1);
  }
  console.log(`fuzz round ${round}: ${FUZZ_SEED_VARIABLE}=${seed} passed`);
}
console.log('fuzz: every round passed');

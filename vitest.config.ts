import { configDefaults, defineConfig } from 'vitest/config';
import { accessLogNamesForVitest } from './scripts/app-names/modules.js';
import { COMPILE_CACHE_DIR } from './test/support/compile-cache.js';
import { LongestFirst, PROJECT } from './test/support/sequencer.js';
import {
  EXAMPLE_DRIVEN, EXAMPLE_FREE, EXAMPLES_DIR_VARIABLE, PROJECT_EXAMPLES_DIR, SHARED_EXAMPLES_DIR, sharedExamplesPresent,
} from './test/support/upstream-examples.js';

// The example-driven tests (test/adapters/ehr-xml and each read's xml.test.ts) always run on the project's own upstream
// documents, and once more on the shared contract's where that folder sits beside the repository; those that read no
// example (EXAMPLE_FREE) only once.
const shared = sharedExamplesPresent();
/**
 * Tests that replace a module (`vi.mock`) or weigh the heap: they get a module graph of their own.
 * Every other file shares its worker's loaded modules with the files before it (`isolate: false`),
 * which took the suite from 12.2 to 7 minutes here (loading the service's ~1,200 modules again for
 * each of some 270 files was a third of it). A replaced module would leak into the files after it,
 * and what earlier files left in the heap would weigh on a heap measurement (kept-text.test.ts
 * failed so once; hostile-transport's RSS bound once did in a full run too). send-deadline and
 * hostile-transport ran alone after the rest until issue 43: a slow machine now moves their deadlines
 * by SCHEDULING_SLACK_MS (test/support/scheduling.ts), and the one that stayed open past it was a test
 * defect (a pipelined answer the caller's kernel had taken in full), so the run no longer ends on them
 * with one worker idle.
 */
const ISOLATED = [
  'test/http/not-served-read.test.ts', 'test/security/subscription-key-compare.test.ts',
  'test/adapters/ehr-xml/kept-text.test.ts', 'test/http/json-answer.test.ts', 'test/adapters/ehr-xml-http/oversized.test.ts',
  'test/hostile-upstream/hostile-documents.test.ts', 'test/security/request-id-in-logs.test.ts',
  'test/http/send-deadline.test.ts', 'test/hostile-upstream/hostile-transport.test.ts',
  // Counts the mapper's calls by replacing the reader's module.
  'test/adapters/ehr-xml-http/conditional-reads.test.ts',
  // Counts the serialisers compiled by replacing fast-json-stringify's module.
  'test/http/compiled-once.test.ts',
  // Loads fhirclient's browser build over a stubbed `fetch`, which it takes once, when first loaded.
  'test/app-dom/next-links.test.ts',
];
/** `npm run test:deploy`'s files (vitest.deploy.config.ts): they build an image and start containers, never in `npm test`. */
const DEPLOY = 'test/deploy/**';
// Set before vitest starts its workers, which inherit it, as do the services and commands the tests start.
process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE_DIR;
// Said once per run: vitest evaluates this file again in its workers, which inherit the marker.
if (!shared && process.env.PDAS_EXAMPLES_NOTE === undefined) {
  process.env.PDAS_EXAMPLES_NOTE = 'shown';
  process.stderr.write(`note: ${SHARED_EXAMPLES_DIR} is absent: the upstream example tests run on the project's own `
    + 'documents (test/fixtures/upstream) only\n');
}

export default defineConfig({
  // The patient app's `virtual:access-log-names`: its test imports app/src, which names operations as the table does.
  plugins: [accessLogNamesForVitest],
  test: {
    environment: 'node',
    testTimeout: 20_000,
    // dist/app, which the service serves at /app/ in demo mode (test/support/build-app.global-setup.ts); the run's
    // last line, what was skipped for want of PostgreSQL, Redis, Chromium, kubectl, promtool or openssl, and why; the
    // commands the tests run as processes, bundled (test/support/command-bundles.ts).
    globalSetup: ['test/support/build-app.global-setup.ts', 'test/support/skip-summary.global-setup.ts', 'test/support/command-bundles.global-setup.ts'],
    hookTimeout: 30_000,
    // Three workers on two cores: a file often waits (on its service, a child process, Chromium, a timer), and
    // two workers left a fifth of the CPU idle. The whole suite here, one run each: 2 workers 396 s (82 % of
    // the CPU used), 3 workers 309 s (95 %), 4 workers 333 s (98 %, each worker loading the modules again).
    maxWorkers: 3,
    // The isolated files first, then the longest (test/support/sequencer.ts), so neither worker ends the run alone.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: PROJECT.main, include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED, DEPLOY],
          isolate: false, env: { [EXAMPLES_DIR_VARIABLE]: PROJECT_EXAMPLES_DIR },
        },
      },
      {
        extends: true,
        test: { name: PROJECT.isolated, include: ISOLATED, env: { [EXAMPLES_DIR_VARIABLE]: PROJECT_EXAMPLES_DIR } },
      },
      // As in pdas: a worker's files share its loaded modules (a test reads the examples' folder at each call), but those of ISOLATED.
      ...(shared ? [{
        extends: true as const,
        test: {
          name: PROJECT.sharedExamples, include: EXAMPLE_DRIVEN, exclude: [...configDefaults.exclude, ...ISOLATED, ...EXAMPLE_FREE], isolate: false,
          env: { [EXAMPLES_DIR_VARIABLE]: SHARED_EXAMPLES_DIR },
        },
      }, {
        extends: true as const,
        test: { name: PROJECT.sharedExamplesIsolated, include: ISOLATED.filter((f) => f.startsWith('test/adapters/ehr-xml/')), env: { [EXAMPLES_DIR_VARIABLE]: SHARED_EXAMPLES_DIR } },
      }] : []),
    ],
  },
});

import { defineConfig } from 'vitest/config';
import {
  EXAMPLES_DIR_VARIABLE, PROJECT_EXAMPLES_DIR, SHARED_EXAMPLES_DIR, sharedExamplesPresent,
} from './test/support/upstream-examples.js';

// The example-driven tests (test/adapters/ehr-xml and each read's xml.test.ts) always run on the project's own upstream
// documents, and once more on the shared contract's where that folder sits beside the repository.
const shared = sharedExamplesPresent();
// Said once per run: vitest evaluates this file again in its workers, which inherit the marker.
if (!shared && process.env.PDAS_EXAMPLES_NOTE === undefined) {
  process.env.PDAS_EXAMPLES_NOTE = 'shown';
  process.stderr.write(`note: ${SHARED_EXAMPLES_DIR} is absent: the upstream example tests run on the project's own `
    + 'documents (test/fixtures/upstream) only\n');
}

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The suite starts real servers on loopback; two workers fit this 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'pdas', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], env: { [EXAMPLES_DIR_VARIABLE]: PROJECT_EXAMPLES_DIR } },
      },
      ...(shared ? [{
        extends: true as const,
        test: {
          name: 'shared-examples',
          include: ['test/adapters/ehr-xml/**/*.test.ts', 'src/reads/*/xml.test.ts'],
          env: { [EXAMPLES_DIR_VARIABLE]: SHARED_EXAMPLES_DIR },
        },
      }] : []),
    ],
  },
});

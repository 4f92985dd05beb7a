/**
 * Where the upstream example documents come from. The project owns a full set
 * (test/fixtures/upstream, read by every run); the shared contract folder beside the repository
 * (../shared/upstream/examples) holds the upstream's own set, present in CI and absent from a plain
 * clone. vitest.config.ts runs the example-driven tests once per source found and passes the source
 * to the test processes in UPSTREAM_EXAMPLES_DIR.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PROJECT_EXAMPLES_DIR = fileURLToPath(new URL('../fixtures/upstream/', import.meta.url));
export const SHARED_EXAMPLES_DIR = fileURLToPath(new URL('../../../shared/upstream/examples/', import.meta.url));

/** The environment variable that names the source of one test project. */
export const EXAMPLES_DIR_VARIABLE = 'UPSTREAM_EXAMPLES_DIR';

export function sharedExamplesPresent(): boolean {
  return existsSync(SHARED_EXAMPLES_DIR);
}

/** The folder this test process reads examples from: the one its project names, else the project's own. */
export function examplesDir(): string {
  return process.env[EXAMPLES_DIR_VARIABLE] ?? PROJECT_EXAMPLES_DIR;
}

/** The tests that read examples through examplesDir(), and so run once per source found (vitest.config.ts). */
export const EXAMPLE_DRIVEN = ['test/adapters/ehr-xml/**/*.test.ts', 'src/reads/*/xml.test.ts'];

/**
 * Files among EXAMPLE_DRIVEN's that read no example through examplesDir(): documents of their own
 * (generated, the demo people's, the bench's) or both sources named outright. A second run would repeat
 * the first exactly, so they run once (about a tenth of the suite's CPU went so). Held to that by
 * test/adapters/ehr-xml/example-sources.test.ts; a file not listed runs on every source, which is safe.
 */
export const EXAMPLE_FREE = [
  'test/adapters/ehr-xml/array-paths.test.ts',
  'test/adapters/ehr-xml/bench-documents.test.ts',
  'test/adapters/ehr-xml/example-sources.test.ts',
  'test/adapters/ehr-xml/fast-reader-generated.test.ts',
  'test/adapters/ehr-xml/mirror-generated.test.ts',
  'test/adapters/ehr-xml/xml-names.test.ts',
];

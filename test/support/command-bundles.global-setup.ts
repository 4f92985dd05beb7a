/**
 * Builds the commands' bundles before the suite (vitest globalSetup; test/support/command-bundles.ts)
 * and tells the tests they are there: a run without this setup (`npm run test:deploy`) runs the
 * commands by tsx.
 */
import type { TestProject } from 'vitest/node';
import { buildCommandBundles } from './command-bundles.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** True when test/support/run-script.ts may run a command's bundle in place of tsx. */
    commandBundles: boolean;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const started = performance.now();
  if (await buildCommandBundles()) process.stderr.write(`npm test: the commands' bundles built in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
  project.provide('commandBundles', true);
}

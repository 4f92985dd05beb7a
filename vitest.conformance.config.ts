import { defineConfig } from 'vitest/config';

/**
 * `npm run test:backport`: what the service answers for FHIR Subscriptions, judged by the Subscriptions
 * Backport IG's own R4 profiles (test/support/backport-profiles.ts). Never part of `npm test`: the
 * compiled profiles cannot be in the repository, so this runs where someone compiled them, with
 * BACKPORT_PROFILES_DIR naming their folder (docs/testing.md#the-subscriptions-backport-profiles).
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/conformance/**/*.conformance.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 1,
  },
});

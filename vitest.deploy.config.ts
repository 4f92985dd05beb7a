import { defineConfig } from 'vitest/config';

/**
 * `npm run test:deploy` (docs/operations.md#proving-a-deployment-npm-run-test-deploy): the production
 * image and three containers of it behind HAProxy. Not part of `npm test` (vitest.config.ts leaves
 * test/deploy out): it needs podman, runc and haproxy and builds an image. The global set-up builds the
 * local base and the image once (both cached); the files then run one after another, in one worker,
 * since they start containers on this machine's loopback.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/deploy/**/*.deploy.test.ts'],
    globalSetup: ['test/deploy/support/image.global-setup.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});

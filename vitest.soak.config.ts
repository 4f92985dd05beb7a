import { defineConfig } from 'vitest/config';

/**
 * `npm run test:soak`: tests whose verdict rests on the machine keeping pace (a short soak of the real
 * service under a steady rate, every answer in time and audited). They are not part of `npm test`,
 * which stays independent of wall-clock speed: CI runs this command on its own, with its own verdict,
 * on a machine otherwise idle. One file at a time, in one worker, since each loads the machine.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/soak/live/**/*.soak.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 60_000,
  },
});

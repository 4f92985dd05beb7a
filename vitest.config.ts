import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The suite starts real servers on loopback; two workers fit this 2-core machine.
    maxWorkers: 2,
  },
});

// The run's processes share V8's compile cache (test/support/compile-cache.ts): the workers through
// vitest.config.ts, and a process started with an environment of its own through inheritedEnv.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMPILE_CACHE_DIR, inheritedEnv } from '../support/compile-cache.js';

describe('the compile cache of a test run', () => {
  it('is on in this worker, and in a process started with the environment a test gives it', () => {
    expect(process.env.NODE_COMPILE_CACHE).toBe(COMPILE_CACHE_DIR);
    const dir = execFileSync(process.execPath, ['--input-type=module', '-e', "import m from 'node:module'; process.stdout.write(String(m.getCompileCacheDir()))"], {
      env: { ...inheritedEnv(), HOST: '127.0.0.1' }, encoding: 'utf8',
    });
    expect(dir.startsWith(COMPILE_CACHE_DIR)).toBe(true);
  });
});

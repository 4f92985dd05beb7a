/**
 * V8's compile cache for every Node process of a test run (vitest.config.ts sets NODE_COMPILE_CACHE
 * before its workers start; they and the processes the tests start inherit it): a module's code,
 * compiled once, is kept on disk, and each later process that loads the same file takes it from there
 * (a cache entry holds its source's hash, so a changed file is compiled anew). A run starts three
 * workers and about a hundred services and commands, each loading hundreds of the same modules: a
 * whole run took 405 s of user CPU with it against 449 s without (docs/testing.md#how-long-it-takes).
 */
import path from 'node:path';

export const COMPILE_CACHE_DIR = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'node-compile-cache');

/** What a process started with an environment of its own keeps of the run's: PATH, and the compile cache. */
export function inheritedEnv(): Record<string, string | undefined> {
  return { PATH: process.env.PATH, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE };
}

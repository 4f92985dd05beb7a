/**
 * The documents `npm run bench:mapper` measures (bench/mapper-cases.ts), generated into a temporary
 * folder before a test file's tests and removed after them, for the tests that hold the reader to
 * exactly the answers on the very documents the figures are measured on (issue 56 item 3).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { generateBenchFixtures } from '../../../bench/fixtures.js';
import { mapperCases, type MapperCase } from '../../../bench/mapper-cases.js';

/** Registers the generation and the clean-up; the cases, once the file's tests run. */
export function benchCases(): () => MapperCase[] {
  let dir = '';
  let cases: MapperCase[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bench-documents-'));
    cases = mapperCases(await generateBenchFixtures(dir));
  }, 60_000);
  afterAll(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });
  return () => cases;
}

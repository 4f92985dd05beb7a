/**
 * test/support/demo-data-sets.ts hands the test apps a copy of a set generated earlier for another
 * moment with the same key. That is only right if the key holds all the set depends on: two moments
 * with one key must write the same bytes but for the time the bookings say they were generated (the
 * copy is the set a service started at that earlier moment serves), and moments with different keys
 * must not share a set.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DROP_IN_STEP_MINUTES } from '../../../src/dev/demo-data/clock.js';
import { generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { copyDemoData } from '../../support/demo-data-sets.js';

const ZONE = 'Europe/Stockholm';
const STEP_MS = DROP_IN_STEP_MINUTES * 60_000;
// The drop-in is now + 45 minutes rounded up to a step, so a step's moments run from just after a
// whole step to the next whole step: 08:00:00.001 UTC is a step's first, STEP_MS - 1 later its last.
const START = Date.UTC(2026, 10, 27, 8, 0, 0, 1);

const GENERATED = /<Generated>\d{14}<\/Generated>/g;

/** Every file of a folder, by its path inside it, with the bookings' generation time set aside. */
async function filesOf(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, full), (await readFile(full, 'latin1')).replace(GENERATED, '<Generated/>'));
  }
  return files;
}

describe('the demo data sets the test apps copy', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-demo-sets-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const generated = async (name: string, now: number): Promise<Map<string, string>> => {
    await generateDemoData(path.join(dir, name), { now, zone: ZONE });
    return filesOf(path.join(dir, name));
  };
  const copied = async (name: string, now: number): Promise<Map<string, string>> => {
    await copyDemoData(path.join(dir, name), { now, zone: ZONE });
    return filesOf(path.join(dir, name));
  };

  it('a copy is the set generated for its own moment, byte for byte but for when, at both ends of a drop-in step', async () => {
    const first = await copied('copy-first', START);
    expect(first.size).toBeGreaterThan(10);
    expect(await copied('copy-last', START + STEP_MS - 1)).toEqual(await generated('fresh-last', START + STEP_MS - 1));
    expect(first).toEqual(await generated('fresh-first', START));
  });

  it('the next drop-in step, and the next day, are sets of their own', async () => {
    const now = await copied('now', START);
    const nextStep = await copied('next-step', START + STEP_MS);
    const nextDay = await copied('next-day', START + 86_400_000);
    expect(nextStep).not.toEqual(now);
    expect(nextStep).toEqual(await generated('fresh-next-step', START + STEP_MS));
    expect(nextDay).not.toEqual(now);
    expect(nextDay).toEqual(await generated('fresh-next-day', START + 86_400_000));
  });

  it('each copy is a folder of its own: a change to one is not in the next', async () => {
    await copyDemoData(path.join(dir, 'changed'), { now: START, zone: ZONE });
    const [name] = [...(await filesOf(path.join(dir, 'changed'))).keys()];
    await rm(path.join(dir, 'changed', name ?? ''));
    await copyDemoData(path.join(dir, 'unchanged'), { now: START, zone: ZONE });
    expect((await filesOf(path.join(dir, 'unchanged'))).has(name ?? '')).toBe(true);
  });
});

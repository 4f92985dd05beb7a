/**
 * The demo data set the test apps read, generated once per worker process for each moment that makes
 * a different set, and copied into each app's own folder. A set is a function of the zone and of the
 * demo clock's day, drop-in time and DST day (src/dev/demo-data/clock.ts), so it changes at most every
 * DROP_IN_STEP_MINUTES, but for the time the bookings say they were generated: a copy is the set a
 * service started a few minutes earlier would serve. Generating it cost 75–190 ms of CPU, about 150
 * times in a full run, where a copy costs a few. Each app still gets a folder of its own, which it or
 * its test may change.
 */
import { rmSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoClock } from '../../src/dev/demo-data/clock.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';

let home: string | undefined;
let made = 0;
const sets = new Map<string, Promise<string>>();

/** What the generated set depends on, and nothing else. */
const keyOf = (now: number, zone: string): string => {
  const clock = demoClock(now, zone);
  return JSON.stringify([zone, clock.today, clock.dropIn, clock.dstChangeDay]);
};

async function homeDir(): Promise<string> {
  if (home === undefined) {
    home = await mkdtemp(path.join(tmpdir(), 'pdas-demo-sets-'));
    const folder = home;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  return home;
}

/** The set for `now` in `zone`, as `generateDemoData(targetDir, …)` would write it: the same files, in a folder of their own. */
export async function copyDemoData(targetDir: string, options: { now: number; zone: string }): Promise<void> {
  const key = keyOf(options.now, options.zone);
  let set = sets.get(key);
  if (set === undefined) {
    set = (async () => {
      const dir = path.join(await homeDir(), String(made++));
      await generateDemoData(dir, options);
      return dir;
    })();
    sets.set(key, set);
    set.catch(() => sets.delete(key));
  }
  await cp(await set, targetDir, { recursive: true });
}

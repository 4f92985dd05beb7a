/**
 * Issue 55 item 10: `npm test` shows its progress from its first seconds. Before the first test file
 * reports, a fresh clone's run builds the patient app (type-check and bundle, tens of seconds on two
 * cores) in vitest's global set-up: it says so, and how long it took, instead of sitting silent.
 */
import { describe, expect, it } from 'vitest';
import { buildIfStale } from '../support/build-app.global-setup.js';

describe('issue 55 item 10: npm test at its start', () => {
  it('says it builds the patient app, and how long that took; nothing when the app is current', async () => {
    const said: string[] = [];
    let clock = 1_000;
    let built = 0;
    const build = async () => { built += 1; clock += 12_345; };
    await buildIfStale(async () => false, build, (line) => said.push(line), () => clock);
    expect(said).toEqual([
      'npm test: building the patient app into dist/app for the tests that open it (type-check, then esbuild) …',
      'npm test: patient app built in 12.3 s; the tests start now.',
    ]);
    await buildIfStale(async () => true, build, (line) => said.push(line), () => clock);
    expect([said.length, built]).toEqual([2, 1]);
  });
});

/**
 * Builds the patient app into dist/app before the suite (vitest globalSetup), unless it is already
 * newer than its sources: the service serves those files at /app/, and the browser test opens them.
 * The build (app/ type-checked, then bundled) takes a while on a fresh clone, before vitest has a test
 * to report: it says so, and how long it took, so `npm test` never sits silent at its start.
 */
import { buildPatientApp, patientAppIsCurrent } from '../../scripts/build-app.js';

/** Builds when not current, saying before and after what it does. */
export async function buildIfStale(isCurrent: () => Promise<boolean>, build: () => Promise<void>, say: (line: string) => void, now: () => number = Date.now): Promise<void> {
  if (await isCurrent()) return;
  const started = now();
  say('npm test: building the patient app into dist/app for the tests that open it (type-check, then esbuild) …');
  await build();
  say(`npm test: patient app built in ${((now() - started) / 1000).toFixed(1)} s; the tests start now.`);
}

export default async function setup(): Promise<void> {
  await buildIfStale(() => patientAppIsCurrent(), () => buildPatientApp(), (line) => process.stderr.write(`${line}\n`));
}

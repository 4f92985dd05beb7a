/**
 * What the full suite needs beyond Node (PostgreSQL, Redis, Chromium, kubectl, promtool, openssl) and
 * the one way a test skips without it: on a developer's machine it skips, saying what to install, and
 * notes why; in CI (CI set and not 0/false) the missing thing fails the test instead, since a skipped
 * test proves nothing there. The notes of every worker are gathered by the suite's global set-up
 * (skip-summary.global-setup.ts), which ends the run with one line of what was skipped and why.
 */
import { accessSync, appendFileSync, constants } from 'node:fs';
import path from 'node:path';

/** The folder the global set-up made for this run's skip notes (one file per worker process). */
export const SKIP_NOTES_VARIABLE = 'PDAS_SKIP_NOTES_DIR';

export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = (env.CI ?? '').toLowerCase();
  return ci !== '' && ci !== '0' && ci !== 'false';
}

export interface SkipNote {
  /** What is missing: one of the suite's requirements, e.g. "PostgreSQL". */
  needs: string;
  /** Why, and what to do: "…unreachable (ECONNREFUSED); start it or set DATABASE_URL". */
  why: string;
  /** The test file that skipped, relative to the repository. */
  file: string;
}

/** The test file calling this, from the stack (the helpers run at a test file's top level). */
function callingTestFile(): string {
  const stack = new Error().stack ?? '';
  const match = /([^\s(]*\.test\.ts)/.exec(stack.split('\n').slice(2).join('\n'));
  return match?.[1] === undefined ? 'a test file' : path.relative(process.cwd(), match[1].replace(/^file:\/\//, ''));
}

/** Says on stderr that `needs` is missing and the tests that need it are skipped, and notes it for the run's summary. */
export function noteSkip(needs: string, why: string): void {
  console.warn(`SKIPPING the tests that need ${needs}: ${why}. With CI=true they fail instead.`);
  const dir = process.env[SKIP_NOTES_VARIABLE];
  if (dir === undefined || dir === '') return;
  const note: SkipNote = { needs, why, file: callingTestFile() };
  try {
    appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(note)}\n`);
  } catch {
    // The summary is a convenience; the warning above has said it already.
  }
}

/** The program's path: `override` from the environment, else the first on PATH; undefined if none. */
export function findProgram(name: string, override?: string): string | undefined {
  const candidates = override !== undefined && override !== ''
    ? [override]
    : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * For `describe.skipIf(programMissing(…))`: true (skip, noted) when `program` was not found and this is
 * not CI; false when it was found, or in CI, where the tests then fail naming what to install.
 */
export function programMissing(name: string, program: string | undefined, install: string): boolean {
  if (program !== undefined || inCi()) return false;
  noteSkip(name, `no ${name} on PATH (${install})`);
  return true;
}

export const OPENSSL = findProgram('openssl', process.env.OPENSSL);
export const OPENSSL_INSTALL = 'apt-get install openssl, or set OPENSSL to its path';

/** For the tests that make a throw-away certificate authority (test-pki.ts). */
export const opensslMissing = (): boolean => programMissing('openssl', OPENSSL, OPENSSL_INSTALL);

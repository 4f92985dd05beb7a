/**
 * What the suite needs and says when it lacks it (test/support/requirements.ts; issue 43 item 5): a
 * missing program skips outside CI and is noted, fails in CI, and the run ends with one line that
 * sums up the notes of every worker by reason.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findProgram, inCi, programMissing, SKIP_NOTES_VARIABLE } from '../support/requirements.js';
import { readNotes, skipSummary } from '../support/skip-summary.global-setup.js';

describe('a missing requirement', () => {
  let dir: string;
  const saved = { notes: process.env[SKIP_NOTES_VARIABLE], ci: process.env.CI };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pdas-skip-test-'));
    process.env[SKIP_NOTES_VARIABLE] = dir;
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    if (saved.notes === undefined) delete process.env[SKIP_NOTES_VARIABLE];
    else process.env[SKIP_NOTES_VARIABLE] = saved.notes;
    if (saved.ci === undefined) delete process.env.CI;
    else process.env.CI = saved.ci;
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is skipped outside CI, said on stderr and noted with this file; found or in CI it is not skipped', () => {
    delete process.env.CI;
    expect(findProgram('no-such-program-43', '/nonexistent/no-such-program-43')).toBeUndefined();
    expect(programMissing('frobnicator', undefined, 'apt-get install frobnicator')).toBe(true);
    expect(vi.mocked(console.warn).mock.calls.join('\n')).toMatch(/SKIPPING the tests that need frobnicator: no frobnicator on PATH \(apt-get install frobnicator\)/);
    expect(readNotes(dir)).toEqual([{ needs: 'frobnicator', why: 'no frobnicator on PATH (apt-get install frobnicator)', file: 'test/dev/requirements.test.ts' }]);
    expect(programMissing('node', process.execPath, 'install node')).toBe(false);
    for (const ci of ['true', '1', 'yes']) {
      process.env.CI = ci;
      expect([ci, inCi(), programMissing('frobnicator', undefined, 'apt-get install frobnicator')]).toEqual([ci, true, false]);
    }
    for (const ci of ['', '0', 'false']) expect([ci, inCi({ CI: ci })]).toEqual([ci, false]);
    expect(readFileSync(path.join(dir, `${process.pid}.jsonl`), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('the run\'s last line', () => {
  it('says nothing was skipped, or each reason once with how many files it skipped', () => {
    expect(skipSummary([])).toBe('skipped: nothing for want of PostgreSQL, Redis, Chromium, kubectl, promtool or openssl');
    const pg = { needs: 'PostgreSQL', why: 'PostgreSQL at postgres://x/test is unreachable (ECONNREFUSED); start it or set DATABASE_URL' };
    const chromium = { needs: 'Chromium', why: 'no Chromium at /usr/bin/chromium (apt-get install chromium)' };
    expect(skipSummary([{ ...pg, file: 'a.test.ts' }, { ...pg, file: 'b.test.ts' }, { ...pg, file: 'b.test.ts' }, { ...chromium, file: 'c.test.ts' }])).toBe(
      'skipped: tests in 3 files for want of Chromium: no Chromium at /usr/bin/chromium (apt-get install chromium) (1 file); '
      + 'PostgreSQL: PostgreSQL at postgres://x/test is unreachable (ECONNREFUSED); start it or set DATABASE_URL (2 files). With CI=true they fail instead.',
    );
    expect(skipSummary([]).includes('\n')).toBe(false);
  });
});

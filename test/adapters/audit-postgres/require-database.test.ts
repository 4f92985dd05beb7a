import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseUrl, redactedUrl, databaseAvailable } from '../../support/database.js';
import { SKIP_NOTES_VARIABLE } from '../../support/requirements.js';
import { readNotes } from '../../support/skip-summary.global-setup.js';

const savedNotes = process.env[SKIP_NOTES_VARIABLE];

// A loopback port nothing listens on: the connection is refused at once.
const UNREACHABLE = 'postgres://postgres:hunter2-secret@127.0.0.1:1/test';

describe('databaseAvailable (how the PostgreSQL suites decide between running, skipping and failing)', () => {
  const saved = { url: process.env.DATABASE_URL, ci: process.env.CI };
  afterEach(() => {
    for (const [name, value] of [['DATABASE_URL', saved.url], ['CI', saved.ci]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    vi.restoreAllMocks();
  });

  it('defaults to the local test database', () => {
    delete process.env.DATABASE_URL;
    expect(databaseUrl()).toBe('postgres://postgres@127.0.0.1:5432/test');
  });

  it('fails, not skips, in CI when the server is unreachable, without printing the password', async () => {
    process.env.DATABASE_URL = UNREACHABLE;
    process.env.CI = 'true';
    const failure = databaseAvailable();
    await expect(failure).rejects.toThrow(/unreachable.*CI=true requires it/);
    await expect(failure).rejects.not.toThrow(/hunter2/);
  });

  it('outside CI skips with a clear message, noted for the run\'s last line', async () => {
    process.env.DATABASE_URL = UNREACHABLE;
    delete process.env.CI;
    // Its own notes folder: this skip is the test's, not one of the run's.
    const notes = await mkdtemp(path.join(tmpdir(), 'pdas-require-database-'));
    process.env[SKIP_NOTES_VARIABLE] = notes;
    try {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      expect(await databaseAvailable()).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^SKIPPING the tests that need PostgreSQL: PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test is unreachable/));
      expect(readNotes(notes).map((n) => [n.needs, n.file])).toEqual([['PostgreSQL', 'test/adapters/audit-postgres/require-database.test.ts']]);
      expect(JSON.stringify(readNotes(notes))).not.toContain('hunter2');
      expect(redactedUrl(UNREACHABLE)).not.toContain('hunter2');
    } finally {
      if (savedNotes === undefined) delete process.env[SKIP_NOTES_VARIABLE];
      else process.env[SKIP_NOTES_VARIABLE] = savedNotes;
      await rm(notes, { recursive: true, force: true });
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseUrl, redactedUrl, databaseAvailable } from '../../support/database.js';

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

  it('outside CI skips with a clear message', async () => {
    process.env.DATABASE_URL = UNREACHABLE;
    delete process.env.CI;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await databaseAvailable()).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^SKIPPING PostgreSQL tests: PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/test is unreachable/));
    expect(redactedUrl(UNREACHABLE)).not.toContain('hunter2');
  });
});

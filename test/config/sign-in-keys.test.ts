/**
 * Issue 55 item 9: `npm run sign-in-keys -- <folder>` makes the two key files the service's own sign-in
 * needs (docs/sign-in.md#set-it-up-in-an-hour): SIGN_IN_KEYS_FILE, a private JWKS of one RSA key with a
 * kid, and SIGN_IN_COOKIE_KEYS_FILE, one random cookie key. Both are written for their owner alone
 * (0600, in a folder made 0700), read by the service's own readers, and never over a file that is
 * there (a key in use would be lost, or a planted link followed): then it writes neither. Nothing
 * secret is printed.
 */
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCookieKeys, parseSigningKeys } from '../../src/adapters/auth-server/key-files.js';
import { runScript, RUNS_COMMANDS } from '../support/run-script.js';

const KEYS = 'signing-keys.json';
const COOKIES = 'cookie-keys';

describe('issue 55 item 9: npm run sign-in-keys', RUNS_COMMANDS, () => {
  let root: string;
  beforeAll(async () => { root = await mkdtemp(path.join(tmpdir(), 'pdas-sign-in-keys-')); });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('makes a private JWKS and a cookie key, 0600 in a folder of 0700, that the service reads; prints the settings, never a key', async () => {
    const folder = path.join(root, 'fresh', 'keys');
    const run = await runScript('sign-in-keys.ts', [folder], {});
    expect([run.code, run.stderr]).toEqual([0, '']);
    const [jwks, cookies] = await Promise.all([readFile(path.join(folder, KEYS), 'utf8'), readFile(path.join(folder, COOKIES), 'utf8')]);
    const [key, ...more] = parseSigningKeys(jwks, 'SIGN_IN_KEYS_FILE');
    expect(more).toEqual([]);
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.stringMatching(/^pdas-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}$/) });
    expect(Buffer.from(String(key?.n), 'base64url').length * 8).toBeGreaterThanOrEqual(3072);
    expect(parseCookieKeys(cookies, 'SIGN_IN_COOKIE_KEYS_FILE')).toHaveLength(1);
    for (const file of [KEYS, COOKIES]) expect([file, (await stat(path.join(folder, file))).mode & 0o777]).toEqual([file, 0o600]);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect(run.stdout).toContain(`SIGN_IN_KEYS_FILE=${path.join(folder, KEYS)}`);
    expect(run.stdout).toContain(`SIGN_IN_COOKIE_KEYS_FILE=${path.join(folder, COOKIES)}`);
    for (const secret of [String(key?.d), String(key?.p), cookies.trim()]) expect(run.stdout + run.stderr).not.toContain(secret.slice(0, 16));
  });

  it('two runs make two different keys', async () => {
    const [a, b] = [path.join(root, 'a'), path.join(root, 'b')];
    expect((await runScript('sign-in-keys.ts', [a], {})).code).toBe(0);
    expect((await runScript('sign-in-keys.ts', [b], {})).code).toBe(0);
    const read = async (dir: string) => [await readFile(path.join(dir, KEYS), 'utf8'), await readFile(path.join(dir, COOKIES), 'utf8')];
    const [first, second] = [await read(a), await read(b)];
    expect(first[0]).not.toBe(second[0]);
    expect(first[1]).not.toBe(second[1]);
  });

  it.each([
    ['both files are there', [KEYS, COOKIES]],
    ['the signing keys are there', [KEYS]],
    ['the cookie keys are there', [COOKIES]],
  ])('refuses to overwrite when %s, and writes neither', async (_name, present) => {
    const folder = await mkdtemp(path.join(root, 'there-'));
    for (const file of present) await writeFile(path.join(folder, file), `in use: ${file}\n`, { mode: 0o600 });
    const run = await runScript('sign-in-keys.ts', [folder], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/sign-in-keys: .*(signing-keys\.json|cookie-keys) is there already: nothing was written/);
    for (const file of [KEYS, COOKIES]) {
      const text = await readFile(path.join(folder, file), 'utf8').catch(() => undefined);
      expect([file, text]).toEqual([file, present.includes(file) ? `in use: ${file}\n` : undefined]);
    }
  });

  it('never follows a link planted where a key file goes', async () => {
    const folder = await mkdtemp(path.join(root, 'link-'));
    const target = path.join(root, 'elsewhere.txt');
    await symlink(target, path.join(folder, KEYS));
    const run = await runScript('sign-in-keys.ts', [folder], {});
    expect(run.code).toBe(1);
    await expect(lstat(target)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(lstat(path.join(folder, COOKIES))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes nothing in a folder others may write in: they could swap a key file for their own', async () => {
    for (const mode of [0o777, 0o770, 0o702]) {
      const folder = path.join(root, `open-${mode.toString(8)}`);
      await mkdir(folder);
      await chmod(folder, mode);
      const run = await runScript('sign-in-keys.ts', [folder], {});
      expect([mode, run.code, run.stderr]).toEqual([mode, 1, expect.stringContaining('can be written by others')]);
      await expect(lstat(path.join(folder, KEYS))).rejects.toMatchObject({ code: 'ENOENT' });
    }
  });

  it('says how to call it without a folder, and keeps a folder it is given as it is', async () => {
    const usage = await runScript('sign-in-keys.ts', [], {});
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('usage: npm run sign-in-keys -- <folder>')]);
    const folder = path.join(root, 'shared');
    await mkdir(folder, { mode: 0o750 });
    expect((await runScript('sign-in-keys.ts', [folder], {})).code).toBe(0);
    expect((await stat(folder)).mode & 0o777).toBe(0o750);
  });
});

/**
 * A secret kept in DATA_DIR (FHIR_ID_SECRET and ACCESS_LOG_CURSOR_SECRET unset) is one secret, however many
 * instances start at once on a fresh shared folder: each made its own and wrote it over the others', so two
 * instances gave one patient two FHIR ids, and a subscription's poll alternating between them told unchanged
 * records as changed (hostile review helper-126, F4).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keptSecret } from '../../../src/adapters/page-cursor/cursor-secret.js';

describe('a secret kept in DATA_DIR', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('is the same for every start that makes it at once, and is the one kept', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kept-secret-'));
    const secrets = await Promise.all(Array.from({ length: 16 }, async () => (await keptSecret(undefined, dir as string, 'fhir-id-secret')).toString('hex')));
    expect(new Set(secrets).size).toBe(1);
    expect((await readFile(path.join(dir, 'fhir-id-secret'), 'utf8')).trim()).toBe(secrets[0]);
    expect((await keptSecret(undefined, dir, 'fhir-id-secret')).toString('hex')).toBe(secrets[0]);
  });

  it('refuses a kept file that holds no secret, naming it, rather than making another', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kept-secret-'));
    await writeFile(path.join(dir, 'fhir-id-secret'), 'abc\n');
    await expect(keptSecret(undefined, dir, 'fhir-id-secret')).rejects.toThrow(/fhir-id-secret.*holds no secret/);
  });
});

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';

export const CURSOR_SECRET_FILE = 'access-log-cursor-secret';

/**
 * The secret page cursors are sealed with: ACCESS_LOG_CURSOR_SECRET when set (shared by every
 * instance), else one made at first start and kept (0600) in DATA_DIR, so cursors outlive a restart.
 */
export const cursorSecret = (configured: string | undefined, dataDir: string): Promise<Buffer> => keptSecret(configured, dataDir, CURSOR_SECRET_FILE);

/**
 * A secret from its setting when set, else one made at first start and kept (0600) in DATA_DIR as `fileName`.
 * Made whole in a file of its own and linked into place, which fails if one is there: instances starting at once
 * on a fresh shared folder each made their own and wrote it over the others' (hostile review helper-126, F4), so
 * the one that loses reads the winner's. A kept file that holds no secret stops the start, naming it.
 */
export async function keptSecret(configured: string | undefined, dataDir: string, fileName: string): Promise<Buffer> {
  if (configured !== undefined) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, fileName);
  const kept = await readKept(file);
  if (kept !== undefined) return kept;
  const secret = randomBytes(32);
  const made = `${file}.${randomBytes(8).toString('hex')}.new`;
  await writeFile(made, `${secret.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(made, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readKept(file)) as Buffer;
  } finally {
    await unlink(made).catch(() => undefined);
  }
}

/** The secret kept in `file`; undefined when there is none yet. */
async function readKept(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const kept = Buffer.from(text.trim(), 'hex');
  if (kept.length < 32 || kept.toString('hex') !== text.trim().toLowerCase()) {
    throw new Error(`${file} holds no secret (64 hex digits): remove it to have a new one made, which changes what was keyed with the old one, or restore it`);
  }
  return kept;
}

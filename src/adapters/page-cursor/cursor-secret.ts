import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';

export const CURSOR_SECRET_FILE = 'access-log-cursor-secret';

/**
 * The secret page cursors are sealed with: ACCESS_LOG_CURSOR_SECRET when set (shared by every
 * instance), else one made at first start and kept (0600) in DATA_DIR, so cursors outlive a restart.
 */
export const cursorSecret = (configured: string | undefined, dataDir: string): Promise<Buffer> => keptSecret(configured, dataDir, CURSOR_SECRET_FILE);

/** A secret from its setting when set, else one made at first start and kept (0600) in DATA_DIR as `fileName`. */
export async function keptSecret(configured: string | undefined, dataDir: string, fileName: string): Promise<Buffer> {
  if (configured !== undefined) return Buffer.from(configured, 'utf8');
  const file = path.join(dataDir, fileName);
  try {
    const kept = Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
    if (kept.length >= 32) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32);
  await writeFile(file, `${secret.toString('hex')}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The audit chain's keys (docs/operations.md#the-chain-key): each record is MACed with HMAC-SHA-256
 * under a key the store never holds, named in the record by its id so keys can rotate. A key file
 * (AUDIT_CHAIN_KEY_FILE) holds `id:secret` lines: the last one keys what the service writes now, the
 * ones before it are kept to verify older records.
 */
import { createHmac, createSecretKey, hash, randomBytes, type KeyObject } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ChainKey {
  /** Written in every record it keys: `[A-Za-z0-9._-]`, 1 to 64 characters. */
  id: string;
  key: KeyObject;
}

export interface ChainKeys {
  /** The key new records and signed heads are keyed with: the file's last. */
  signing: ChainKey;
  byId: ReadonlyMap<string, ChainKey>;
}

export const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MIN_SECRET = 32;
/** What a demo start keeps in DATA_DIR when AUDIT_CHAIN_KEY_FILE is not set (src/dev/demo-keys/demo-chain-key.ts). */
export const DEMO_CHAIN_KEY_FILE = 'audit-chain-key';

export class ChainKeyError extends Error {
  override name = 'ChainKeyError';
}

/**
 * `id:secret` lines (blank lines and `#` comments skipped), secrets of 32 or more characters, ids
 * unique. `source` names the file in a refusal, which never quotes a secret.
 */
export function parseChainKeys(text: string, source: string): ChainKeys {
  const byId = new Map<string, ChainKey>();
  let signing: ChainKey | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf(':');
    const id = line.slice(0, Math.max(at, 0));
    const secret = line.slice(at + 1).trim();
    if (at <= 0 || !KEY_ID.test(id) || secret.length < MIN_SECRET) {
      throw new ChainKeyError(`${source}: line ${i + 1} must be <key id>:<secret>, the id of letters, digits, '.', '_' or '-' (1 to 64), `
        + `the secret ${MIN_SECRET} characters or more, e.g. 2026-11:${'0'.repeat(8)}… (openssl rand -hex 32)`);
    }
    if (byId.has(id)) throw new ChainKeyError(`${source}: key id ${id} is listed twice; give each key its own id`);
    signing = { id, key: createSecretKey(Buffer.from(secret, 'utf8')) };
    byId.set(id, signing);
  }
  if (signing === undefined) throw new ChainKeyError(`${source} holds no key: add a line <key id>:<secret> (openssl rand -hex 32 makes a secret)`);
  return { signing, byId };
}

/** Every key of several files, later files' signing key last; an id in two files must be the same key. */
export function mergeChainKeys(sets: readonly ChainKeys[]): ChainKeys | undefined {
  const byId = new Map<string, ChainKey>();
  for (const set of sets) {
    for (const [id, key] of set.byId) {
      const known = byId.get(id);
      if (known !== undefined && !known.key.equals(key.key)) throw new ChainKeyError(`key id ${id} names two different keys in the key files given`);
      byId.set(id, key);
    }
  }
  const last = sets.at(-1);
  return last === undefined ? undefined : { signing: last.signing, byId };
}

/**
 * Demo mode's key (AUDIT_CHAIN_KEY_FILE unset, no real deployment): made at first start and kept
 * (0600) in DATA_DIR as other demo secrets are, so the demo's trail verifies across restarts. It sits
 * beside the file trail, so it keys the demo's chain but protects nothing: a real deployment must
 * set AUDIT_CHAIN_KEY_FILE (without it the chain is unkeyed, warned at start).
 */
export async function keptDemoChainKeys(dataDir: string): Promise<{ keys: ChainKeys; file: string }> {
  const file = path.join(dataDir, DEMO_CHAIN_KEY_FILE);
  try {
    return { keys: parseChainKeys(await readFile(file, 'utf8'), file), file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const line = `demo-${randomBytes(4).toString('hex')}:${randomBytes(32).toString('hex')}\n`;
  // 'wx': of two demo starts on one DATA_DIR, the second reads the first one's key.
  await writeFile(file, line, { mode: 0o600, flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  return { keys: parseChainKeys(await readFile(file, 'utf8'), file), file };
}

/** The MAC of a keyed record or head: HMAC-SHA-256, hex. */
export function macHex(key: ChainKey, text: string): string {
  return createHmac('sha256', key.key).update(text).digest('hex');
}

/** The hash of a record written before the chain had a key: SHA-256, hex. */
export function unkeyedHex(text: string): string {
  return hash('sha256', text);
}

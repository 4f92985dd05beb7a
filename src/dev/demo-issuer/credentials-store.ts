// Keeps the demo authorization server's secrets across restarts: client secrets (so the README's
// curl recipe keeps working), the token signing key (so tokens issued before a restart still verify)
// and the salt of the pairwise subject ids (so a person's `sub` stays the same).
import { generateKeyPair, randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { readTextIfExists } from '../../adapters/fs/if-exists.js';

export const CREDENTIALS_FILE = 'demo-auth.json';

export interface StoredCredentials {
  version: 1;
  clientSecrets: Record<string, string>;
  /** Private JWKs; the first one signs. */
  signingKeys: JWK[];
  pairwiseSalt: string;
}

const newSecret = (): string => randomBytes(32).toString('base64url');

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e });
  return { ...jwk, kid, alg: 'RS256', use: 'sig' };
}

function parse(text: string, file: string): StoredCredentials {
  const data = JSON.parse(text) as Partial<StoredCredentials>;
  const secretsOk =
    typeof data.clientSecrets === 'object' &&
    data.clientSecrets !== null &&
    Object.values(data.clientSecrets).every((value) => typeof value === 'string' && value !== '');
  if (
    data.version !== 1 ||
    !secretsOk ||
    !Array.isArray(data.signingKeys) ||
    data.signingKeys.length === 0 ||
    typeof data.pairwiseSalt !== 'string'
  ) {
    // Regenerating silently would invalidate every issued token and the README's secrets; a
    // person should decide (delete the file) instead.
    throw new Error(`${file} is not a valid demo credentials file; delete it to start afresh`);
  }
  return data as StoredCredentials;
}

async function readExisting(file: string): Promise<StoredCredentials | undefined> {
  const text = await readTextIfExists(file);
  if (text === undefined) return undefined;
  await chmod(file, 0o600);
  return parse(text, file);
}

async function writeAtomically(file: string, credentials: StoredCredentials): Promise<void> {
  // A crash mid-write must never leave half a file: the keys in it sign live tokens.
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temp, file);
}

/**
 * Loads `${dataDir}/demo-auth.json`, creating what is missing (the whole file on first start, a
 * secret for a client added since) and writing it back only when something was created.
 */
export async function loadOrCreateCredentials(
  dataDir: string,
  confidentialClientIds: readonly string[],
): Promise<{ credentials: StoredCredentials; created: boolean }> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, CREDENTIALS_FILE);
  const existing = await readExisting(file);
  const credentials: StoredCredentials = existing ?? {
    version: 1,
    clientSecrets: {},
    signingKeys: [await newSigningKey()],
    pairwiseSalt: newSecret(),
  };
  let changed = existing === undefined;
  for (const clientId of confidentialClientIds) {
    if (!credentials.clientSecrets[clientId]) {
      credentials.clientSecrets[clientId] = newSecret();
      changed = true;
    }
  }
  if (changed) await writeAtomically(file, credentials);
  return { credentials, created: existing === undefined };
}

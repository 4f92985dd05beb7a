// SIGN_IN_KEYS_FILE and SIGN_IN_COOKIE_KEYS_FILE (docs/sign-in.md): the token signing keys as a private
// JWKS, the first signing and every one published (a key is rotated by adding it second, waiting a
// token lifetime, then moving it first), and the session cookies' keys, one a line, the first signing.
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

const PUBLIC_MEMBERS = ['kty', 'n', 'e', 'kid', 'alg', 'use'] as const;

/** The private signing keys of a JWKS file's text; `setting` names the file in every refusal. */
export function parseSigningKeys(text: string, setting: string): JWK[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyFileError(`${setting} is not JSON: it must be a private JWKS, {"keys":[{"kty":"RSA","kid":"…","d":"…",…}]}`);
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new KeyFileError(`${setting} must be a private JWKS with at least one key: {"keys":[…]}`);
  const kids = new Set<string>();
  return keys.map((key: unknown, index) => {
    const jwk = key as JWK;
    const where = `${setting} key ${index + 1}`;
    if (jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.d !== 'string') {
      throw new KeyFileError(`${where} must be a private RSA key (kty RSA with n, e, d, p, q, dp, dq, qi): tokens are signed RS256`);
    }
    if (typeof jwk.kid !== 'string' || jwk.kid === '') throw new KeyFileError(`${where} needs a kid: an app finds the key a token names by it`);
    if (kids.has(jwk.kid)) throw new KeyFileError(`${setting} has kid ${jwk.kid} twice`);
    if (jwk.alg !== undefined && jwk.alg !== 'RS256') throw new KeyFileError(`${where} has alg ${jwk.alg}; tokens are signed RS256`);
    kids.add(jwk.kid);
    return { ...jwk, alg: 'RS256', use: 'sig' };
  });
}

/** The published half of each key: what the service itself verifies its tokens with. */
export function publicKeys(keys: readonly JWK[]): { keys: JWK[] } {
  return { keys: keys.map((key) => Object.fromEntries(PUBLIC_MEMBERS.filter((m) => key[m] !== undefined).map((m) => [m, key[m]])) as JWK) };
}

const MIN_COOKIE_KEY = 32;

/** The cookie keys of a file's text, one a line (blank lines ignored). */
export function parseCookieKeys(text: string, setting: string): string[] {
  const keys = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  if (keys.length === 0) throw new KeyFileError(`${setting} holds no key: one random key of ${MIN_COOKIE_KEY}+ characters a line, the first signing`);
  if (keys.some((key) => key.length < MIN_COOKIE_KEY)) throw new KeyFileError(`${setting}: every key must be ${MIN_COOKIE_KEY}+ characters (e.g. openssl rand -base64 48)`);
  return keys;
}

/**
 * A new signing key as the keys file holds it: RSA of 3072 bits (NIST's size for use past 2030), a kid
 * naming the day it was made and 32 random bits, so a rotation's keys are told apart at a glance.
 */
export async function newSigningKey(today: Date): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 3072, extractable: true });
  const kid = `pdas-${today.toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
  return { ...await exportJWK(privateKey), kid, alg: 'RS256', use: 'sig' };
}

/** A new cookie key: 48 random bytes in base64, 64 characters. */
export const newCookieKey = (): string => randomBytes(48).toString('base64');

/**
 * The audit chain's settings (docs/operations.md#the-chain-key): the key file, kept apart from the
 * audit store, and how often a signed head of the chain is logged.
 */
import { readFileSync } from 'node:fs';
import { ChainKeyError, parseChainKeys, type ChainKeys } from '../adapters/audit-chain/chain-keys.js';

export interface AuditChainSettings {
  /** AUDIT_CHAIN_KEY_FILE's keys; undefined in demo mode (a key is made and kept in DATA_DIR) or when unset (an unkeyed chain, warned). */
  auditChainKeys: ChainKeys | undefined;
  /** AUDIT_HEAD_INTERVAL_MS: how often the chain's signed head is logged. */
  auditHeadIntervalMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

/** AUDIT_CHAIN_KEY_FILE read and checked once, at start; a refusal names the file and the form, never a secret. */
export function readAuditChainKeys(env: Env, fail: (message: string) => Error): ChainKeys | undefined {
  const file = env.AUDIT_CHAIN_KEY_FILE?.trim();
  if (file === undefined || file === '') return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw fail(`AUDIT_CHAIN_KEY_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): mount the chain key's Secret there`);
  }
  try {
    return parseChainKeys(text, `AUDIT_CHAIN_KEY_FILE ${file}`);
  } catch (err) {
    if (err instanceof ChainKeyError) throw fail(err.message);
    throw err;
  }
}

/**
 * What a start outside demo mode without AUDIT_CHAIN_KEY_FILE says. It starts: the chain is then the
 * unkeyed SHA-256 one of earlier versions (it still shows a changed record, not a recomputed tail) and no
 * head is signed, so PdasAuditHeadMissing fires until the key is set (docs/operations.md#the-chain-key).
 * Refusing the start would stop a region's service for a setting it never needed before.
 */
export const UNKEYED_CHAIN_WARNING = 'AUDIT_CHAIN_KEY_FILE is not set: the audit chain is UNKEYED, so whoever can write to the audit store '
  + 'can rewrite its tail unnoticed, and no signed head is logged. Set AUDIT_CHAIN_KEY_FILE to a file of <key id>:<secret> lines '
  + '(a secret from openssl rand -hex 32), kept apart from the audit store (docs/operations.md#the-chain-key)';

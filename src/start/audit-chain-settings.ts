/**
 * The audit chain's settings (docs/operations.md#the-chain-key): the key file, kept apart from the
 * audit store, and how often a signed head of the chain is logged.
 */
import { readFileSync } from 'node:fs';
import { ChainKeyError, parseChainKeys, type ChainKeys } from '../adapters/audit-chain/chain-keys.js';

export interface AuditChainSettings {
  /** AUDIT_CHAIN_KEY_FILE's keys; undefined only in demo mode, where a key is made and kept in DATA_DIR. */
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

/** Outside demo mode the chain is keyed with a key the store never holds, or the service does not start. */
export function requireChainKeyOutsideDemo(settings: AuditChainSettings, demo: boolean, fail: (message: string) => Error): void {
  if (demo || settings.auditChainKeys !== undefined) return;
  throw fail('AUDIT_CHAIN_KEY_FILE must be set outside demo mode: a file of <key id>:<secret> lines (a secret from openssl rand -hex 32) '
    + 'that keys the audit chain, kept apart from the audit store, e.g. mounted from a Secret (docs/operations.md#the-chain-key)');
}

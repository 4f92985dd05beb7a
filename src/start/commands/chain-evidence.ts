/**
 * What `npm run audit -- --verify` checks a trail with besides the chain itself
 * (docs/operations.md#checking-the-chain): the chain keys, to verify keyed records, and signed heads
 * exported from the service's log, to compare with the records they name.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ChainKeyError, DEMO_CHAIN_KEY_FILE, mergeChainKeys, parseChainKeys, type ChainKey } from '../../adapters/audit-chain/chain-keys.js';
import { headProblem, headsIn } from '../../adapters/audit-chain/signed-head.js';
import type { HeadClaim } from '../../adapters/audit-query/chain-check.js';
import type { EvidenceSummary } from '../../adapters/audit-query/chain-report.js';

export class EvidenceError extends Error {}

export interface ChainEvidence extends EvidenceSummary {
  keys: ReadonlyMap<string, ChainKey>;
  keyFiles: string[];
  heads: HeadClaim[];
  /** Heads of another trail (another schema, the file), passed over. */
  headsSkipped: number;
  /** Heads of this trail that cannot be trusted, each with where it is and why: a failed verification. */
  headProblems: string[];
}

function read(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvidenceError(`${option} ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The key files: those given with --key-file, else AUDIT_CHAIN_KEY_FILE, else (for the file trail) the
 * demo key kept in DATA_DIR when there is one. None at all is allowed: a keyed record is then reported.
 */
function keyFilesOf(given: readonly string[], env: NodeJS.ProcessEnv, dataDir: string | undefined): string[] {
  if (given.length > 0) return [...given];
  const setting = env.AUDIT_CHAIN_KEY_FILE?.trim();
  if (setting !== undefined && setting !== '') return [setting];
  const demo = dataDir === undefined ? undefined : path.join(dataDir, DEMO_CHAIN_KEY_FILE);
  return demo !== undefined && existsSync(demo) ? [demo] : [];
}

/** Reads the keys and the heads of `store` (`file`, `postgresql:<schema>`); bad files are an EvidenceError (exit 2). */
export function loadEvidence(options: { keyFiles: readonly string[]; headFiles: readonly string[]; store: string; dataDir: string | undefined }): ChainEvidence {
  const keyFiles = keyFilesOf(options.keyFiles, process.env, options.dataDir);
  let keys: ReadonlyMap<string, ChainKey> = new Map();
  try {
    keys = mergeChainKeys(keyFiles.map((file) => parseChainKeys(read(file, '--key-file'), file)))?.byId ?? keys;
  } catch (err) {
    if (err instanceof ChainKeyError) throw new EvidenceError(err.message);
    throw err;
  }
  const evidence: ChainEvidence = { keys, keyFiles, heads: [], headsSkipped: 0, headProblems: [] };
  for (const file of options.headFiles) {
    const found = headsIn(read(file, '--head'));
    if (found.length === 0) throw new EvidenceError(`--head ${file} holds no signed head (a log line with an auditHead field)`);
    for (const { line, head } of found) {
      const where = `signed head at line ${line} of ${file}`;
      if (head === 'malformed') evidence.headProblems.push(`${where} is not one: its auditHead lacks a field or has one of the wrong form`);
      else if (head.store !== options.store) evidence.headsSkipped += 1;
      else {
        const why = headProblem(head, keys);
        if (why === undefined) evidence.heads.push({ id: head.id, hash: head.hash, at: head.at });
        else evidence.headProblems.push(`${where} (${head.store}, ${head.at}) cannot be trusted: ${why}`);
      }
    }
  }
  if (options.headFiles.length > 0 && evidence.heads.length === 0 && evidence.headProblems.length === 0) {
    throw new EvidenceError(`no signed head given is of this trail (${options.store}): ${evidence.headsSkipped} of another store`);
  }
  return evidence;
}

import type { ChainCheck, ChainPoint, Checkpoint, HeadClaim } from './chain-check.js';

/** What the chain was checked with besides itself: the key files read and the signed heads given. */
export interface EvidenceSummary {
  keyFiles: readonly string[];
  /** Heads of this trail whose MAC verifies, compared with their records. */
  heads: readonly HeadClaim[];
  headsSkipped: number;
  /** Heads that cannot be trusted, each a sentence: the check fails with them. */
  headProblems: readonly string[];
}

/** Where the chain was read and where its check began; never a connection string. */
export interface ChainHeading {
  /** e.g. `PostgreSQL schema audit`, `file /data/audit/audit-trail.jsonl`. */
  source: string;
  /** `record` in PostgreSQL, `line` in the file. */
  unit: 'record' | 'line';
  from: Checkpoint | undefined;
  evidence?: EvidenceSummary;
}

const HASH = /^[0-9a-f]{64}$/;

const point = (unit: string, p: ChainPoint): string => `${unit} ${p.id}${p.time === undefined ? '' : `, ${p.time}`}, hash ${p.hash}`;

/**
 * The check as lines a person reads: intact or broken (the first bad record, its time and why), then
 * the newest record that holds, whose id and hash are what to keep outside the store
 * (docs/operations.md#backups).
 */
export function formatChainText(check: ChainCheck, { source, unit, from, evidence }: ChainHeading): string {
  const start = from === undefined ? `from the first ${unit}` : `from checkpoint ${unit} ${from.id}${from.hash === undefined ? '' : ' (its hash as recorded)'}`;
  const lines = [check.broken === undefined
    ? `Audit chain of ${source}: intact, ${check.checked} ${unit}${check.checked === 1 ? '' : 's'} checked ${start}.`
    : `Audit chain of ${source}: BROKEN at ${unit} ${check.broken.id}${check.broken.time === undefined ? '' : ` (${check.broken.time})`}: ${check.broken.why}.`];
  if (check.newest === undefined) lines.push(check.broken === undefined ? `No ${unit}s yet.` : `No ${unit} ${start} holds.`);
  else lines.push(`${check.broken === undefined ? 'Newest' : 'Last intact'} ${point(unit, check.newest)}`);
  if (check.unfinishedTail === true) {
    lines.push('The last line is unfinished (a write in progress, or torn by a crash: the service sets it aside at its next start); not checked.');
  }
  return `${[...lines, ...keyLines(check, unit, evidence), ...headLines(check, evidence)].join('\n')}\n`;
}

const count = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Which keys the records checked were keyed with, and how many came before the chain had a key. */
function keyLines(check: ChainCheck, unit: string, evidence: EvidenceSummary | undefined): string[] {
  const lines: string[] = [];
  if (check.keyed.length > 0) lines.push(`Keyed with ${check.keyed.map((k) => `${k.key} (${count(k.records, unit)})`).join(', ')}.`);
  if (check.unkeyed > 0) {
    lines.push(`${count(check.unkeyed, unit)} carry no key id: written before the chain had a key, they are vouched for only by a signed head or checkpoint taken after them.`);
  }
  if (evidence !== undefined && evidence.keyFiles.length === 0 && check.keyed.length === 0 && check.checked > 0) {
    lines.push('No key file was given (--key-file, AUDIT_CHAIN_KEY_FILE).');
  }
  return lines;
}

/** What the signed heads given came to: those compared, those of another trail, those that cannot be trusted. */
function headLines(check: ChainCheck, evidence: EvidenceSummary | undefined): string[] {
  if (evidence === undefined || (evidence.heads.length === 0 && evidence.headProblems.length === 0 && evidence.headsSkipped === 0)) return [];
  const before = check.headsBeforeCheckpoint === 0 ? '' : `, ${check.headsBeforeCheckpoint} before the checkpoint not compared`;
  const skipped = evidence.headsSkipped === 0 ? '' : `, ${evidence.headsSkipped} of another store passed over`;
  return [`Signed heads: ${check.headsMatched} of ${evidence.heads.length} found holding their hash${before}${skipped}.`,
    ...evidence.headProblems.map((p) => `FAILED: the ${p}.`)];
}

/** The check as one JSON object; saved to a file, it is a checkpoint for a later `--checkpoint <file>`. */
export function formatChainJson(check: ChainCheck, { source, from, evidence }: ChainHeading): string {
  return `${JSON.stringify({
    source, intact: check.broken === undefined && (evidence?.headProblems.length ?? 0) === 0, checked: check.checked, from: from ?? null,
    newest: check.newest ?? null, broken: check.broken ?? null, ...(check.unfinishedTail === true ? { unfinishedTail: true } : {}),
    unkeyed: check.unkeyed, keyed: check.keyed,
    heads: {
      given: evidence?.heads.length ?? 0, matched: check.headsMatched, beforeCheckpoint: check.headsBeforeCheckpoint,
      skipped: evidence?.headsSkipped ?? 0, problems: evidence?.headProblems ?? [],
    },
  }, null, 2)}\n`;
}

/**
 * A checkpoint kept in a file: `{"id": …, "hash": "…"}`, or the JSON a check printed, whose `newest` it
 * takes. Undefined when the text holds neither.
 */
export function parseCheckpoint(text: string): Checkpoint | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const object = parsed as { id?: unknown; hash?: unknown; newest?: { id?: unknown; hash?: unknown } } | null;
  const candidate = object?.newest ?? object;
  const { id, hash } = candidate ?? {};
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 && typeof hash === 'string' && HASH.test(hash) ? { id, hash } : undefined;
}

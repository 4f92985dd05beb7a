import type { ChainCheck, ChainPoint, Checkpoint } from './chain-check.js';

/** Where the chain was read and where its check began; never a connection string. */
export interface ChainHeading {
  /** e.g. `PostgreSQL schema audit`, `file /data/audit/audit-trail.jsonl`. */
  source: string;
  /** `record` in PostgreSQL, `line` in the file. */
  unit: 'record' | 'line';
  from: Checkpoint | undefined;
}

const HASH = /^[0-9a-f]{64}$/;

const point = (unit: string, p: ChainPoint): string => `${unit} ${p.id}${p.time === undefined ? '' : `, ${p.time}`}, hash ${p.hash}`;

/**
 * The check as lines a person reads: intact or broken (the first bad record, its time and why), then
 * the newest record that holds, whose id and hash are what to keep outside the store
 * (docs/operations.md#backups).
 */
export function formatChainText(check: ChainCheck, { source, unit, from }: ChainHeading): string {
  const start = from === undefined ? `from the first ${unit}` : `from checkpoint ${unit} ${from.id}${from.hash === undefined ? '' : ' (its hash as recorded)'}`;
  const lines = [check.broken === undefined
    ? `Audit chain of ${source}: intact, ${check.checked} ${unit}${check.checked === 1 ? '' : 's'} checked ${start}.`
    : `Audit chain of ${source}: BROKEN at ${unit} ${check.broken.id}${check.broken.time === undefined ? '' : ` (${check.broken.time})`}: ${check.broken.why}.`];
  if (check.newest === undefined) lines.push(check.broken === undefined ? `No ${unit}s yet.` : `No ${unit} ${start} holds.`);
  else lines.push(`${check.broken === undefined ? 'Newest' : 'Last intact'} ${point(unit, check.newest)}`);
  if (check.unfinishedTail === true) {
    lines.push('The last line is unfinished (a write in progress, or torn by a crash: the service sets it aside at its next start); not checked.');
  }
  return `${lines.join('\n')}\n`;
}

/** The check as one JSON object; saved to a file, it is a checkpoint for a later `--checkpoint <file>`. */
export function formatChainJson(check: ChainCheck, { source, from }: ChainHeading): string {
  return `${JSON.stringify({
    source, intact: check.broken === undefined, checked: check.checked, from: from ?? null, newest: check.newest ?? null,
    broken: check.broken ?? null, ...(check.unfinishedTail === true ? { unfinishedTail: true } : {}),
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

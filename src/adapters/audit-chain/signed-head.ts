/**
 * A signed head (docs/operations.md#signed-heads): the newest record an instance stored, its id and
 * hash, MACed with the chain key and written to the service's log, so that the region's log platform
 * holds checkpoints nobody at the database can change. `npm run audit -- --verify --head <file>` reads
 * them back from an export of the log and checks the trail against each.
 */
import { timingSafeEqual } from 'node:crypto';
import { KEY_ID, macHex, type ChainKey } from './chain-keys.js';

export interface SignedHead {
  /** Which trail: `postgresql:<schema>` or `file`. */
  store: string;
  /** The record's id (its line number in the file); 0 for a trail with no record yet. */
  id: number;
  hash: string;
  /** The record's time, as stored; absent for an empty trail. */
  time?: string;
  /** When the head was signed (ISO-8601 UTC). */
  at: string;
  /** The id of the key its MAC is made with. */
  key: string;
  /** HMAC-SHA-256 of the fields above, hex. */
  mac: string;
}

/** The field of a log line that holds a head. */
export const HEAD_FIELD = 'auditHead';
export const FILE_STORE = 'file';
export const postgresStore = (schema: string): string => `postgresql:${schema}`;

const HEX64 = /^[0-9a-f]{64}$/;
// The fields in a fixed order with a prefix no record's canonical form has, so a head's MAC is never a record's.
const signedText = (h: Omit<SignedHead, 'key' | 'mac'>): string => ['pdas-audit-head/1', h.store, String(h.id), h.hash, h.time ?? '', h.at].join('\n');

export function signHead(key: ChainKey, head: Omit<SignedHead, 'key' | 'mac'>): SignedHead {
  return { ...head, key: key.id, mac: macHex(key, signedText(head)) };
}

/** Why a head cannot be trusted (its key unknown, its MAC wrong), or undefined when it verifies. */
export function headProblem(head: SignedHead, keys: ReadonlyMap<string, ChainKey>): string | undefined {
  const key = keys.get(head.key);
  if (key === undefined) return `it is signed with key id ${JSON.stringify(head.key)}, which no key file given holds`;
  const expected = Buffer.from(macHex(key, signedText(head)), 'hex');
  return timingSafeEqual(expected, Buffer.from(head.mac, 'hex')) ? undefined : 'its MAC does not verify: it was not made with that key, or it was altered';
}

/** The head in a parsed value, when it is one: the fields checked for form, nothing else kept. */
function headOf(value: unknown): SignedHead | 'malformed' | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const { store, id, hash, time, at, key, mac } = v;
  const formed = typeof store === 'string' && store.length <= 200 && typeof id === 'number' && Number.isSafeInteger(id) && id >= 0
    && typeof hash === 'string' && HEX64.test(hash) && (time === undefined || typeof time === 'string') && typeof at === 'string'
    && typeof key === 'string' && KEY_ID.test(key) && typeof mac === 'string' && HEX64.test(mac);
  if (!formed) return 'malformed';
  return { store, id, hash, ...(time === undefined ? {} : { time }), at, key, mac };
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

// Log platforms export a line as it was written, or wrapped in an object of their own whose field holds it.
const WRAPPERS = ['message', 'log', 'line', 'msg'] as const;

/** The head a log line carries in its `auditHead` field, directly or inside a log platform's wrapper. */
function headInLine(text: string): SignedHead | 'malformed' | undefined {
  const line = parsed(text);
  if (line === null || typeof line !== 'object') return undefined;
  const record = line as Record<string, unknown>;
  if (HEAD_FIELD in record) return headOf(record[HEAD_FIELD]) ?? 'malformed';
  for (const field of WRAPPERS) {
    const inner = record[field];
    if (typeof inner === 'string' && inner.includes(HEAD_FIELD)) return headInLine(inner);
  }
  return undefined;
}

/** The heads of a log export, one JSON line each; lines that hold none are passed over, so a whole log can be given. */
export function headsIn(text: string): Array<{ line: number; head: SignedHead | 'malformed' }> {
  const found: Array<{ line: number; head: SignedHead | 'malformed' }> = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.includes(HEAD_FIELD)) continue;
    const head = headInLine(line.trim());
    if (head !== undefined) found.push({ line: i + 1, head });
  }
  return found;
}

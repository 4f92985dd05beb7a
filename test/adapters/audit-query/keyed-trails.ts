/**
 * Trails for the keyed chain's tests (docs/operations.md#the-chain-key): written by the adapters under
 * two keys in turn, with a signed head logged as the service logs it, and rewritten as someone with
 * write access to the store and without the key would rewrite them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type pg from 'pg';
import { macHex, parseChainKeys, unkeyedHex, type ChainKey } from '../../../src/adapters/audit-chain/chain-keys.js';
import { HEAD_FIELD, signHead, type SignedHead } from '../../../src/adapters/audit-chain/signed-head.js';
import type { ChainPoint } from '../../../src/adapters/audit-query/chain-check.js';
import { GENESIS, rowHash, rowMac, SELECT_COLUMNS, storedValuesOf, type SelectedRow } from '../../../src/adapters/audit-postgres/audit-row.js';

export const K1 = `k1:${'a1'.repeat(32)}`;
export const K2 = `k2:${'b2'.repeat(32)}`;
/** The keys of the region, K1 retired and K2 signing, and one nobody else has. */
export const KEYS = parseChainKeys(`${K1}\n${K2}\n`, 'test keys');
export const k1 = KEYS.byId.get('k1') as ChainKey;
export const k2 = KEYS.byId.get('k2') as ChainKey;
export const ATTACKERS = parseChainKeys(`k2:${'ee'.repeat(32)}\n`, 'attacker').signing;

/** A signed head as one line of the service's log (src/start/audit-selection.ts). */
export function headLine(store: string, point: ChainPoint, at = '2026-11-21T09:05:00.000Z'): string {
  const head: SignedHead = signHead(k2, { store, id: point.id, hash: point.hash, ...(point.time === undefined ? {} : { time: point.time }), at });
  return `${JSON.stringify({ level: 30, time: Date.parse(at), pid: 1, hostname: 'pod-a', [HEAD_FIELD]: head, msg: 'audit chain head' })}\n`;
}

/** How the rewriter chains what it rewrote: with no key (SHA-256, as before the chain had one), or under a key of its own. */
export type Rewrite = 'unkeyed' | ChainKey;

/**
 * The file trail rewritten from line `from` (1-based): `edit` changes that line's record, and every
 * line from it on is chained again onto the one before, as someone with the file and without the key can.
 */
export async function rewriteFileTail(file: string, from: number, how: Rewrite, edit: (record: Record<string, unknown>) => void): Promise<void> {
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  let prev = from === 1 ? GENESIS : (JSON.parse(lines[from - 2] ?? '') as { hash: string }).hash;
  for (let i = from - 1; i < lines.length; i++) {
    const { hash: _hash, prev: _prev, key: _key, ...record } = JSON.parse(lines[i] ?? '') as Record<string, unknown>;
    if (i === from - 1) edit(record);
    const chained = { ...record, ...(how === 'unkeyed' ? {} : { key: how.id }), prev };
    const text = JSON.stringify(chained);
    prev = how === 'unkeyed' ? unkeyedHex(text) : macHex(how, text);
    lines[i] = JSON.stringify({ ...chained, hash: prev });
  }
  await writeFile(file, `${lines.join('\n')}\n`);
}

/** What only the table's owner can do, with the append-only trigger set aside. */
export async function asOwner(admin: pg.Pool, schema: string, sql: string, values: unknown[] = []): Promise<void> {
  const t = `"${schema}".access_log`;
  const client = await admin.connect();
  try {
    await client.query(`ALTER TABLE ${t} DISABLE TRIGGER access_log_append_only`);
    await client.query(sql.replaceAll('$t', t), values);
    await client.query(`ALTER TABLE ${t} ENABLE TRIGGER access_log_append_only`);
  } finally {
    client.release();
  }
}

/** The PostgreSQL trail rewritten from row `from` on: the row's outcome turned to `denied`, it and every later row chained again. */
export async function rewritePostgresTail(admin: pg.Pool, schema: string, from: number, how: Rewrite): Promise<void> {
  const { rows } = await admin.query<SelectedRow>(`SELECT ${SELECT_COLUMNS} FROM "${schema}".access_log WHERE id >= $1 ORDER BY id`, [from - 1]);
  let prev = from === 1 ? GENESIS : rows.find((r) => Number(r.id) === from - 1)?.hash ?? GENESIS;
  for (const row of rows.filter((r) => Number(r.id) >= from)) {
    const values = storedValuesOf(row);
    if (Number(row.id) === from) values.text[10] = 'denied';
    const hash = how === 'unkeyed' ? rowHash(values, prev) : rowMac(values, prev, how);
    await asOwner(admin, schema, 'UPDATE $t SET outcome = $1, key_id = $2, prev_hash = $3, hash = $4 WHERE id = $5',
      [values.text[10], how === 'unkeyed' ? null : how.id, prev, hash, row.id]);
    prev = hash;
  }
}

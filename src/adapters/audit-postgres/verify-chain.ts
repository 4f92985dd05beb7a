import type { ClientBase, Pool } from 'pg';
import type { ChainKey } from '../audit-chain/chain-keys.js';
import { ChainWalk, type ChainCheck, type ChainCheckOptions, type ChainLink } from '../audit-query/chain-check.js';
import { chainedHash, GENESIS, SELECT_COLUMNS, storedValuesOf, type SelectedRow } from './audit-row.js';
import { quotedSchema } from './sql-names.js';

const PAGE = 2000;

/**
 * Recomputes the hash chain of the PostgreSQL trail in id order, a page at a time so a long trail
 * is never held in memory, from the first row or from a checkpoint (a row whose hash was recorded
 * elsewhere). Finds the first row whose content or link to the row before does not match (an edited
 * row, or the row after a removed one), and the newest row that holds. Removal of the newest rows
 * leaves no gap to find; compare with a head hash kept elsewhere, or check from it as a checkpoint.
 */
export async function checkPostgresChain(db: Pool | ClientBase, schema: string, options: ChainCheckOptions = {}): Promise<ChainCheck> {
  const s = quotedSchema(schema);
  const walk = new ChainWalk('record', GENESIS, options);
  let after = String((options.from?.id ?? 1) - 1);
  for (;;) {
    const { rows } = await db.query<SelectedRow>(
      `SELECT ${SELECT_COLUMNS} FROM ${s}.access_log WHERE id > $1::bigint ORDER BY id LIMIT ${PAGE}`, [after]);
    for (const row of rows) {
      const broken = walk.take(rowLink(row, options.keys));
      if (broken !== undefined) return walk.result();
    }
    if (rows.length < PAGE) return walk.result();
    after = rows.at(-1)?.id ?? after;
  }
}

/** A row as the chain walk takes it: keyed rows verified with the key they name, when it is at hand. */
function rowLink(row: SelectedRow, keys: ReadonlyMap<string, ChainKey> = new Map()): ChainLink {
  const link = { id: Number(row.id), time: row.time_utc, link: row.prev_hash, hash: row.hash };
  if (row.key_id === null) return { ...link, own: chainedHash(storedValuesOf(row), row.prev_hash, undefined) === row.hash };
  const key = keys.get(row.key_id);
  if (key === undefined) return { ...link, own: false, key: row.key_id, unknownKey: true };
  return { ...link, own: chainedHash(storedValuesOf(row), row.prev_hash, key) === row.hash, key: row.key_id };
}

/** The id of the first row that breaks the chain, or 0 when it holds (checkPostgresChain, in short). */
export async function verifyPostgresChain(db: Pool | ClientBase, schema: string, keys?: ReadonlyMap<string, ChainKey>): Promise<number> {
  return (await checkPostgresChain(db, schema, keys === undefined ? {} : { keys })).broken?.id ?? 0;
}

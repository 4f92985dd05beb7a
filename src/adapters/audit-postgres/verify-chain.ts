import type { ClientBase, Pool } from 'pg';
import { ChainWalk, type ChainCheck, type Checkpoint } from '../audit-query/chain-check.js';
import { GENESIS, rowHash, SELECT_COLUMNS, storedValuesOf, type SelectedRow } from './audit-row.js';
import { quotedSchema } from './sql-names.js';

const PAGE = 2000;

/**
 * Recomputes the hash chain of the PostgreSQL trail in id order, a page at a time so a long trail
 * is never held in memory, from the first row or from a checkpoint (a row whose hash was recorded
 * elsewhere). Finds the first row whose content or link to the row before does not match (an edited
 * row, or the row after a removed one), and the newest row that holds. Removal of the newest rows
 * leaves no gap to find; compare with a head hash kept elsewhere, or check from it as a checkpoint.
 */
export async function checkPostgresChain(db: Pool | ClientBase, schema: string, from?: Checkpoint): Promise<ChainCheck> {
  const s = quotedSchema(schema);
  const walk = new ChainWalk('record', GENESIS, from);
  let after = String((from?.id ?? 1) - 1);
  for (;;) {
    const { rows } = await db.query<SelectedRow>(
      `SELECT ${SELECT_COLUMNS} FROM ${s}.access_log WHERE id > $1::bigint ORDER BY id LIMIT ${PAGE}`, [after]);
    for (const row of rows) {
      const broken = walk.take({
        id: Number(row.id), time: row.time_utc, link: row.prev_hash, hash: row.hash, own: rowHash(storedValuesOf(row), row.prev_hash) === row.hash,
      });
      if (broken !== undefined) return walk.result();
    }
    if (rows.length < PAGE) return walk.result();
    after = rows.at(-1)?.id ?? after;
  }
}

/** The id of the first row that breaks the chain, or 0 when it holds (checkPostgresChain, in short). */
export async function verifyPostgresChain(db: Pool | ClientBase, schema: string): Promise<number> {
  return (await checkPostgresChain(db, schema)).broken?.id ?? 0;
}

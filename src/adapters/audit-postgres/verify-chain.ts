import type { ClientBase, Pool } from 'pg';
import { GENESIS, rowHash, SELECT_COLUMNS, storedValuesOf, type SelectedRow } from './audit-row.js';
import { quotedSchema } from './sql-names.js';

const PAGE = 2000;

/**
 * Recomputes the hash chain of the PostgreSQL trail in id order, a page at a time so a long trail
 * is never held in memory. Returns the id of the first row whose content or link to the row
 * before does not match (an edited row, or the row after a removed one), or 0 when all match.
 * Removal of the newest rows leaves no gap to find; compare with a head hash kept elsewhere.
 */
export async function verifyPostgresChain(db: Pool | ClientBase, schema: string): Promise<number> {
  const s = quotedSchema(schema);
  let prev = GENESIS;
  let after = '0';
  for (;;) {
    const { rows } = await db.query<SelectedRow>(
      `SELECT ${SELECT_COLUMNS} FROM ${s}.access_log WHERE id > $1::bigint ORDER BY id LIMIT ${PAGE}`, [after]);
    for (const row of rows) {
      if (row.prev_hash !== prev || rowHash(storedValuesOf(row), prev) !== row.hash) return Number(row.id);
      prev = row.hash;
    }
    if (rows.length < PAGE) return 0;
    after = rows.at(-1)?.id ?? after;
  }
}

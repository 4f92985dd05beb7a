import type { ClientBase, QueryResult } from 'pg';
import type { ChainKey } from '../audit-chain/chain-keys.js';
import type { ChainPoint } from '../audit-query/chain-check.js';
import { chainedHash, COLUMNS, GENESIS, GRANT_COLUMNS, LATER_COLUMNS, type StoredValues } from './audit-row.js';
import { lockKey, quotedSchema } from './sql-names.js';

const ARRAY_TYPES = ['timestamptz', ...Array<string>(11).fill('text'), 'smallint', 'text', 'text', 'integer', 'text', 'integer', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text'];
const INSERTED = [...COLUMNS, ...LATER_COLUMNS, 'key_id', 'prev_hash', 'hash', ...GRANT_COLUMNS];

function insertSql(s: string): string {
  const params = ARRAY_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  const names = INSERTED.map((c) => `u_${c}`);
  // WITH ORDINALITY ... ORDER BY n: ids are drawn in array order, which is the order of the chain; the
  // last id drawn is the batch's newest record, which a signed head names.
  return `WITH stored AS (INSERT INTO ${s}.access_log (${INSERTED.join(', ')})
    SELECT ${names.join(', ')} FROM unnest(${params}) WITH ORDINALITY AS u(${names.join(', ')}, n) ORDER BY n RETURNING id)
    SELECT max(id)::text AS id FROM stored`;
}

/** The newest row this instance stored is gone from the table, or holds another hash: someone at the store changed the chain under it. */
export class AuditChainCutError extends Error {
  constructor(readonly id: number, what: string) {
    super(`record ${id}, the newest this instance stored, ${what}`);
    this.name = 'AuditChainCutError';
  }
}

/**
 * Stores a batch of records in one transaction, each row chained to the one before it. The chain
 * head is read under a transaction-scoped advisory lock that every writer of this schema takes, so
 * two instances appending at once still build one unbroken chain in id order. Each row is MACed with
 * `key` (its id stored beside it), or hashed as before the chain had a key when there is none. With
 * `ours`, the newest row this instance stored, that row must still hold its hash, else nothing is
 * stored (AuditChainCutError).
 * Resolves only after COMMIT has returned, i.e. the rows are durable, with the newest row stored.
 */
export async function insertChained(client: ClientBase, schema: string, batch: readonly StoredValues[], key?: ChainKey, ours?: ChainPoint): Promise<ChainPoint> {
  const s = quotedSchema(schema);
  if (ours !== undefined && !Number.isSafeInteger(ours.id)) throw new TypeError('the newest row stored has no whole id');
  // One round trip: begin, keep commits durable even where the server runs with synchronous_commit
  // off (a stronger setting is left alone), take the chain lock, read the chain head, and the newest
  // row this instance stored. READ COMMITTED whatever the server's default, so both are read with a
  // snapshot taken after the lock.
  const opened = (await client.query(`BEGIN ISOLATION LEVEL READ COMMITTED;
    SELECT set_config('synchronous_commit', CASE current_setting('synchronous_commit') WHEN 'off' THEN 'on'
      ELSE current_setting('synchronous_commit') END, true);
    SELECT pg_advisory_xact_lock(${lockKey('chain', schema)}::bigint);
    SELECT hash FROM ${s}.access_log ORDER BY id DESC LIMIT 1;
    SELECT hash FROM ${s}.access_log WHERE id = ${ours?.id ?? 0}`)) as unknown as Array<QueryResult<{ hash: string }>>;
  const head = opened[3];
  // Never fall back to the genesis hash on an answer of unexpected shape: that would fork the chain.
  if (opened.length !== 5 || !head || !opened[4]) throw new Error('unexpected answer to the chain head query');
  if (ours !== undefined) {
    // Rows cut from the end, or the last one rewritten, while this instance ran: the rows stored now would
    // link over the loss and hide it (hostile review helper-133, F1).
    const found = opened[4].rows[0]?.hash;
    if (found !== ours.hash) throw new AuditChainCutError(ours.id, found === undefined ? 'is gone' : 'holds another hash');
  }
  let prev = head.rows[0]?.hash ?? GENESIS;
  const columns: unknown[][] = INSERTED.map(() => []);
  for (const values of batch) {
    const hash = chainedHash(values, prev, key);
    [values.time, ...values.text, values.status, values.phase, values.serviceRequestId, values.withheld, values.callerRequestId, values.unaudited,
      key?.id ?? null, prev, hash, values.proxyGrantId, values.reason, values.writeResult, values.alsoRead, values.contactId, values.paymentType].forEach((v, i) => columns[i]?.push(v));
    prev = hash;
  }
  const stored = await client.query<{ id: string | null }>({ name: `pdas-audit-insert-${schema}`, text: insertSql(s), values: columns });
  // On any failure the caller drops the connection, and the server rolls the transaction back.
  await client.query('COMMIT');
  const id = Number(stored.rows[0]?.id);
  const time = batch.at(-1)?.time;
  return { id, hash: prev, ...(time === undefined ? {} : { time }) };
}

/**
 * The PostgreSQL audit trail read forward by its id (src/ports/audit-feed.port.ts): ids are drawn under
 * the chain lock every writer takes until it commits (insert-chained.ts), so they follow commit order
 * and a reader after id N never misses a row committed later below it. A page scans at most four times
 * `limit` rows past the position and gives the outcome rows naming a patient among them, at most
 * `limit`; attempt rows and rows naming nobody are passed over, and the position moves past them too,
 * so a run of them is never scanned twice.
 */
import pg from 'pg';
import { AuditFeedUnavailableError, type AuditFeed, type FedRecord, type FeedPage } from '../../ports/audit-feed.port.js';
import { describePgError, outlivingConnections } from '../audit-postgres/bounded-client.js';
import { quotedSchema } from '../audit-postgres/sql-names.js';

export interface PostgresAuditFeedOptions {
  connectionString: string;
  /** The audit trail's schema. Default `audit`. */
  schema?: string;
  poolMax?: number;
  /** A page not read by then fails (the next turn reads it again). Default 2000 ms. */
  statementTimeoutMs?: number;
  /** Told when a position is not one this trail gave, or lies past its end (a database restored from a backup): the feed goes on from the end. */
  onWarning?: (msg: string) => void;
}

/** Rows scanned per record asked for: a write's attempt row and a few rows naming nobody per record. */
const SCAN_PER_RECORD = 4;
const POSITION = /^pg:(\d{1,19})$/;

interface Row {
  scanned_to: string | null;
  last_id: string;
  id: string | null;
  time: Date;
  service_id: string;
  operation: string;
  outcome: FedRecord['outcome'];
  status: number;
  patient_id: string;
  actor_person_id: string | null;
  client_id: string | null;
}

const pageSql = (s: string): string => `
  WITH scanned AS (SELECT id, time, coalesce(service_request_id, request_id) AS service_id, operation, outcome, status, patient_id, actor_person_id, client_id, phase
                     FROM ${s}.access_log WHERE id > $1 ORDER BY id LIMIT $2),
       picked AS (SELECT * FROM scanned WHERE phase = 'outcome' AND patient_id IS NOT NULL ORDER BY id LIMIT $3)
  SELECT (SELECT max(id) FROM scanned)::text AS scanned_to, (SELECT coalesce(max(id), 0) FROM ${s}.access_log)::text AS last_id, p.id::text AS id,
         p.time, p.service_id, p.operation, p.outcome, p.status, p.patient_id, p.actor_person_id, p.client_id
    FROM (SELECT 1) AS one LEFT JOIN picked AS p ON true ORDER BY p.id`;

function recordOf(row: Row): FedRecord {
  return {
    timeMs: row.time.getTime(), requestId: row.service_id, operation: row.operation, outcome: row.outcome, status: row.status, patientId: row.patient_id,
    ...(row.actor_person_id === null ? {} : { actorPersonId: row.actor_person_id }),
    ...(row.client_id === null ? {} : { clientId: row.client_id }),
  };
}

export class PostgresAuditFeed implements AuditFeed {
  private readonly sql: string;
  private readonly endSql: string;

  private constructor(private readonly pool: pg.Pool, s: string, private readonly onWarning: (msg: string) => void) {
    this.sql = pageSql(s);
    this.endSql = `SELECT coalesce(max(id), 0)::text AS id FROM ${s}.access_log`;
  }

  static create(options: PostgresAuditFeedOptions): PostgresAuditFeed {
    const s = quotedSchema(options.schema ?? 'audit');
    const timeout = options.statementTimeoutMs ?? 2000;
    const pool = outlivingConnections(new pg.Pool({
      connectionString: options.connectionString, max: options.poolMax ?? 2, connectionTimeoutMillis: timeout, idleTimeoutMillis: 10_000,
      keepAlive: true, statement_timeout: timeout, query_timeout: timeout + 500, application_name: 'patient-data-access-audit-feed',
    }));
    return new PostgresAuditFeed(pool, s, options.onWarning ?? (() => undefined));
  }

  async after(position: string | undefined, limit: number): Promise<FeedPage> {
    try {
      const from = position === undefined ? undefined : POSITION.exec(position)?.[1];
      if (from === undefined) {
        if (position !== undefined) this.onWarning('the audit feed\'s position is not one the PostgreSQL trail gave: it goes on from the trail\'s end');
        return { records: [], position: `pg:${(await this.pool.query<{ id: string }>(this.endSql)).rows[0]?.id ?? '0'}` };
      }
      const { rows } = await this.pool.query<Row>(this.sql, [from, limit * SCAN_PER_RECORD, limit]);
      const first = rows[0] as Row;
      if (BigInt(first.last_id) < BigInt(from)) {
        this.onWarning(`the PostgreSQL audit trail ends before the audit feed's position (id ${first.last_id} < ${from}; a database restored from a backup?): it goes on from the trail's end`);
        return { records: [], position: `pg:${first.last_id}` };
      }
      const records = rows.filter((r) => r.id !== null).map(recordOf);
      const to = records.length >= limit ? (rows.at(-1) as Row).id : first.scanned_to;
      return { records, position: `pg:${to ?? from}` };
    } catch (err) {
      throw new AuditFeedUnavailableError(`the audit trail cannot be read forward from PostgreSQL: ${describePgError(err)}`, { cause: err });
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

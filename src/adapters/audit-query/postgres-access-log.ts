import pg from 'pg';
import { AccessLogUnavailableError, type AccessLogQuery, type AccessLogReader, type LoggedAccess, type StoredAccess } from '../../ports/access-log.port.js';
import { describePgError, outlivingConnections } from '../audit-postgres/bounded-client.js';
import { quotedSchema } from '../audit-postgres/sql-names.js';

/**
 * One entry as the page's JSON array holds it: `[id, timeMs, requestId, operation, actorPersonId, clientId, subscription, delegation, outcome, status,
 * proxyGrantId, reason, alsoRead, writeResult]`;
 * `requestId` is the service's own id (`service_request_id`, else, in a row older than that column, `request_id`).
 */
type Row = [string, number, string, string, string | null, string | null, string | null, string | null, LoggedAccess['outcome'], number,
  string | null, string | null, string | null, string | null];

/**
 * One statement for every page, prepared once per connection. The inner query walks the
 * (patient_id, time) index from the later of `fromDateTime` and the cursor's time, in (time, id)
 * order, and stops after `limit` rows; attempt rows of writes are skipped; only the columns the log
 * may show are read. The page comes back as one JSON array (JSON.parse in the driver), not as
 * `limit` rows of ten fields each: decoding the rows field by field was a fifth of the service's CPU.
 */
export const pageSql = (s: string): string => `
  SELECT coalesce(json_agg(json_build_array(id::text, (extract(epoch FROM time) * 1000)::bigint, service_id, operation,
           actor_person_id, client_id, subscription, delegation, outcome, status, proxy_grant_id, reason, also_read, write_result) ORDER BY time, id), '[]'::json) AS page
    FROM (SELECT id, time, coalesce(service_request_id, request_id) AS service_id, operation, actor_person_id, client_id, subscription, delegation, outcome, status,
                 proxy_grant_id, reason, also_read, write_result
            FROM ${s}.access_log
           WHERE patient_id = $1 AND phase = 'outcome'
             AND time >= greatest($2::timestamptz, $4::timestamptz) AND time <= $3::timestamptz
             AND (time > $4::timestamptz OR id > $5::bigint)
           ORDER BY time, id
           LIMIT $6) AS page_rows`;

const FAR_PAST = '-infinity';
const FAR_FUTURE = 'infinity';
const FIRST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A bound as PostgreSQL reads it: an ISO time of years 0001 to 9999, else past every entry. `toISOString`
 * writes year 0 (which PostgreSQL refuses: `0001-01-01T00:00:00` Stockholm time is 0000-12-31 in UTC) and
 * six-digit years.
 */
const timestampOf = (ms: number): string => (ms < FIRST_MS ? FAR_PAST : ms > LAST_MS ? FAR_FUTURE : new Date(ms).toISOString());

function stored(row: Row): StoredAccess {
  const [id, timeMs, requestId, operation, actorPersonId, clientId, subscription, delegation, outcome, status, proxyGrantId, reason, alsoRead, writeResult] = row;
  const access: LoggedAccess = { timeMs, requestId, operation, outcome, status };
  if (actorPersonId !== null) access.actorPersonId = actorPersonId;
  if (clientId !== null) access.clientId = clientId;
  if (subscription !== null) access.subscription = subscription;
  if (delegation !== null) access.delegation = delegation;
  if (proxyGrantId !== null) access.proxyGrantId = proxyGrantId;
  if (reason !== null) access.reason = reason;
  if (alsoRead !== null) access.alsoRead = alsoRead.split(' ');
  if (writeResult !== null) access.writeResult = writeResult;
  return { position: { timeMs, id }, access };
}

export interface PostgresAccessLogOptions {
  connectionString: string;
  schema?: string;
  poolMax?: number;
  /** A page not read by then is 503. Default 2000 ms. */
  statementTimeoutMs?: number;
}

/** The access log from the PostgreSQL trail, through its own small pool so reads never queue behind audit writes. */
export class PostgresAccessLog implements AccessLogReader {
  readonly store = 'postgresql';
  private readonly sql: string;
  private readonly statement: string;

  private constructor(private readonly pool: pg.Pool, schema: string) {
    this.sql = pageSql(quotedSchema(schema));
    this.statement = `access-log-page-${schema}`;
  }

  static create(options: PostgresAccessLogOptions): PostgresAccessLog {
    const schema = options.schema ?? 'audit';
    quotedSchema(schema);
    const timeout = options.statementTimeoutMs ?? 2000;
    const pool = outlivingConnections(new pg.Pool({
      connectionString: options.connectionString, max: options.poolMax ?? 4, connectionTimeoutMillis: timeout,
      idleTimeoutMillis: 10_000, keepAlive: true, statement_timeout: timeout, query_timeout: timeout + 500,
      application_name: 'patient-data-access-access-log',
      // Planned with each page's values: a generic plan of the prepared statement cannot know how many rows
      // a patient has and sorts all of them (56 ms for 5,000) instead of reading the index in time order (1 ms).
      options: '-c plan_cache_mode=force_custom_plan',
    }));
    return new PostgresAccessLog(pool, schema);
  }

  async page(q: AccessLogQuery): Promise<StoredAccess[]> {
    const after = q.after;
    const values = [
      q.patientId,
      q.fromMs === undefined ? FAR_PAST : timestampOf(q.fromMs),
      q.toMs === undefined ? FAR_FUTURE : timestampOf(q.toMs),
      after === undefined ? FAR_PAST : new Date(after.timeMs).toISOString(),
      after === undefined ? '0' : after.id,
      q.limit,
    ];
    try {
      const { rows } = await this.pool.query<{ page: Row[] }>({ name: this.statement, text: this.sql, values });
      return (rows[0]?.page ?? []).map(stored);
    } catch (err) {
      throw new AccessLogUnavailableError(`access log not read from PostgreSQL: ${describePgError(err)}`);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

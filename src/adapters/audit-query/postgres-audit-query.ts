import pg from 'pg';
import { outlivingConnections } from '../audit-postgres/bounded-client.js';
import type { AuditRecord } from '../../ports/audit-trail.port.js';
import { recordOf, SELECT_COLUMNS, type SelectedRow } from '../audit-postgres/audit-row.js';
import { quotedSchema } from '../audit-postgres/sql-names.js';
import { checkPostgresChain } from '../audit-postgres/verify-chain.js';
import { accessesIn, OUTCOME_WITHIN_MS } from './accesses.js';
import { AuditTrailMissingError, type AuditQuery } from './audit-query.js';
import type { ChainCheck, ChainCheckOptions } from './chain-check.js';

/** Reads the PostgreSQL trail through its (patient_id, time) index; never writes, never migrates. */
export class PostgresAuditQuery implements AuditQuery {
  private readonly schema: string;

  private constructor(private readonly pool: pg.Pool, schema: string) {
    this.schema = schema;
  }

  static create(options: { connectionString: string; schema?: string; connectTimeoutMs?: number }): PostgresAuditQuery {
    const schema = options.schema ?? 'audit';
    quotedSchema(schema);
    const pool = outlivingConnections(new pg.Pool({
      connectionString: options.connectionString, max: 1,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      statement_timeout: 60_000, application_name: 'patient-data-access-audit-query',
    }));
    return new PostgresAuditQuery(pool, schema);
  }

  accessesTo(patientId: string, from: Date, to: Date): Promise<AuditRecord[]> {
    return this.present(async () => {
      const { rows } = await this.pool.query<SelectedRow>(
        `SELECT ${SELECT_COLUMNS} FROM ${quotedSchema(this.schema)}.access_log
          WHERE patient_id = $1 AND time >= $2 AND time <= $3 ORDER BY time, id`,
        [patientId, from.toISOString(), new Date(to.getTime() + OUTCOME_WITHIN_MS).toISOString()]);
      return accessesIn(rows.map(recordOf), from, to);
    });
  }

  chain(options?: ChainCheckOptions): Promise<ChainCheck> {
    return this.present(() => checkPostgresChain(this.pool, this.schema, options));
  }

  /** `read`, with a missing table or schema told as such, so an empty answer is never made of it. */
  private async present<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if ((err as { code?: unknown }).code === '42P01' || (err as { code?: unknown }).code === '3F000') {
        throw new AuditTrailMissingError(`no audit trail in schema ${this.schema} of this database`);
      }
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

import type { AccessLogQuery, AccessLogReader, LoggedAccess, StoredAccess } from '../../src/ports/access-log.port.js';
import type { AuditRecord, AuditTrail } from '../../src/ports/audit-trail.port.js';

/** Keeps audit records in memory; can be told to fail or to hang, like a store that went away. Reads them back as an access log. */
export class MemoryAuditTrail implements AuditTrail, AccessLogReader {
  readonly store = 'memory';
  readonly records: AuditRecord[] = [];
  mode: 'ok' | 'fail' | 'hang' = 'ok';
  /** Refuses only the records this picks (say, attempt records), as a store that fails now and then. */
  refuse: ((record: AuditRecord) => boolean) | undefined;

  append(record: AuditRecord): Promise<void> {
    if (this.mode === 'fail' || this.refuse?.(record) === true) return Promise.reject(new Error('audit store down'));
    if (this.mode === 'hang') return new Promise(() => undefined);
    this.records.push(record);
    return Promise.resolve();
  }

  async ping(): Promise<boolean> {
    return this.mode === 'ok';
  }

  async close(): Promise<void> {}

  /** The outcome records about the patient in the order appended (which is time order); a position is the index after one. */
  async page(q: AccessLogQuery): Promise<StoredAccess[]> {
    const found: StoredAccess[] = [];
    for (let i = q.after === undefined ? 0 : Number(q.after.id); i < this.records.length && found.length < q.limit; i++) {
      const r = this.records[i];
      if (r === undefined || r.patientId !== q.patientId || r.phase === 'attempt') continue;
      const ms = Date.parse(r.time);
      if ((q.fromMs !== undefined && ms < q.fromMs) || (q.toMs !== undefined && ms > q.toMs)) continue;
      const access: LoggedAccess = { timeMs: ms, requestId: r.requestId, operation: r.operation, outcome: r.outcome, status: r.status };
      if (r.actor?.personId !== undefined) access.actorPersonId = r.actor.personId;
      if (r.clientId !== undefined) access.clientId = r.clientId;
      if (r.subscription !== undefined) access.subscription = r.subscription;
      if (r.delegation !== undefined) access.delegation = r.delegation;
      if (r.proxyGrantId !== undefined) access.proxyGrantId = r.proxyGrantId;
      if (r.reason !== undefined) access.reason = r.reason;
      if (r.alsoRead !== undefined) access.alsoRead = r.alsoRead;
      if (r.writeResult !== undefined) access.writeResult = r.writeResult;
      found.push({ position: { timeMs: ms, id: String(i + 1) }, access });
    }
    return found;
  }
}

import type { AuditRecord, AuditTrail } from '../../src/ports/audit-trail.port.js';

/** Keeps audit records in memory; can be told to fail or to hang, like a store that went away. */
export class MemoryAuditTrail implements AuditTrail {
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
}

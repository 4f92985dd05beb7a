import type { AuditRecord, AuditTrail } from '../../../src/ports/audit-trail.port.js';

/** An audit store whose every write waits until the test lets it through: shows what the answer waits for. */
export class GatedAuditTrail implements AuditTrail {
  readonly store = 'gated';
  readonly records: AuditRecord[] = [];
  /** While true, writes are stored at once (the test reads its ids through the app first). */
  passThrough = true;
  private waiting: Array<() => void> = [];
  private arrived: Array<() => void> = [];

  append(record: AuditRecord): Promise<void> {
    if (this.passThrough) {
      this.records.push(record);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(() => {
        this.records.push(record);
        resolve();
      });
      for (const notify of this.arrived.splice(0)) notify();
    });
  }

  /** Resolves once a write is waiting. */
  writeWaiting(): Promise<void> {
    return this.waiting.length > 0 ? Promise.resolve() : new Promise((resolve) => this.arrived.push(resolve));
  }

  /** Lets the first waiting write through. */
  releaseOne(): void {
    this.waiting.shift()?.();
  }

  releaseAll(): number {
    const all = this.waiting.splice(0);
    for (const release of all) release();
    return all.length;
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

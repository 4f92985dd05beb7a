import type { GrantChange, GrantEvent, ProxyGrantStore, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';
import { GrantTable } from './grant-table.js';

/** Grants in this process's memory only: for tests, and for a service that keeps nothing (never the default). */
export class MemoryGrantStore implements ProxyGrantStore {
  readonly kind = 'memory';
  private readonly table = new GrantTable();
  private turn = false;

  async create(grant: StoredGrant, admit: (given: readonly StoredGrant[]) => void): Promise<void> {
    this.table.create(grant, admit);
  }

  async byId(id: string): Promise<StoredGrant | undefined> {
    return this.table.get(id);
  }

  async involving(personId: string): Promise<StoredGrant[]> {
    return this.table.all((g) => g.grantor === personId || g.grantee === personId);
  }

  async activeReceivedBy(granteeId: string): Promise<StoredGrant[]> {
    return this.table.all((g) => g.grantee === granteeId && g.state === 'active');
  }

  async change(id: string, from: readonly StoredState[], change: GrantChange, event: GrantEvent): Promise<StoredGrant | undefined> {
    return this.table.change(id, from, change, event);
  }

  async due(nowMs: number, createdBy: number): Promise<StoredGrant[]> {
    return this.table.due(nowMs, createdBy);
  }

  async inTurn<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.turn) return undefined;
    // Taken before `work` starts: what it calls before its first await finds the turn held.
    this.turn = true;
    try {
      return await work();
    } finally {
      this.turn = false;
    }
  }

  async events(afterSeq: number, limit: number): Promise<GrantEvent[]> {
    return this.table.eventsAfter(afterSeq, limit);
  }

  async close(): Promise<void> {}
}

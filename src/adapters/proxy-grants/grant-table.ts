import type { GrantChange, GrantEvent, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';

/** What a table of grants holds, as the file store writes it. */
export interface GrantTableState {
  grants: StoredGrant[];
  events: GrantEvent[];
  seq: number;
}

/** Every member of a grant but its categories is a value: a copy is a spread and the categories' copy. */
type ValuesBesideCategories = { [K in keyof StoredGrant]: K extends 'categories' ? unknown : StoredGrant[K] extends string | number | undefined ? StoredGrant[K] : never };
// A member that holds an object would need copying too: this line then fails to compile.
const grantHoldsValuesOnly: StoredGrant extends ValuesBesideCategories ? true : never = true;
void grantHoldsValuesOnly;

/**
 * A copy no caller can change what is kept through. By hand, not `structuredClone`: every read as a
 * proxy takes the grants it holds, and the clone was ~5 µs of it (docs/benchmarks-history.md#issue-53-a-read-as-a-proxy-2026-11-26).
 */
const copyOf = (g: StoredGrant): StoredGrant => ({ ...g, categories: [...g.categories] });

export const EMPTY_STATE: GrantTableState = { grants: [], events: [], seq: 0 };

/**
 * Grants and their events in memory, with the store's rules (src/ports/proxy-grants.port.ts): the
 * memory store is this alone, the file store this kept in DATA_DIR. Every grant handed out is a copy,
 * so nothing outside changes what is kept.
 */
export class GrantTable {
  private readonly byId = new Map<string, StoredGrant>();
  private readonly events: GrantEvent[];
  private seq: number;

  constructor(state: GrantTableState = EMPTY_STATE) {
    for (const g of state.grants) this.byId.set(g.id, copyOf(g));
    this.events = state.events.map((e) => ({ ...e }));
    this.seq = state.seq;
  }

  state(): GrantTableState {
    return { grants: [...this.byId.values()].map((g) => copyOf(g)), events: this.events.map((e) => ({ ...e })), seq: this.seq };
  }

  create(grant: StoredGrant, admit: (given: readonly StoredGrant[]) => void): void {
    if (this.byId.has(grant.id)) throw new Error('a grant with this id is already kept');
    admit(this.all((g) => g.grantor === grant.grantor));
    this.byId.set(grant.id, copyOf(grant));
    this.keep({ grantId: grant.id, kind: 'granted', atMs: grant.createdMs, by: 'grantor', grantor: grant.grantor, grantee: grant.grantee });
  }

  get(id: string): StoredGrant | undefined {
    const g = this.byId.get(id);
    return g === undefined ? undefined : copyOf(g);
  }

  all(match: (g: StoredGrant) => boolean): StoredGrant[] {
    return [...this.byId.values()].filter(match).sort((a, b) => a.createdMs - b.createdMs).map((g) => copyOf(g));
  }

  change(id: string, from: readonly StoredState[], change: GrantChange, event: GrantEvent): StoredGrant | undefined {
    const g = this.byId.get(id);
    if (g === undefined || !from.includes(g.state)) return undefined;
    g.state = change.state;
    g.changedMs = change.changedMs;
    if (change.endedBy !== undefined) g.endedBy = change.endedBy;
    if (change.granteeName !== undefined) g.granteeName = change.granteeName;
    this.keep(event);
    return copyOf(g);
  }

  due(nowMs: number, createdBy: number): StoredGrant[] {
    return this.all((g) => (g.state === 'pending' && g.createdMs <= createdBy)
      || ((g.state === 'pending' || g.state === 'active') && g.validToMs !== undefined && g.validToMs < nowMs));
  }

  eventsAfter(afterSeq: number, limit: number): GrantEvent[] {
    return this.events.filter((e) => (e.seq ?? 0) > afterSeq).slice(0, limit).map((e) => ({ ...e }));
  }

  private keep(event: GrantEvent): void {
    this.seq += 1;
    this.events.push({ ...event, seq: this.seq });
  }
}

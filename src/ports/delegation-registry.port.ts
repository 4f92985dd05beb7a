import type { Relationship } from '../domain/access/relationship.js';

/** Who may act for whom. Asked on every request: answers are never cached past one request. */
export interface DelegationRegistry {
  /** Every relationship recorded for `actorId`, expired ones included. Throws EhrError. */
  relationshipsOf(actorId: string): Promise<Relationship[]>;
}

export type RelationshipType = 'guardian' | 'power-of-attorney' | 'partner';

/** One row of the delegation registry; dates are inclusive 8-digit local dates. */
export interface Relationship {
  patient: string;
  type: RelationshipType;
  validFrom: string;
  validTo?: string;
}

/** Who may act for whom. Asked on every request: answers are never cached past one request. */
export interface DelegationRegistry {
  /** Every relationship recorded for `actorId`, expired ones included. Throws EhrError. */
  relationshipsOf(actorId: string): Promise<Relationship[]>;
}

/**
 * The kinds of right to act for another person: the three the EHR's delegation registry records, and
 * `proxy`, a grant the patient gave someone of their choice (docs/proxies.md, EHDS Art. 4(2)).
 */
export type RelationshipType = 'guardian' | 'power-of-attorney' | 'partner' | 'proxy';

/** The categories a proxy grant opens: the scope names of reads (`LabResult`), or `*` for every read now and later. */
export type ProxyReach = '*' | ReadonlySet<string>;

/** One right to act for a patient; a registry row's dates are inclusive 8-digit local dates. */
export interface Relationship {
  patient: string;
  type: RelationshipType;
  validFrom: string;
  validTo?: string;
  /**
   * Only on a `proxy` row: the grant's id, its reach and its time, to the millisecond (a grant begins
   * and ends at a time, not on a day). A registry row reaches every operation its type allows.
   */
  proxy?: { grantId: string; reach: ProxyReach; fromMs: number; toMs?: number };
}

/** On what the caller's right to a patient's data rests: themself, a client token, or a relationship. */
export type AccessBasis = 'self' | 'client' | RelationshipType;

/** Nobody acts for a protected identity through delegation; the patient and client tokens still may. */
export const isDelegated = (basis: AccessBasis): boolean => basis !== 'self' && basis !== 'client';

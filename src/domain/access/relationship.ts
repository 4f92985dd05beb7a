/** The kinds of right to act for another person that the delegation registry records. */
export type RelationshipType = 'guardian' | 'power-of-attorney' | 'partner';

/** One row of the delegation registry; dates are inclusive 8-digit local dates. */
export interface Relationship {
  patient: string;
  type: RelationshipType;
  validFrom: string;
  validTo?: string;
}

/** On what the caller's right to a patient's data rests: themself, a client token, or a registry row. */
export type AccessBasis = 'self' | 'client' | RelationshipType;

/** Nobody acts for a protected identity through delegation; the patient and client tokens still may. */
export const isDelegated = (basis: AccessBasis): boolean => basis !== 'self' && basis !== 'client';

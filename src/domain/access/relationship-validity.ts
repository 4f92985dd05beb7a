import type { Relationship } from './relationship.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { birthDateOf } from '../identity/personal-identity-number.js';

/**
 * Whether a registry row lets its actor act for `patientId` on `today` (`YYYYMMDD`, local).
 * Dates are inclusive; a guardianship also ends the day before the child turns 18, whatever the
 * registry says, because a stale row must never outlive the legal relation. A child born on
 * 29 February turns 18 on 1 March in a year without that day (src/domain/identity/legal-age.ts).
 */
export function grantsAccess(row: Relationship, patientId: string, today: string): boolean {
  if (row.patient !== patientId) return false;
  if (today < row.validFrom) return false;
  if (row.validTo !== undefined && today > row.validTo) return false;
  return row.type !== 'guardian' || !hasReachedAge(birthDateOf(patientId), 18, today);
}

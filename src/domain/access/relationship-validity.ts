import type { Relationship } from '../../ports/delegation-registry.port.js';
import { birthDateOf } from '../identity/personal-identity-number.js';

/**
 * Whether a registry row lets its actor act for `patientId` on `today` (`YYYYMMDD`, local).
 * Dates are inclusive; a guardianship also ends the day before the child turns 18, whatever the
 * registry says, because a stale row must never outlive the legal relation.
 */
export function grantsAccess(row: Relationship, patientId: string, today: string): boolean {
  if (row.patient !== patientId) return false;
  if (today < row.validFrom) return false;
  if (row.validTo !== undefined && today > row.validTo) return false;
  if (row.type === 'guardian') {
    const birth = birthDateOf(patientId);
    const eighteenth = String(Number(birth.slice(0, 4)) + 18) + birth.slice(4);
    if (today >= eighteenth) return false;
  }
  return true;
}

import type { Relationship } from './relationship.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { birthDateOf } from '../identity/personal-identity-number.js';

/** The moment a right is checked at: the local calendar day (`YYYYMMDD`) and the instant. */
export interface CheckedAt {
  today: string;
  nowMs: number;
}

/**
 * Whether a relationship lets its actor act for `patientId` at `at`. A registry row's dates are
 * inclusive days; a guardianship also ends the day before the child turns 18, whatever the registry
 * says, because a stale row must never outlive the legal relation. A child born on 29 February turns
 * 18 on 1 March in a year without that day (src/domain/identity/legal-age.ts). A proxy grant holds
 * from its first millisecond to its last (`toMs` inclusive), so a revoke or an expiry refuses the
 * very next request.
 */
export function grantsAccess(row: Relationship, patientId: string, at: CheckedAt): boolean {
  if (row.patient !== patientId) return false;
  if (row.proxy !== undefined) {
    return row.type === 'proxy' && at.nowMs >= row.proxy.fromMs && (row.proxy.toMs === undefined || at.nowMs <= row.proxy.toMs);
  }
  if (row.type === 'proxy') return false;
  if (at.today < row.validFrom) return false;
  if (row.validTo !== undefined && at.today > row.validTo) return false;
  return row.type !== 'guardian' || !hasReachedAge(birthDateOf(patientId), 18, at.today);
}

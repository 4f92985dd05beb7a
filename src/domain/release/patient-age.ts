import type { AccessBasis } from '../access/relationship.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { heldAge } from './age-limit.js';
import { guardianAgeWithholds } from './guardian-age.js';
import type { ReleasePolicy } from './release-policy.js';

/**
 * Whether the patient's own age limit takes the whole read from the patient: until the day they
 * reach the operation's age (the birthday itself, "today" in EHR_TIMEZONE, as the guardian age
 * limit counts it), the patient reading their own record gets none of that read's items (1177: a
 * child reads their own journal from 16; from 13 to 15 neither the child nor, by the guardian age
 * limit, the guardian does). Only the patient's own reads (`self`): the limit is about the patient
 * reading online, so it never holds a client token (issue 52 item 20). A client token may be a second
 * instance reading for a guardian or a kiosk; the door that faces the person applies the policy with
 * its own file (docs/release-policy.md#a-chain-of-instances). A delegate is held by the guardian age
 * limit and the relationship's own rules.
 */
export function patientAgeWithholds(
  policy: ReleasePolicy, operation: string, basis: AccessBasis, patientId: string, now: number, zone: string,
): boolean {
  if (basis !== 'self') return false;
  const held = heldAge(policy.patientAgeLimit, 'self', operation, basis, patientId, now, zone);
  return held !== undefined && !hasReachedAge(held.birth, held.age, held.today);
}

/** Whether an age limit of the policy, the guardian's or the patient's own, takes the whole read from this caller. */
export const ageLimitWithholds = (
  policy: ReleasePolicy, operation: string, basis: AccessBasis, patientId: string, now: number, zone: string,
): boolean => guardianAgeWithholds(policy, operation, basis, patientId, now, zone) || patientAgeWithholds(policy, operation, basis, patientId, now, zone);

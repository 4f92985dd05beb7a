import type { AccessBasis } from '../access/relationship.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { heldAge } from './age-limit.js';
import type { ReleasePolicy } from './release-policy.js';

const ADULT = 18;

/**
 * Whether the guardian age limit takes the whole read from this caller: a guardian, from the day
 * the child reaches the operation's age (the birthday itself, "today" in EHR_TIMEZONE; a child
 * born on 29 February reaches it on 1 March in other years, src/domain/identity/legal-age.ts). A
 * client token cannot show that a guardian is not behind it, so it is held to the limit too while
 * the patient is a minor, unless the rule says `applyToClientTokens: false`. The birth date is the
 * identity number's (a coordination number's day less 60).
 */
export function guardianAgeWithholds(
  policy: ReleasePolicy, operation: string, basis: AccessBasis, patientId: string, now: number, zone: string,
): boolean {
  const held = heldAge(policy.guardianAgeLimit, 'guardian', operation, basis, patientId, now, zone);
  if (held === undefined || !hasReachedAge(held.birth, held.age, held.today)) return false;
  return basis === 'guardian' || !hasReachedAge(held.birth, ADULT, held.today);
}

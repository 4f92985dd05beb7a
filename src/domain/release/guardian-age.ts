import type { AccessBasis } from '../access/relationship.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { birthDateOf } from '../identity/personal-identity-number.js';
import { localDate } from '../time/local-time.js';
import { appliesTo } from './active-rules.js';
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
  const rule = policy.guardianAgeLimit;
  const age = rule?.operations[operation];
  if (age === undefined || (basis !== 'guardian' && basis !== 'client') || !appliesTo(rule, basis)) return false;
  const birth = birthDateOf(patientId);
  const today = localDate(now, zone);
  if (!hasReachedAge(birth, age, today)) return false;
  return basis === 'guardian' || !hasReachedAge(birth, ADULT, today);
}

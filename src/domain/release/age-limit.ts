import type { AccessBasis } from '../access/relationship.js';
import { birthDateOf } from '../identity/personal-identity-number.js';
import { localDate } from '../time/local-time.js';
import { appliesTo } from './active-rules.js';
import type { ReleasePolicy } from './release-policy.js';

/** The patient's own limit has no `applyToClientTokens`: it never holds a client token (src/domain/release/patient-age.ts). */
type AgeLimit = NonNullable<ReleasePolicy['guardianAgeLimit']> | (NonNullable<ReleasePolicy['patientAgeLimit']> & { applyToClientTokens?: never });

/** An age limit as it meets one caller: the operation's age, the patient's birth date and today in EHR_TIMEZONE. */
export interface HeldAge { age: number; birth: ReturnType<typeof birthDateOf>; today: ReturnType<typeof localDate> }

/**
 * The age limit's hold on this caller, or undefined where it has none: the limit names the
 * operation, and the caller is the one the limit is for (`holds`) or a client token it applies to.
 * The guardian's and the patient's own limits differ only in who they hold and which side of the age withholds.
 */
export function heldAge(
  rule: AgeLimit | undefined, holds: AccessBasis, operation: string, basis: AccessBasis, patientId: string, now: number, zone: string,
): HeldAge | undefined {
  const age = rule?.operations[operation];
  if (age === undefined || (basis !== holds && basis !== 'client') || !appliesTo(rule, basis)) return undefined;
  return { age, birth: birthDateOf(patientId), today: localDate(now, zone) };
}

// Who the region's ID token signs in (docs/sign-in.md, "The region's login"): a valid Swedish identity
// number (or coordination number) in the profile's claim, at an accepted level of assurance, from a login
// made for this sign-in. Anything else is a RegionRefusal, told the person in their words.
import type * as oidc from 'openid-client';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { RegionRefusal, TEXT } from './region-login-answers.js';

export const PERSONAL_IDENTITY_NUMBER_CLAIM = 'https://id.oidc.se/claim/personalIdentityNumber';
export const COORDINATION_NUMBER_CLAIM = 'https://id.oidc.se/claim/coordinationNumber';

/** How far the region's clock may be behind ours when its `auth_time` is compared with the start of the login. */
const CLOCK_ALLOWANCE_SECONDS = 60;

/** The person of a validated ID token: a valid identity number in `identityClaim` (or the coordination number's), at one of `acr`. */
export function personOf(
  claims: oidc.IDToken | undefined, startedAt: number | undefined, settings: { acr: readonly string[]; identityClaim: string },
): { accountId: string; subject: string; acr: string | undefined } {
  if (claims === undefined) throw new RegionRefusal('no ID token', TEXT.noIdToken);
  const acr = typeof claims.acr === 'string' ? claims.acr : undefined;
  if (acr === undefined || !settings.acr.includes(acr)) {
    throw new RegionRefusal(`acr ${acr ?? '(none)'} is not one of ${settings.acr.join(' ')}`, TEXT.weak);
  }
  // prompt=login asked for a new login; a region that says it reused an older one is not taken at its word.
  if (typeof claims.auth_time === 'number' && startedAt !== undefined && claims.auth_time < startedAt - CLOCK_ALLOWANCE_SECONDS) {
    throw new RegionRefusal(`auth_time ${claims.auth_time} is before the login began (${startedAt}): the region did not log the person in anew`, TEXT.stale);
  }
  const claimed = [settings.identityClaim, COORDINATION_NUMBER_CLAIM].map((name) => claims[name]).find((v) => typeof v === 'string');
  const accountId = typeof claimed === 'string' ? parsePersonalIdentityNumber(claimed) : undefined;
  if (accountId === undefined) {
    throw new RegionRefusal(`no valid identity number in ${settings.identityClaim}`, TEXT.noNumber);
  }
  return { accountId, subject: claims.sub, acr };
}

/**
 * Why sharing (docs/contract.md §11) was refused, in the same words on the COS door
 * (routes/proxy-routes.ts) and on /fhir/Consent (fhir/consent-routes.ts): each says what was wrong
 * and what to do, so a person who did what one refusal asks is never told to do it again (hostile
 * review helper-146, LOW-2).
 */
import { ApiError } from './api-error.js';

export const SHARING_REFUSED = {
  /** PROXY_GRANTS=off: every sharing route, after its input is checked. */
  notOffered: 'This region does not offer sharing your record with another person: ask your care provider how someone may act for you.',
  /** A client token, or a token naming no person. */
  notAPerson: 'Sharing is managed by the people it is between, each for themselves: sign in as yourself (a client token cannot).',
  /** A change (a grant, or a step of one given or received) with a token launched for someone the person acts for. */
  forSomeoneElse: 'Sharing is managed only in an app opened for yourself, for your own grants: open the app for yourself, not for someone you act for.',
  /** A COS `patient` header naming someone else. */
  patientHeader: 'Sharing is always of your own record: send no patient header (the one sent names someone else).',
} as const;

/**
 * A read of the person's own grants with a token launched for someone else, whose scopes reach only that
 * person: 403 naming the `user/` scope that reaches beyond them (`scope`, the door's own spelling), and `where` it was asked.
 */
export const readBeyondLaunchRefusal = (scope: string, where: string): ApiError =>
  new ApiError(403, `The token's scopes do not allow this on ${where}: your own grants, in an app opened for someone you act for, need ${scope} (a patient/ scope reaches only the person it was opened for).`, {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });

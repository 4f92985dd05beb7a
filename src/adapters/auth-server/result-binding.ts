// The binding a finished or cancelled login writes into its interaction's result (region-login.ts), and
// the check that oidc-provider's own read of that interaction makes at a resume (postgres-models.ts).
//
// A resume is checked against the login's resume row before oidc-provider reads the interaction
// (resume-check.ts), but what the interaction holds is saved apart from that row: a cancel posted in a
// victim's browser holding the attacker's planted interaction cookies bound the resume to her browser
// while his login, saved a moment after the cancel, was what the interaction held, and her browser was
// signed in as him (review helper-180, F2: 10 in 180 timed tries). Written in the same save as the
// result, the binding always names the browser of whichever finish was saved last; checked inside
// oidc-provider's read, with the cookies of the request that resumes, no save between a check and
// that read can change it.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The result's own key for the binding; oidc-provider keeps a result as given and reads only its own keys. */
export const RESULT_BINDING = 'pdasBinding';

/** The login's binding: its cookie's name (by `state`) and the SHA-256 of the value (login-binding.ts). */
export interface ResultBinding { state: string; hash: string }

const resuming = new AsyncLocalStorage<(bound: ResultBinding) => boolean>();

/** Runs oidc-provider's resume with `matches`, which says whether this request brings a binding's cookie. */
export function duringResume<T>(matches: (bound: ResultBinding) => boolean, run: () => T): T {
  return resuming.run(matches, run);
}

const isBinding = (value: unknown): value is ResultBinding =>
  typeof value === 'object' && value !== null && typeof (value as ResultBinding).state === 'string' && typeof (value as ResultBinding).hash === 'string';

/**
 * Whether an interaction read now may be found: always outside a resume, and for an interaction other
 * than the login prompt's or one whose result holds no binding; a login prompt's whose result holds one
 * only when the resuming request brings that binding's cookie. (The picker's and consent's interactions
 * inherit the login's result as their last submission, binding and all, and oidc-provider keeps them to
 * the session they were begun in.)
 */
export function foundByThisResume(payload: Record<string, unknown>): boolean {
  const matches = resuming.getStore();
  if (matches === undefined || (payload.prompt as { name?: unknown } | undefined)?.name !== 'login') return true;
  const result = payload.result as Record<string, unknown> | undefined;
  if (result === undefined || !(RESULT_BINDING in result)) return true;
  const bound = result[RESULT_BINDING];
  return isBinding(bound) && matches(bound);
}

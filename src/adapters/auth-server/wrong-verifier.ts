// A code sent with a wrong PKCE verifier is spent, and its grant ended (docs/smart-launch.md): RFC 6749
// §4.1.2 has a code used once, and OAuth 2.1 has a failed verifier end it. oidc-provider spends a code
// only once every check has passed, so after a wrong verifier the same code with the right one would
// still be exchanged. A wrong verifier comes from whoever holds the code without the app's secret of
// that sign-in (a code read from a redirect elsewhere): the grant it was issued for ends with it, as
// oidc-provider ends the grant of a code used twice, and the end is recorded as that replay's is, a
// withdrawal by the person who made the grant answered 400 (revocation-records.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { endGrant } from './grant-endings.js';
import { recordEnding, type Ending } from './revocation-records.js';
import type { LaunchPicks } from './smart-launch.js';

/** A code as the store holds it: its app, its grant and the PKCE challenge it was issued with. */
export interface PresentedCode { clientId?: string; grantId?: string; accountId?: string; codeChallenge?: string }

/** The refused code request, as far as telling a wrong verifier goes. */
export interface CodeRefusal { status: number; clientId: string | undefined; verifier: unknown }

/** Whether `verifier` proves `challenge` by S256, the only method this server takes (oidc-provider's default). */
export function provesChallenge(verifier: unknown, challenge: string): boolean {
  if (typeof verifier !== 'string') return false;
  const expected = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const given = Buffer.from(challenge);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Whether `refusal` is of `code` sent by its own app with a wrong verifier (or none). A code another app
 * sends is refused for that alone (and spends nothing: anyone may name any app); a refusal before the
 * grant's checks (401 for the app's own authentication) is not the code's to answer for.
 */
export function wrongVerifier(refusal: CodeRefusal, code: PresentedCode): boolean {
  return refusal.status === 400 && code.clientId !== undefined && code.clientId === refusal.clientId
    && typeof code.codeChallenge === 'string' && !provesChallenge(refusal.verifier, code.codeChallenge);
}

export interface VerifierEnding {
  smart: SmartLaunchContext;
  picks: LaunchPicks;
  /** The withdrawal that could not be stored: for the operators' log (the grant ends all the same). */
  onEndUnrecorded(error: Error): void;
}

/** The withdrawal of the code's grant, by the person who made it, in the log its grant is in: nothing for a grant kept nowhere. */
async function recordWithdrawal(provider: Provider, audit: VerifierEnding, grantId: string, code: PresentedCode, ending: Ending): Promise<void> {
  const kept = await audit.picks.kept(grantId) ?? (code.accountId === undefined ? undefined : { grantId, accountId: code.accountId });
  if (kept !== undefined) await recordEnding(provider, audit.smart, kept, ending);
}

/**
 * Ends the grant of `code`, the code with it, recorded first as a withdrawal; a record the store refuses
 * is logged and the grant ends all the same, for the code may be in a thief's hands. Rejects when the
 * grant could not be ended.
 */
export async function endForWrongVerifier(provider: Provider, audit: VerifierEnding, code: PresentedCode, ending: Ending): Promise<void> {
  const { grantId } = code;
  if (grantId === undefined) return;
  await recordWithdrawal(provider, audit, grantId, code, ending).catch((error: unknown) => audit.onEndUnrecorded(error as Error));
  await endGrant(provider, audit.picks, grantId);
}

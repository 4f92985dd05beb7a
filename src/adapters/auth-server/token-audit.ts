// The audit record of each token request of a grant the person made (docs/sign-in.md#what-the-person-sees):
// the token issued for a code, a refresh, and each of them refused, naming the person and the app, in
// the picked patient's log for a SMART launch, in the person's own for a plain OAuth grant (the API's own
// scopes, no pick), as its consent is (grant-logs.ts). A token is answered only once its record is
// stored: when it cannot be, the answer is 503 `temporarily_unavailable` and the app gets no token (its
// code or refresh token is spent, so it signs in again). A refusal is answered as a refusal whether or
// not its record could be stored. A client's own token (client credentials) names no person: it is not
// recorded here. A code sent with a wrong verifier is spent here, its grant ended (wrong-verifier.ts).
import type Provider from 'oidc-provider';
import type { GrantEvent, SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { logOf } from './grant-logs.js';
import type { LaunchPicks } from './smart-launch.js';
import { namedApp, tokenFormOf } from './token-refusal.js';
import { endForWrongVerifier, wrongVerifier, type PresentedCode } from './wrong-verifier.js';

const TOKEN_PATH = '/token';
const KINDS: Readonly<Record<string, GrantEvent['kind']>> = { authorization_code: 'issued', refresh_token: 'refreshed' };

type Presented = PresentedCode & { scope?: string };
interface Params { grant_type?: unknown; code?: unknown; refresh_token?: unknown; code_verifier?: unknown }
interface KoaContext {
  method: string;
  path: string;
  status: number;
  ip: string;
  body?: unknown;
  state?: Record<string, unknown>;
  req: { headers: Record<string, string | string[] | undefined> };
  /** Undefined for a request refused before oidc-provider's token endpoint read it (token-resource.ts). */
  oidc?: {
    params?: Params;
    client?: { clientId: string };
    entities?: { AuthorizationCode?: Presented; RefreshToken?: Presented };
  };
}

export interface TokenAudit {
  smart: SmartLaunchContext;
  picks: LaunchPicks;
  issuer: string;
  /** A record that could not be stored, for the operators' log. */
  onAuditFailed(error: Error): void;
  /** The withdrawal of a grant a wrong verifier ended that could not be stored (it ended all the same). */
  onEndUnrecorded(error: Error): void;
}

/**
 * What the request asked: as oidc-provider read it, where it holds one value; else, refused before it read the
 * request (token-resource.ts) or before it took one value of a parameter sent twice (which it holds as none, or
 * as a list where grant_type was sent twice too: re-reviews helper-201 to helper-203), the first value of the form
 * as oidc-provider parsed it (token-refusal.ts `formOf`).
 */
function paramsOf(ctx: KoaContext): Params {
  const read = ctx.oidc?.params;
  const form = tokenFormOf(ctx);
  const of = (name: keyof Params): string | undefined => {
    const value = read?.[name];
    return typeof value === 'string' ? value : form?.get(name) ?? undefined;
  };
  return { grant_type: of('grant_type'), code: of('code'), refresh_token: of('refresh_token'), code_verifier: of('code_verifier') };
}

/**
 * The app a request refused before oidc-provider read it (token-resource.ts) names, where this server knows it:
 * what oidc-provider would have found and recorded (re-review helper-200; helper-199: an app naming itself in its
 * client assertion alone, or another app, had gone unrecorded). Undefined for none known.
 */
async function knownNamedApp(provider: Provider, ctx: KoaContext): Promise<string | undefined> {
  const form = tokenFormOf(ctx);
  const named = form === undefined ? undefined : namedApp(form, ctx.req.headers);
  return named === undefined ? undefined : (await provider.Client.find(named))?.clientId;
}

/**
 * The code or refresh token the request presents: as oidc-provider found it (a replayed one included),
 * or, where it refused the request before naming it (a wrong verifier, another app's), as the store holds
 * it, a spent one too. Undefined for one the store no longer holds (past its lifetime, its grant ended)
 * or never held: such a request is counted and logged only.
 */
async function presentedOf(provider: Provider, ctx: KoaContext): Promise<Presented | undefined> {
  const { entities } = ctx.oidc ?? {};
  const params = paramsOf(ctx);
  const found = entities?.AuthorizationCode ?? entities?.RefreshToken;
  if (found !== undefined || ctx.status === 200) return found;
  if (params.grant_type === 'authorization_code' && typeof params.code === 'string') {
    return provider.AuthorizationCode.find(params.code, { ignoreExpiration: true });
  }
  if (params.grant_type === 'refresh_token' && typeof params.refresh_token === 'string') {
    return provider.RefreshToken.find(params.refresh_token, { ignoreExpiration: true });
  }
  return undefined;
}

/**
 * The record of this token request, or undefined for one that names no grant of a person (a client's
 * own, an unknown code). A grant kept nowhere beside oidc-provider's (none is, since consent keeps every
 * one) would be the person's own by its token's account, as its revocation is (revocation-records.ts).
 * The app is the one the request names (another app presenting this grant's token is told apart so),
 * or, where it names none this server knows, the one the code or token was issued to.
 */
async function eventOf(provider: Provider, ctx: KoaContext, audit: TokenAudit, presented: Presented | undefined): Promise<GrantEvent | undefined> {
  const kind = KINDS[String(paramsOf(ctx).grant_type)];
  const clientId = (ctx.oidc === undefined ? await knownNamedApp(provider, ctx) : ctx.oidc.client?.clientId) ?? presented?.clientId;
  const grantId = presented?.grantId;
  if (kind === undefined || clientId === undefined || grantId === undefined) return undefined;
  const kept = await audit.picks.kept(grantId) ?? (presented?.accountId === undefined ? undefined : { accountId: presented.accountId });
  if (kept === undefined) return undefined;
  return {
    kind, outcome: ctx.status === 200 ? 'allowed' : 'denied', status: ctx.status, issuer: audit.issuer, accountId: kept.accountId,
    ...await logOf(audit.smart, kept), clientId, scopes: (presented?.scope ?? '').split(' ').filter((s) => s !== ''), sourceAddress: ctx.ip,
  };
}

/** After a refusal: a wrong verifier's code spent and its grant ended. */
async function afterRefusal(provider: Provider, ctx: KoaContext, audit: TokenAudit, presented: Presented): Promise<void> {
  const grantId = presented.grantId;
  if (grantId === undefined) return;
  // A verifier sent twice is the first of them, as the code looked up is (helper-202: the right one sent twice, read as
  // none, was taken for a wrong one and ended the grant).
  const params = paramsOf(ctx);
  const refusal = { status: ctx.status, clientId: ctx.oidc?.client?.clientId, verifier: params.code_verifier };
  if (params.grant_type === 'authorization_code' && wrongVerifier(refusal, presented)) {
    await endForWrongVerifier(provider, audit, presented, { issuer: audit.issuer, sourceAddress: ctx.ip, status: ctx.status });
  }
  // A replay ended the grant (its end recorded already, revocation-records.ts). What is kept beside it stays till
  // its lifetime: requests racing with one token are recorded after the end, each naming the picked patient by it
  // (hostile review helper-92, F2: forgotten, they fell to the person's own log). Nothing takes it for a live grant:
  // connected apps, refreshes, subscriptions and a new consent's replacedGrants ask for the grant itself.
}

export function tokenAudit(provider: Provider, audit: TokenAudit): void {
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH) return;
    let presented: Presented | undefined;
    try {
      presented = await presentedOf(provider, ctx);
      const event = await eventOf(provider, ctx, audit, presented);
      if (event !== undefined) await audit.smart.recordGrant(event);
    } catch (error) {
      audit.onAuditFailed(error as Error);
      if (ctx.status === 200) {
        ctx.status = 503;
        ctx.body = { error: 'temporarily_unavailable', error_description: 'The token could not be recorded in the patient\'s access log, so none was issued: sign in again later' };
        return;
      }
    }
    if (presented === undefined || ctx.status === 200) return;
    // The refusal is answered as it is whatever happens here; a grant that could not be ended is logged.
    await afterRefusal(provider, ctx, audit, presented).catch((error: unknown) => audit.onAuditFailed(error as Error));
  });
}

// The audit record of each token request of a SMART launch (docs/sign-in.md#what-the-person-sees):
// the token issued for a code, a refresh, and each of them refused, naming the person, the app and the
// picked patient. A token is answered only once its record is stored: when it cannot be, the answer is
// 503 `temporarily_unavailable` and the app gets no token (its code or refresh token is spent, so it
// signs in again). A refusal is answered as a refusal whether or not its record could be stored.
import type Provider from 'oidc-provider';
import type { GrantEvent, SmartLaunchContext } from '../../ports/smart-launch.port.js';
import type { LaunchPicks } from './smart-launch.js';

const TOKEN_PATH = '/token';
const KINDS: Readonly<Record<string, GrantEvent['kind']>> = { authorization_code: 'issued', refresh_token: 'refreshed' };

interface Presented { grantId?: string; scope?: string }
interface KoaContext {
  method: string;
  path: string;
  status: number;
  ip: string;
  body?: unknown;
  oidc?: {
    params?: { grant_type?: unknown };
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
}

/** The record of this token request, or undefined for one that names no launch (a client's own, or an unknown code). */
async function eventOf(ctx: KoaContext, audit: TokenAudit): Promise<GrantEvent | undefined> {
  const kind = KINDS[String(ctx.oidc?.params?.grant_type)];
  const clientId = ctx.oidc?.client?.clientId;
  // The code or refresh token presented, once oidc-provider found it (a replayed one included).
  const presented = ctx.oidc?.entities?.AuthorizationCode ?? ctx.oidc?.entities?.RefreshToken;
  if (kind === undefined || clientId === undefined || presented === undefined) return undefined;
  const launch = await audit.picks.of(presented.grantId);
  if (launch === undefined) return undefined;
  const allowed = ctx.status === 200;
  const person = (await audit.smart.peopleFor(launch.accountId)).find((p) => p.patientId === launch.patientId);
  return {
    kind, outcome: allowed ? 'allowed' : 'denied', status: ctx.status, issuer: audit.issuer, accountId: launch.accountId,
    patientId: launch.patientId, basis: person?.basis ?? 'refused', fhirUser: launch.fhirUser, clientId,
    scopes: (presented.scope ?? '').split(' ').filter((s) => s !== ''), sourceAddress: ctx.ip,
  };
}

export function tokenAudit(provider: Provider, audit: TokenAudit): void {
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    await next();
    if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH) return;
    try {
      const event = await eventOf(ctx, audit);
      if (event !== undefined) await audit.smart.recordGrant(event);
    } catch (error) {
      audit.onAuditFailed(error as Error);
      if (ctx.status !== 200) return;
      ctx.status = 503;
      ctx.body = { error: 'temporarily_unavailable', error_description: 'The token could not be recorded in the patient\'s access log, so none was issued: sign in again later' };
    }
  });
}

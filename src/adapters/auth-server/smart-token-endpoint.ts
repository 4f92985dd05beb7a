// What SMART App Launch 2.2 asks of the authorization server's endpoints that oidc-provider has no setting for
// (docs/smart-launch.md): `offline_access` without `prompt=consent`, a public client's refresh without
// `client_id`, the token response's launch `patient` and its whole granted `scope`, `Pragma: no-cache`
// beside `Cache-Control: no-store`, and POST at the authorization endpoint. Koa middleware
// around oidc-provider's own handling.
import { decodeJwt } from 'jose';
import { errors, type Provider } from 'oidc-provider';
import type { AuthClients } from './clients.js';
import { BodyTooLarge, MAX_FORM_BYTES } from './form-limit.js';
import { SMART_OIDC_SCOPES } from './smart-launch.js';
import { holdsEncodedNul } from './request-target.js';
import { formOf, keepTokenForm, refuseTokenRequest } from './token-refusal.js';

const OPENID_SCOPES: ReadonlySet<string> = new Set(SMART_OIDC_SCOPES);

const TOKEN_PATH = '/token';
const AUTHORIZATION_PATH = '/auth';
const FORM = /^application\/x-www-form-urlencoded\s*(;|$)/i;

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  querystring: string;
  status: number;
  set(field: string, value: string): void;
  oidc?: { entities?: { AuthorizationCode?: { scope?: string }; RefreshToken?: { scope?: string } }; params?: { scope?: unknown } };
  req: NodeJS.ReadableStream & { body?: unknown; headers: Record<string, string | string[] | undefined> };
  body?: unknown;
  state: Record<string, unknown>;
}


async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_FORM_BYTES) throw new BodyTooLarge('request too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

type Body = NodeJS.ReadableStream & { headers: Record<string, string | string[] | undefined>; unshift(chunk: Buffer): void; readonly readableEnded: boolean };

/**
 * A body of a stated length, read without ending the stream, so that it can be handed back to
 * oidc-provider as a body still to be read (`giveBack`); undefined for a body of no stated length.
 */
async function peekBody(stream: Body): Promise<string | undefined> {
  const length = Number(stream.headers['content-length']);
  if (!Number.isSafeInteger(length) || length < 0) return undefined;
  if (length > MAX_FORM_BYTES) throw new BodyTooLarge('request too large');
  const chunks: Buffer[] = [];
  let size = 0;
  if (length > 0) {
    await new Promise<void>((resolve, reject) => {
      const finish = (error?: unknown) => {
        stream.off('data', onData);
        stream.off('end', finish);
        stream.off('error', finish);
        stream.pause();
        if (error instanceof Error) reject(error);
        else resolve();
      };
      const onData = (chunk: Buffer | string) => {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        chunks.push(buffer);
        size += buffer.length;
        if (size >= length) finish();
      };
      stream.on('data', onData);
      stream.once('end', finish);
      stream.once('error', finish);
    });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The form back into the stream, its length with it: oidc-provider reads it as the request's own. A form
 * that had arrived whole before it was read (a hook before this one waited, as the per-source limit does
 * for Redis) ends the stream as it is read, and an ended stream takes nothing back: it is then offered
 * again through what oidc-provider reads of it (`readable`, `iterator`), on this request alone.
 */
function giveBack(stream: Body, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  stream.headers['content-length'] = String(buffer.length);
  if (!stream.readableEnded) return void stream.unshift(buffer);
  Object.defineProperty(stream, 'readable', { value: true, configurable: true });
  Object.defineProperty(stream, 'iterator', {
    configurable: true,
    value: async function* given(): AsyncGenerator<Buffer> {
      yield buffer;
    },
  });
}

/**
 * A refresh by the patient app may come without `client_id` (a public client has nothing else to
 * name it; one that authenticates names itself there, or in its client assertion; an empty one is
 * none, as oidc-provider reads it): the refresh token
 * names its client, so the form is completed with it. When sent, it is
 * left as it is and oidc-provider holds it to the token's own client. A refresh token found nowhere
 * (revoked, its grant ended for a replay, expired and swept) names no client: oidc-provider would
 * refuse the request for its missing client authentication (`invalid_request`), while the app must
 * learn that its sign-in is over (`invalid_grant`, RFC 6749 §5.2), so it is told so here; false then.
 * The form, completed, is kept for a refusal before oidc-provider reads it (token-refusal.ts).
 */
async function completeRefreshForm(provider: Provider, clients: AuthClients, ctx: KoaContext): Promise<boolean> {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (ctx.method !== 'POST' || ctx.path !== TOKEN_PATH || !FORM.test(type)) return true;
  const req = ctx.req as Body;
  const peeked = await peekBody(req);
  const form = formOf(peeked ?? await readText(req));
  const value = form.get('refresh_token');
  let completed = false;
  if (form.get('grant_type') === 'refresh_token' && !form.get('client_id') && !form.get('client_assertion') && ctx.req.headers.authorization === undefined && value !== null) {
    const token = await provider.RefreshToken.find(value, { ignoreExpiration: true });
    if (token === undefined) {
      const refusal = new errors.InvalidGrant('the refresh token is invalid, expired or revoked: sign in again');
      refuseTokenRequest(provider, ctx, refusal, 'the refresh token is invalid, expired or revoked: sign in again');
      return false;
    }
    if (clients.isSmart(token.clientId)) {
      form.set('client_id', token.clientId);
      completed = true;
    }
  }
  keepTokenForm(ctx, form);
  const text = completed && peeked !== undefined ? form.toString() : peeked;
  // A body of stated length goes back into the stream, as oidc-provider expects to find it; one without
  // (chunked) is read already, and oidc-provider takes it from req.body (its documented fallback, with a warning).
  if (text !== undefined) giveBack(req, text);
  else ctx.req.body = form.toString();
  return true;
}

/**
 * OpenID Connect drops `offline_access` unless the request says `prompt=consent` (Core §11); SMART apps
 * do not say it, and a SMART launch of the patient app is consented to every time anyway
 * (provider-config.ts): its consent is asked for explicitly, so the refresh token it asks for is granted there.
 */
function askConsentForOffline(clients: AuthClients, ctx: KoaContext): void {
  if (ctx.method !== 'GET' || ctx.path !== AUTHORIZATION_PATH) return;
  const { scope, client_id: clientId, prompt } = ctx.query;
  if (typeof clientId !== 'string' || !clients.isSmart(clientId) || typeof scope !== 'string' || !scope.split(' ').includes('offline_access')) return;
  if (prompt !== undefined && typeof prompt !== 'string') return;
  const prompts = new Set((prompt ?? '').split(' ').filter((p) => p !== ''));
  if (prompts.has('none')) return;
  ctx.query = { ...ctx.query, prompt: [...prompts, 'consent'].join(' ') };
}

/**
 * SMART's `patient` in the token response, for an app that asked for the launch context (`launch/patient`):
 * the launch patient the access token's `smart_patient` names; and `scope` as granted.
 */
function addLaunchPatient(ctx: KoaContext): void {
  if (ctx.path !== TOKEN_PATH || typeof ctx.body !== 'object' || ctx.body === null) return;
  const body = ctx.body as Record<string, unknown>;
  if (typeof body.access_token !== 'string') return;
  const patient = decodeJwt(body.access_token).smart_patient;
  if (typeof patient !== 'string') return;
  // The scopes this answer is for: those a refresh narrowed to, else the code's or the refresh token's (hostile
  // review helper-163, F6: a narrowed refresh was answered with every scope of its refresh token).
  const { AuthorizationCode: code, RefreshToken: refresh } = ctx.oidc?.entities ?? {};
  const narrowed = code === undefined && refresh !== undefined && typeof ctx.oidc?.params?.scope === 'string' ? ctx.oidc.params.scope : undefined;
  const granted = (narrowed ?? code?.scope ?? refresh?.scope ?? '').split(' ');
  // Never the launch context to an app that did not ask for it, nor was shown asking (helper-163, F3).
  if (granted.includes('launch/patient')) body.patient = patient;
  // `scope` as granted: the OpenID scopes of those, beside the API's in the access token.
  const openid = granted.filter((s) => OPENID_SCOPES.has(s) && (s !== 'offline_access' || body.refresh_token !== undefined));
  body.scope = [...new Set([...openid, ...String(body.scope ?? '').split(' ').filter((s) => s !== '')])].join(' ');
}

/**
 * OpenID Connect Core §3.1.2.1 (and SMART 2.2 after it): the authorization endpoint takes POST as well
 * as GET. oidc-provider serves POST only with `enableHttpPostMethods`, which demands SameSite=None
 * session cookies, and those a browser drops over plain HTTP (the demo). The form is read here and
 * handled as the same request by GET (its parameters never put into a URL); a cross-site form post
 * carries no Lax session cookie, so the person is asked to sign in again, which is the safe side.
 */
async function authorizationByPost(ctx: KoaContext): Promise<boolean> {
  if (ctx.method !== 'POST' || ctx.path !== AUTHORIZATION_PATH) return true;
  if (!FORM.test(String(ctx.req.headers['content-type'] ?? ''))) {
    // An OAuth error, which provider-pages.ts answers with the service's page: only a browser is sent here.
    ctx.status = 400;
    ctx.body = { error: 'invalid_request', error_description: 'a POST authorization request is a form: send Content-Type: application/x-www-form-urlencoded, or use GET' };
    return false;
  }
  const query = new URLSearchParams(await readText(ctx.req)).toString();
  // A NUL byte, which no OAuth parameter holds and PostgreSQL stores none of: refused as the same request by GET
  // is (region-auth-server.ts), never saved with the interaction (a 500: re-review helper-197, F1).
  if (holdsEncodedNul(query)) {
    ctx.status = 400;
    ctx.body = { error: 'invalid_request', error_description: 'a parameter of this sign-in request holds a NUL byte, which no parameter may hold: start the sign-in again from the app' };
    return false;
  }
  ctx.querystring = query;
  ctx.method = 'GET';
  return true;
}

/** RFC 6749 §5.1 and SMART 2.2: a token response is never cached, by HTTP/1.1 caches or HTTP/1.0 ones. */
function neverCached(ctx: KoaContext): void {
  if (ctx.path === TOKEN_PATH) ctx.set('Pragma', 'no-cache');
}

export function smartTokenEndpoint(provider: Provider, clients: AuthClients): void {
  provider.use(async (ctx: KoaContext, next: () => Promise<void>) => {
    if (!(await authorizationByPost(ctx))) return;
    askConsentForOffline(clients, ctx);
    if (!(await completeRefreshForm(provider, clients, ctx))) return neverCached(ctx);
    await next();
    neverCached(ctx);
    addLaunchPatient(ctx);
  });
}

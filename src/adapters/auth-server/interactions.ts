// The authorization server's own interaction pages (a SMART launch's patient picker, consent) and the
// sign-in step it is given (the demo's page, or the region's login), in place of oidc-provider's
// devInteractions. oidc-provider keeps the interaction state; this only renders and submits it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { consentPage, pickerPage } from './interaction-pages.js';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { fhirUserOf, type LaunchPicks } from './smart-launch.js';

export const INTERACTION_PATH = '/interaction/';
const MAX_FORM_BYTES = 4096;
const CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

interface MissingScopes { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> }

export function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': CSP,
    'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
  });
  res.end(html);
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > MAX_FORM_BYTES) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

function requestedScopes(details: MissingScopes): string[] {
  const oidc = (details.missingOIDCScope ?? []).filter((s) => s !== 'openid');
  return [...oidc, ...Object.values(details.missingResourceScopes ?? {}).flat()];
}

export type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/** A SMART launch's pick, as the picker submitted it (the interaction's last submission). */
interface Picked { id: string; fhirUser: string; name: string }
const pickedIn = (details: Details): Picked | undefined => details.lastSubmission?.patient as Picked | undefined;

/** A grant of everything the consent prompt asked for (what devInteractions did on "Authorize"). */
async function grantAsked(provider: Provider, details: Details): Promise<string> {
  const { grantId, session, params } = details;
  const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session?.accountId, clientId: params.client_id });
  if (!grant) throw new Error('grant not found');
  const asked = details.prompt.details as MissingScopes & { missingOIDCClaims?: string[] };
  if (asked.missingOIDCScope) grant.addOIDCScope(asked.missingOIDCScope.join(' '));
  if (asked.missingOIDCClaims) grant.addOIDCClaims(asked.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(asked.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  return grant.save();
}

/** Who the person is: the login prompt's GET and POST at `submitUrl`, ending in interactionFinished with `{ login: { accountId } }`. */
export interface SignInStep {
  /** HTML above every page of the server (the demo's notice), empty for none. */
  readonly banner: string;
  login(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details, submitUrl: string): Promise<void>;
}

export interface LaunchState { smart: SmartLaunchContext; picks: LaunchPicks; signIn: SignInStep }

/**
 * The picker: everyone the person may open now (asked anew on every page and post); a posted id that
 * was not offered gets nothing. A person who acts for nobody opens their own record without a page.
 */
async function pickPatient(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details, launch: LaunchState, submitUrl: string): Promise<void> {
  const accountId = details.session?.accountId ?? '';
  const people = await launch.smart.peopleFor(accountId);
  const finish = (person: (typeof people)[number]) => provider.interactionFinished(req, res,
    { patient: { id: person.patientId, fhirUser: fhirUserOf(person), name: person.name } satisfies Picked }, { mergeWithLastSubmission: true });
  const [self] = people;
  if (people.length === 1 && self !== undefined) return finish(self);
  const clientId = String(details.params.client_id);
  const { banner } = launch.signIn;
  if (people.length === 0) return send(res, 403, pickerPage({ banner, submitUrl, clientId, people, error: 'This person has no record here to open.' }));
  if (req.method === 'GET') return send(res, 200, pickerPage({ banner, submitUrl, clientId, people }));
  const form = await readForm(req);
  const chosen = form.get('prompt') === 'patient' ? people.find((p) => p.patientId === form.get('patient')) : undefined;
  if (chosen === undefined) return send(res, 400, pickerPage({ banner, submitUrl, clientId, people, error: 'Pick one of the people below.' }));
  return finish(chosen);
}

/** Serves GET/POST /interaction/:uid and GET /interaction/:uid/abort; anything else there is 404. */
export async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse, launch: LaunchState): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
  const [uid, action] = path.slice(INTERACTION_PATH.length).split('/');
  if (!uid || (action !== undefined && action !== 'abort')) return send(res, 404, 'Not found.');
  const details = await provider.interactionDetails(req, res);
  const submitUrl = `${INTERACTION_PATH}${uid}`;
  if (action === 'abort') {
    return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
  }
  const clientId = String(details.params.client_id ?? 'the application');
  if (req.method !== 'GET' && req.method !== 'POST') return send(res, 405, 'Method not allowed.');
  if (details.prompt.name === 'login') return launch.signIn.login(provider, req, res, details, submitUrl);
  if (details.prompt.name === 'patient') return pickPatient(provider, req, res, details, launch, submitUrl);
  const picked = pickedIn(details);
  if (req.method === 'GET') {
    const scopes = requestedScopes(details.prompt.details as MissingScopes);
    return send(res, 200, consentPage({ banner: launch.signIn.banner, submitUrl, abortUrl: `${submitUrl}/abort`, clientId, scopes, ...(picked === undefined ? {} : { patientName: picked.name }) }));
  }
  const form = await readForm(req);
  if (form.get('prompt') !== 'consent') return send(res, 400, 'Unexpected form.');
  const grantId = await grantAsked(provider, details);
  if (picked !== undefined) await launch.picks.remember(grantId, { patientId: picked.id, fhirUser: picked.fhirUser, accountId: details.session?.accountId ?? '' });
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

// The authorization server's own interaction pages (a SMART launch's patient picker, consent) and the
// sign-in step it is given (the demo's page, or the region's login), in place of oidc-provider's
// devInteractions. oidc-provider keeps the interaction state; this only renders and submits it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { appName } from './app-names.js';
import { errorPage, sendKindPage } from './error-pages.js';
import { CSRF_FIELD, type FormTokens } from './form-tokens.js';
import { cancelPage, consentPage, PICKER_ERRORS, pickerPage, type PageFrame } from './interaction-pages.js';
import { NEVER_FRAMED, PAGE_CSP } from './page-headers.js';
import { languageCookie, languageOf, type Localized } from './page-language.js';
import type { GrantEvent, LaunchPerson, SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { keepGrant, replacedGrants } from './grant-endings.js';
import { forgetRecorded, recordEnding } from './revocation-records.js';
import { fhirUserOf, type KeptGrant, type LaunchPicks } from './smart-launch.js';
import { requestTarget } from './request-target.js';

export const INTERACTION_PATH = '/interaction/';
const MAX_FORM_BYTES = 4096;

interface MissingScopes { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> }

export function send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', ...NEVER_FRAMED, ...headers,
  });
  res.end(html);
}

/** One page answer: its frame (language, banner, own address), the app by its registered name, and how it is sent. */
export interface PageView {
  frame: PageFrame;
  /** The client's registered name in the page's language (app-names.ts), else its id. */
  appName: string;
  /** The token every form of the page carries in its hidden field `csrf` (form-tokens.ts). */
  formToken: string;
  /** The Set-Cookie lines that keep a language chosen with the switch: `send` adds them, an answer sent otherwise (a redirect) must. */
  keepLanguage: string[];
  send(res: ServerResponse, status: number, html: string, headers?: Record<string, string>): void;
}

/** The view of a page at `selfUrl`, its forms carrying `formToken`: the language asked for (remembered when chosen with the switch). */
export async function pageView(
  provider: Provider, req: IncomingMessage, clientId: string | undefined,
  page: { banner: Localized | string; selfUrl: string; formToken: string; uiLocales?: unknown },
): Promise<PageView> {
  const { banner, selfUrl, formToken } = page;
  const { lang, chosen } = languageOf(req, page.uiLocales);
  const headers = { 'content-language': lang, vary: 'Accept-Language, Cookie', ...(chosen ? { 'set-cookie': languageCookie(lang) } : {}) };
  const keepLanguage = chosen ? [languageCookie(lang)] : [];
  const client = clientId === undefined ? undefined : await provider.Client.find(clientId);
  const name = clientId === undefined ? { en: 'the application', sv: 'appen' }[lang] : appName(client, clientId, lang);
  return { frame: { lang, banner, selfUrl }, appName: name, formToken, keepLanguage, send: (res, status, html, extra = {}) => send(res, status, html, { ...headers, ...extra }) };
}

/** A form over MAX_FORM_BYTES: answered 413 with the service's page, the connection closed (the rest of it is never read). */
export class FormTooLarge extends Error {
  override name = 'FormTooLarge';
  readonly status = 413;
}

/**
 * The posted form, at most MAX_FORM_BYTES; FormTooLarge for more, refused by its Content-Length before a
 * byte is read or as soon as it grows past it. The stream is paused, not destroyed, so the answer still
 * reaches the browser (destroying it would reset the connection instead).
 */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  if (Number(req.headers['content-length']) > MAX_FORM_BYTES) throw new FormTooLarge('form too large');
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error): void => {
      req.off('data', onData);
      req.off('end', done);
      req.off('error', done);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
      else {
        req.pause();
        done(new FormTooLarge('form too large'));
      }
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('error', done);
  });
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
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

/**
 * Who the person is: the login prompt's GET and POST at `submitUrl`, ending in interactionFinished with
 * `{ login: { accountId } }`. `form`: a POST's form, its token already checked (undefined on a GET).
 */
export interface SignInStep {
  /** HTML above every page of the server (the demo's notice) in each language, empty for none. */
  readonly banner: Localized | string;
  login(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details, submitUrl: string, view: PageView, form: URLSearchParams | undefined): Promise<void>;
  /**
   * Before a sign-in cancelled at its login prompt goes on to its resume: the region's login binds that resume to
   * this browser, and answers what the cancel's result is to hold besides its error (result-binding.ts).
   */
  cancelling?(req: IncomingMessage, res: ServerResponse, details: Details): Promise<Record<string, unknown>>;
}

/** A form refused before anything was done (no token, or another interaction's or session's): for the log and the counter. */
export interface FormRefusal { form: 'interaction' | 'connected-apps'; clientId?: string }

export interface LaunchState {
  smart: SmartLaunchContext; picks: LaunchPicks; signIn: SignInStep;
  /** Where the server is mounted (`/auth` under the service), '' on a server of its own (the demo's). */
  mountPath?: string;
  /** The server's issuer, named in the audit record of each grant. */
  issuer: string;
  /** A grant's audit record could not be stored (nothing was granted): for the operators' log. */
  onAuditFailed?: (error: Error) => void;
  /** Makes and checks the token of every form of these pages. */
  formTokens: FormTokens;
  onFormRefused?: (refused: FormRefusal) => void;
}

/**
 * The picker: everyone the person may open now (asked anew on every page and post); a posted id that
 * was not offered gets nothing. A person who acts for nobody opens their own record without a page.
 */
async function pickPatient(provider: Provider, req: IncomingMessage, res: ServerResponse, details: Details, launch: LaunchState, submitUrl: string, view: PageView,
  form: URLSearchParams | undefined): Promise<void> {
  const accountId = details.session?.accountId ?? '';
  const people = await launch.smart.peopleFor(accountId);
  const step = (picked: Pick<Step, 'patientId' | 'basis' | 'fhirUser' | 'outcome'>) =>
    recordedStep(launch, req, details, { kind: 'picked', status: picked.outcome === 'denied' ? 400 : 200, accountId, ...picked });
  // The pick is audited before it counts; a pick that cannot be ends the launch, as a grant that cannot be does.
  const finish = async (person: LaunchPerson) => (await step({ patientId: person.patientId, basis: person.basis, fhirUser: fhirUserOf(person), outcome: 'allowed' })
    ? provider.interactionFinished(req, res, { patient: { id: person.patientId, fhirUser: fhirUserOf(person), name: person.name } satisfies Picked }, { mergeWithLastSubmission: true })
    : provider.interactionFinished(req, res, { error: 'temporarily_unavailable', error_description: NOT_AUDITED }, { mergeWithLastSubmission: false }));
  const [self] = people;
  if (people.length === 1 && self !== undefined) return finish(self);
  const input = { submitUrl, appName: view.appName, people, csrf: view.formToken };
  if (people.length === 0) return view.send(res, 403, pickerPage(view.frame, { ...input, error: PICKER_ERRORS.nobody }));
  if (form === undefined) return view.send(res, 200, pickerPage(view.frame, input));
  // One pick, once: a form naming two people picks neither (the first was taken), and is recorded for nobody.
  const given = form.getAll('patient');
  const posted = given.length === 1 ? given[0] : undefined;
  const chosen = form.get('prompt') === 'patient' ? people.find((p) => p.patientId === posted) : undefined;
  if (chosen === undefined) {
    // A posted Patient id that was not offered is a refused pick in that patient's log (when it is one of this service's ids).
    if (posted !== undefined && self !== undefined) await step({ patientId: posted, basis: 'refused', fhirUser: fhirUserOf(self), outcome: 'denied' });
    return view.send(res, 400, pickerPage(view.frame, { ...input, error: PICKER_ERRORS.pick }));
  }
  return finish(chosen);
}

/** Serves GET/POST /interaction/:uid and GET /interaction/:uid/abort; anything else there is 404. */
export async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse, launch: LaunchState): Promise<void> {
  const path = requestTarget(req.url).pathname;
  const [uid, action] = path.slice(INTERACTION_PATH.length).split('/');
  const selfUrl = `${launch.mountPath ?? ''}${path}`;
  if (!uid || (action !== undefined && action !== 'abort')) return sendKindPage(req, res, { status: 404, kind: 'not_found' }, { banner: launch.signIn.banner, selfUrl });
  const details = await provider.interactionDetails(req, res);
  const submitUrl = `${launch.mountPath ?? ''}${INTERACTION_PATH}${uid}`;
  const clientId = typeof details.params.client_id === 'string' ? details.params.client_id : undefined;
  const view = await pageView(provider, req, clientId, {
    banner: launch.signIn.banner, selfUrl: submitUrl, formToken: launch.formTokens.issue({ interaction: details.uid }), uiLocales: details.params.ui_locales,
  });
  // Every post is its page's form, its token checked before anything is done (an abort too).
  const form = req.method === 'POST' ? await checkedForm(req, res, launch, details, view) : undefined;
  if (form === null) return;
  if (action === 'abort' && req.method === 'POST') {
    // A consent refused for a picked patient is in that patient's log; a sign-in cancelled before a pick names nobody.
    const cancelled = pickedIn(details);
    if (cancelled !== undefined) {
      await recordedStep(launch, req, details, {
        kind: 'granted', outcome: 'denied', status: 403, accountId: details.session?.accountId ?? '', patientId: cancelled.id, basis: 'refused', fhirUser: cancelled.fhirUser,
      });
    }
    const bound = details.prompt.name === 'login' ? await launch.signIn.cancelling?.(req, res, details) : undefined;
    // The app shows its person a cancelled sign-in in their own words; this one is for its developer.
    return provider.interactionFinished(req, res, { ...bound, error: 'access_denied', error_description: 'The person cancelled the sign-in: nothing was granted' },
      { mergeWithLastSubmission: false });
  }
  if (req.method !== 'GET' && req.method !== 'POST') {
    return sendKindPage(req, res, { status: 405, kind: 'unexpected', headers: { allow: 'GET, POST' } }, { banner: launch.signIn.banner, selfUrl });
  }
  // A cancel only by the page's own form (its token checked above): a GET, from a link or another site, asks.
  if (action === 'abort') return view.send(res, 200, cancelPage(view.frame, { abortUrl: `${submitUrl}/abort`, backUrl: submitUrl, csrf: view.formToken }));
  if (details.prompt.name === 'login') return launch.signIn.login(provider, req, res, details, submitUrl, view, form);
  if (details.prompt.name === 'patient') return pickPatient(provider, req, res, details, launch, submitUrl, view, form);
  const picked = pickedIn(details);
  if (form === undefined) {
    const scopes = requestedScopes(details.prompt.details as MissingScopes);
    const everyone = await launch.smart.peopleFor(details.session?.accountId ?? '');
    return view.send(res, 200, consentPage(view.frame, {
      submitUrl, abortUrl: `${submitUrl}/abort`, appName: view.appName, csrf: view.formToken, scopes, everyone, sharingOffered: launch.smart.sharingOffered,
      // The pick as the launch offered it: on what the person reads them (a proxy: what was shared). A pick no
      // longer offered is named as before; its consent is refused where it is audited.
      ...(picked === undefined ? {} : { picked: everyone.find((p) => p.patientId === picked.id) ?? { name: picked.name, basis: 'self' as const } }),
    }));
  }
  if (form.get('prompt') !== 'consent') return view.send(res, 400, errorPage(view.frame, 'unexpected'));
  const accountId = details.session?.accountId ?? '';
  // Every consent is audited before its code, a plain OAuth one too: nothing is granted unrecorded.
  if (clientId === undefined || !await audited(launch, req, { accountId, clientId, picked, details })) {
    return provider.interactionFinished(req, res, { error: 'temporarily_unavailable', error_description: NOT_AUDITED }, { mergeWithLastSubmission: false });
  }
  const session = details.session?.uid;
  const kept: KeptGrant = {
    accountId, clientId, ...(session === undefined ? {} : { session }), ...(picked === undefined ? {} : { patientId: picked.id, fhirUser: picked.fhirUser }),
  };
  // The grants this consent replaces end with their withdrawals recorded first, as the consent is: else nothing changes.
  const replaced = await replacedGrants(provider, launch.picks, kept, details.grantId);
  if (!await endingsAudited(provider, launch, req, replaced)) {
    return provider.interactionFinished(req, res, { error: 'temporarily_unavailable', error_description: NOT_AUDITED }, { mergeWithLastSubmission: false });
  }
  const grantId = await grantAsked(provider, details);
  await keepGrant(provider, launch.picks, grantId, kept, replaced);
  return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** The withdrawal of each grant a consent replaces, recorded: false when one could not be (then nothing is granted or ended). */
async function endingsAudited(provider: Provider, launch: LaunchState, req: IncomingMessage, replaced: ReadonlyArray<KeptGrant & { grantId: string }>): Promise<boolean> {
  try {
    for (const grant of replaced) await recordEnding(provider, launch.smart, grant, { issuer: launch.issuer, sourceAddress: req.socket.remoteAddress ?? '' });
    return true;
  } catch (error) {
    launch.onAuditFailed?.(error as Error);
    // Nothing is ended: a withdrawal recorded before the refused one stands for no end (helper-156, F3).
    for (const grant of replaced) forgetRecorded(grant.grantId);
    return false;
  }
}

/**
 * A post's form once its token is this interaction's; null when it was refused and answered: 413 for a
 * form too large, 403 for one without the token or with another's (counted, and nothing done).
 */
async function checkedForm(req: IncomingMessage, res: ServerResponse, launch: LaunchState, details: Details, view: PageView): Promise<URLSearchParams | null> {
  let form: URLSearchParams;
  try {
    form = await readForm(req);
  } catch (error) {
    if (!(error instanceof FormTooLarge)) throw error;
    view.send(res, 413, errorPage(view.frame, 'too_large', 'invalid_request'), { connection: 'close' });
    return null;
  }
  if (launch.formTokens.valid(form.get(CSRF_FIELD), { interaction: details.uid })) return form;
  const clientId = details.params.client_id;
  launch.onFormRefused?.({ form: 'interaction', ...(typeof clientId === 'string' ? { clientId } : {}) });
  view.send(res, 403, errorPage(view.frame, 'refused_form'));
  return null;
}

type Step = Pick<GrantEvent, 'kind' | 'outcome' | 'status' | 'accountId' | 'patientId' | 'basis' | 'fhirUser'>;

/** A step of a launch (a pick, a refused one, a cancelled consent) audited: false when its record could not be stored. */
async function recordedStep(launch: LaunchState, req: IncomingMessage, details: Details, step: Step): Promise<boolean> {
  const scopes = typeof details.params.scope === 'string' ? details.params.scope.split(' ').filter((s) => s !== '') : [];
  try {
    await launch.smart.recordGrant({ ...step, issuer: launch.issuer, clientId: details.params.client_id, scopes, sourceAddress: req.socket.remoteAddress ?? '' });
    return true;
  } catch (error) {
    launch.onAuditFailed?.(error as Error);
    return false;
  }
}

const NOT_AUDITED = 'The grant could not be recorded in the patient\'s access log, so nothing was granted: try again later';

/**
 * The grant's audit record, stored before the grant is made (docs/sign-in.md#what-the-person-sees):
 * false when it was not, and then nothing is granted. A launch's pick is asked of the registry again,
 * so a relationship that ended since the picker is neither recorded nor granted. A plain OAuth grant
 * (the API's own scopes, no pick) is recorded in the person's own access log.
 */
async function audited(launch: LaunchState, req: IncomingMessage, grant: { accountId: string; clientId: string; picked: Picked | undefined; details: Details }): Promise<boolean> {
  const { accountId, clientId, picked, details } = grant;
  const people = await launch.smart.peopleFor(accountId);
  const person = picked === undefined ? undefined : people.find((p) => p.patientId === picked.id);
  if (picked !== undefined && person === undefined) return false;
  const self = people.find((p) => p.basis === 'self');
  const whose = picked === undefined || person === undefined
    ? { basis: 'self' as const, ...(self === undefined ? {} : { fhirUser: fhirUserOf(self) }) }
    : { patientId: picked.id, basis: person.basis, fhirUser: picked.fhirUser };
  try {
    await launch.smart.recordGrant({
      kind: 'granted', issuer: launch.issuer, accountId, ...whose, clientId,
      scopes: requestedScopes(details.prompt.details as MissingScopes), sourceAddress: req.socket.remoteAddress ?? '',
    });
    return true;
  } catch (error) {
    launch.onAuditFailed?.(error as Error);
    return false;
  }
}

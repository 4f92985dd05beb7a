/**
 * The patient app: a standalone SMART launch with fhirclient (docs/patient-app.md). Signed out it
 * offers "Sign in"; the authorization server signs the person in, lets them pick whose record to
 * see (themselves, or someone they act for) and asks for consent, then sends the browser back here
 * with a code, which fhirclient exchanges (PKCE) for a token naming the picked patient.
 */
// First: fhirclient takes `window.fetch` as it loads, and the guard must be that fetch (token-guard.ts).
import { sendTokensOnlyTo } from './token-guard.js';
import FHIR from 'fhirclient';
import type Client from 'fhirclient/lib/Client';
import type { Chart } from 'chart.js';
import { h } from './dom.js';
import { ownName } from './app-names.js';
import { initialLang, LABELS, type Lang, type Words } from './i18n.js';
import { loadRecord, type PatientRecord } from './load.js';
import { refreshJoins } from './appointments.js';
import { CONNECTED_APPS_LABELS, connectedAppsView, listConnectedApps, revokeConnectedApp, type ConnectedApp } from './connected-apps.js';
import { sharedWithMe, type SharedWithMe } from './acting-for.js';
import { acceptGrant, declineGrant, giveGrant, listGrants, proxiesUrl, revokeGrant, type Grant, type GrantBody } from './sharing-api.js';
import { emptyDraft, sharingView, type SharingState } from './sharing.js';
import { SHARING_LABELS } from './sharing-words.js';
import { RefusedError, sharingRefusal } from './refusal-words.js';
import { SIGNED_OUT_STATE, signOutEverywhere } from './sign-out.js';
import { signInFailure } from './sign-in-failure.js';
import { issuerOfIdToken } from './signed-in-issuer.js';
import { endedView, recordView } from './view.js';

const CLIENT_ID = 'patient-app';
/** What the service put in the page about sharing (docs/proxies.md): whether the region offers it, and its scopes. */
const meta = (name: string): string => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const SHARING = meta('sharing') === 'on';
// v2 scopes: read and search of every type for the picked patient; AuditEvent is the access log. The
// Proxy scopes are the person's own sharing (the Sharing tab), whoever they picked, where offered.
const SCOPE = ['openid fhirUser launch/patient offline_access patient/*.rs patient/AuditEvent.rs', ...(SHARING ? [meta('sharing-scopes')] : [])]
  .filter((s) => s !== '').join(' ');
const LANG_KEY = 'patient-app-lang';
const SMART_KEY = 'SMART_KEY';

type Tab = 'record' | 'apps' | 'sharing';
interface Page {
  lang: Lang; record?: PatientRecord; error?: Words; loading: boolean; notice?: Words;
  /** The picked patient shares parts of their record with the signed-in person (a proxy grant). */
  shared?: SharedWithMe;
  sharing: SharingState;
  /** The signed-in client (fhirclient), for the connected-apps tab's calls. */
  client?: Client; tab: Tab; apps?: ConnectedApp[] | Error; appsNotice?: Words;
}

const page: Page = { lang: initialLang(localStorage.getItem(LANG_KEY), navigator.language), loading: false, tab: 'record', sharing: { draft: emptyDraft() } };
/** An ended grant's page: no record was read, the page says the person no longer shares it. */
const NOTHING_READ: PatientRecord = (() => {
  const none = { ok: false, message: '', notShared: true } as const;
  return { patient: none, reads: [], summary: none, accessLog: none };
})();
let charts: Chart[] = [];
// One live region for the whole visit: a region made anew with each render would not be announced.
const status = h('p', { role: 'status', class: 'status' });

/** The service's FHIR base and this page's own address, from where the page was loaded: `{base}/app/`. */
function addresses(): { iss: string; redirectUri: string } {
  const base = location.pathname.replace(/\/app(\/.*)?$/, '');
  return { iss: `${location.origin}${base}/fhir`, redirectUri: `${location.origin}${base}/app/` };
}

/**
 * To the authorization server, asking its pages in the page's language (OpenID Connect's `ui_locales`), as sign-out
 * does (helper-193, F5). fhirclient makes the request and keeps its state; the address it would go to is given the
 * one parameter it has no option for.
 */
function signIn(): void {
  const { iss, redirectUri } = addresses();
  void FHIR.oauth2.authorize({ iss, clientId: CLIENT_ID, scope: SCOPE, redirectUri, pkceMode: 'required', noRedirect: true }).then((to) => {
    if (typeof to === 'string') location.assign(`${to}&ui_locales=${encodeURIComponent(page.lang)}`);
  });
}

/** Forgets this tab's sign-in and ends it at the authorization server too (sign-out.ts). */
async function signOut(): Promise<void> {
  page.record = undefined;
  page.error = undefined;
  page.client = undefined;
  page.shared = undefined;
  page.sharing = { draft: emptyDraft() };
  page.tab = 'record';
  if (await signOutEverywhere({ clientId: CLIENT_ID, returnTo: addresses().redirectUri, lang: page.lang })) return;
  page.notice = LABELS.signedOutHere;
  render();
}

function button(label: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', ...attrs }, label);
  b.addEventListener('click', onClick);
  return b;
}

function toggleLanguage(): void {
  page.lang = page.lang === 'sv' ? 'en' : 'sv';
  localStorage.setItem(LANG_KEY, page.lang);
  render();
  // The button is made anew: keep the keyboard where it was.
  document.getElementById('lang-toggle')?.focus();
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** The grants read anew. */
async function readGrants(): Promise<void> {
  page.sharing.grants = page.client === undefined ? new RefusedError(401) : await listGrants(page.client).catch(asError);
}

/** One change to a grant: the list read anew after it, what it did said, or the API's refusal in its words; focus where the person reads it. */
async function changeGrant(change: (client: Client) => Promise<Grant>, done: Words, after?: () => void): Promise<void> {
  if (page.client === undefined) return;
  page.sharing.error = undefined;
  page.sharing.notice = undefined;
  page.sharing.confirming = undefined;
  try {
    await change(page.client);
    page.sharing.notice = done;
    after?.();
  } catch (err) {
    page.sharing.error = sharingRefusal(err);
  }
  await readGrants();
  render();
  const target = page.sharing.error === undefined ? 'sharing' : 'sharing-error';
  document.getElementById(target)?.focus();
}

const sharingActions = {
  invite: (body: GrantBody) => void changeGrant((c) => giveGrant(c, body), SHARING_LABELS.sent, () => { page.sharing.draft = emptyDraft(); }),
  accept: (grant: Grant) => void changeGrant((c) => acceptGrant(c, grant.id), SHARING_LABELS.accepted),
  decline: (grant: Grant) => void changeGrant((c) => declineGrant(c, grant.id), SHARING_LABELS.declined),
  end: (grant: Grant) => void changeGrant((c) => revokeGrant(c, grant.id), SHARING_LABELS.revoked),
  confirm: (grantId: string | undefined) => {
    const returnTo = page.sharing.confirming;
    page.sharing.confirming = grantId;
    render();
    // Focus on the question asked, or back on the button that asked it.
    if (grantId !== undefined) document.querySelector<HTMLElement>('.confirm-question')?.focus();
    else if (returnTo !== undefined) document.querySelector<HTMLElement>(`button[data-grant="${CSS.escape(returnTo)}"]`)?.focus();
  },
  refuse: (message: Words) => {
    page.sharing.notice = undefined;
    page.sharing.error = message;
    render();
    document.getElementById('sharing-error')?.focus();
  },
};

/** Shows a tab; the connected apps and the grants are read anew each time their tab is opened. */
async function showTab(tab: Tab): Promise<void> {
  page.tab = tab;
  page.appsNotice = undefined;
  page.sharing = { draft: page.sharing.draft };
  if (tab === 'sharing') {
    render();
    await readGrants();
  }
  if (tab === 'apps') {
    page.apps = undefined;
    render();
    page.apps = page.client === undefined ? new RefusedError(401) : await listConnectedApps(page.client).catch((err: unknown) => err instanceof Error ? err : new Error(String(err)));
  }
  render();
  document.getElementById(tab === 'apps' ? 'connected-apps' : tab === 'sharing' ? 'sharing' : 'patient-name')?.focus();
}

async function revoke(app: ConnectedApp): Promise<void> {
  if (page.client === undefined) return;
  try {
    await revokeConnectedApp(page.client, app.id);
    page.apps = await listConnectedApps(page.client);
    page.appsNotice = CONNECTED_APPS_LABELS.revoked;
  } catch (err) {
    page.apps = err instanceof Error ? err : new Error(String(err));
  }
  render();
  document.getElementById('connected-apps')?.focus();
}

/** The two views of a signed-in page, as a navigation whose current one is marked. */
function tabs(lang: Lang): HTMLElement {
  const tab = (which: Tab, label: string) => button(label, () => void showTab(which), page.tab === which ? { 'aria-current': 'page' } : {});
  return h('nav', { class: 'tabs', 'aria-label': ownName(lang) },
    tab('record', CONNECTED_APPS_LABELS.record[lang]), SHARING ? tab('sharing', SHARING_LABELS.tab[lang]) : null, tab('apps', CONNECTED_APPS_LABELS.tab[lang]));
}

function header(lang: Lang): HTMLElement {
  const other: Lang = lang === 'sv' ? 'en' : 'sv';
  return h('header', { class: 'top' },
    h('p', { class: 'brand' }, ownName(lang)),
    h('div', { class: 'actions' },
      button(LABELS.otherLanguage[lang], toggleLanguage, { id: 'lang-toggle', lang: other }),
      page.record === undefined ? null : button(LABELS.switchPerson[lang], signIn),
      page.record === undefined ? null : button(LABELS.signOut[lang], () => void signOut())));
}

function signedOut(lang: Lang): Node[] {
  const parts: (Node | null)[] = [
    h('h1', {}, ownName(lang)),
    page.error === undefined ? null : h('p', { class: 'error', role: 'alert' }, `${LABELS.signInFailed[lang]}: ${page.error[lang]}`),
    page.notice === undefined ? null : h('p', { class: 'notice', role: 'alert' }, page.notice[lang]),
    h('p', {}, LABELS.intro[lang]),
    button(LABELS.signIn[lang], signIn, { class: 'primary' }),
  ];
  return parts.filter((n): n is Node => n !== null);
}

function render(): void {
  const { lang } = page;
  document.documentElement.lang = lang;
  document.title = ownName(lang);
  for (const c of charts) c.destroy();
  const draw: (() => Chart)[] = [];
  status.textContent = page.loading ? LABELS.loading[lang] : page.record === undefined ? '' : LABELS.loaded[lang];
  const signedIn = page.record === undefined ? null : page.tab === 'apps'
    ? connectedAppsView(page.apps, lang, (app) => void revoke(app), page.appsNotice)
    : page.tab === 'sharing' ? sharingView(page.sharing, lang, sharingActions)
      : page.shared?.ended === true ? endedView(page.shared, lang) : recordView(page.record, lang, draw, page.shared);
  const main = h('main', { id: 'main', tabindex: '-1' },
    status, ...(signedIn === null ? (page.loading ? [] : signedOut(lang)) : [tabs(lang), ...signedIn]));
  const root = document.getElementById('app');
  root?.replaceChildren(h('a', { class: 'skip', href: '#main' }, LABELS.skip[lang]), header(lang), main);
  charts = draw.map((d) => d());
}

/**
 * The way back without a code: the person cancelled at the authorization server (`access_denied`),
 * or signed out there (our `state`). Said in words, the address cleaned; true when it was one of those.
 */
function cameBackWithout(params: URLSearchParams): boolean {
  const cancelled = params.get('error') === 'access_denied';
  if (!cancelled && !(params.get('state') === SIGNED_OUT_STATE && !params.has('code'))) return false;
  history.replaceState(null, '', addresses().redirectUri);
  sessionStorage.removeItem(SMART_KEY);
  page.notice = cancelled ? LABELS.signInCancelled : LABELS.signedOut;
  render();
  return true;
}

async function start(): Promise<void> {
  const params = new URLSearchParams(location.search);
  if (cameBackWithout(params)) return;
  const returning = params.has('code') || params.has('error') || sessionStorage.getItem(SMART_KEY) !== null;
  if (!returning) return render();
  page.loading = true;
  render();
  // The way back from the authorization server names the server in `iss` (RFC 9207), and fhirclient
  // reads `iss` in the page's address as the FHIR server of every later sign-in ("Switch person"):
  // it goes before fhirclient first reads the address.
  if (params.has('iss')) {
    params.delete('iss');
    history.replaceState(null, '', `${addresses().redirectUri}${params.toString() === '' ? '' : `?${params.toString()}`}`);
  }
  let client: Client;
  try {
    client = await FHIR.oauth2.ready();
  } catch {
    // A refused or stale sign-in: start over from the button, the code and error gone from the address.
    // The address is anyone's to write, and fhirclient's message is English: the app's own words instead.
    history.replaceState(null, '', addresses().redirectUri);
    sessionStorage.removeItem(SMART_KEY);
    page.loading = false;
    page.error = signInFailure(params);
    return render();
  }
  history.replaceState(null, '', addresses().redirectUri);
  const patientId = client.patient.id;
  if (patientId === null) {
    page.loading = false;
    page.error = LABELS.noPatient;
    return render();
  }
  page.client = client;
  const issuer = issuerOfIdToken(client.state.tokenResponse?.id_token);
  sendTokensOnlyTo([client.state.serverUrl, proxiesUrl(), ...(issuer === undefined ? [] : [issuer])]);
  const shared = SHARING ? await sharedWithMe(client, patientId) : undefined;
  if (shared !== undefined) page.shared = shared;
  page.record = shared?.ended === true ? NOTHING_READ : await loadRecord(client, patientId, shared?.categories);
  page.loading = false;
  render();
}

void start();
// A video meeting's link appears when the meeting opens, and goes when it ends, while the page stays open.
setInterval(() => refreshJoins(document, page.lang), 30_000);

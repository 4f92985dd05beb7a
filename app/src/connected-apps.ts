/**
 * The "Connected apps" tab: the apps holding access to the signed-in person's record and to the
 * records of the people they act for, from the authorization server's connected-apps API
 * (docs/smart-launch.md#connected-apps) with this app's own token, and a button to revoke one.
 */
import type Client from 'fhirclient/lib/Client';
import { h, section } from './dom.js';
import { when } from './format.js';
import type { Lang, Words } from './i18n.js';
import { appsRefusal, RefusedError } from './refusal-words.js';
import { signedInIssuer } from './signed-in-issuer.js';

export interface ConnectedApp {
  id: string;
  appName: string;
  /** Its name in each language, as the server registered it (issue 55 item 6). */
  appNames?: Partial<Record<Lang, string>>;
  patient: { name: string; basis: string };
  /** The one record a launch picked, or (a plain grant) the person's own and those they act for. */
  reach: 'picked' | 'everyone';
  allowedBy: 'you' | 'patient' | 'another';
  scopes: string[];
  since?: string;
}

export const CONNECTED_APPS_LABELS = {
  tab: { sv: 'Anslutna appar', en: 'Connected apps' },
  record: { sv: 'Journalen', en: 'The record' },
  intro: {
    sv: 'De här apparna får läsa din journal eller journalerna för dem du företräder. Om du återkallar en app slutar dess åtkomst direkt.',
    en: 'These apps may read your record or the records of the people you act for. Revoking one ends its access at once.',
  },
  none: { sv: 'Ingen app har åtkomst just nu.', en: 'No app holds access now.' },
  revoked: { sv: 'Åtkomsten är återkallad.', en: 'The access was revoked.' },
  failed: { sv: 'Listan kunde inte hämtas', en: 'The list could not be read' },
  on: { sv: 'den', en: 'on' },
  everyone: { sv: 'din journal och journalerna för dem du företräder', en: 'your record and the records of the people you act for' },
} as const satisfies Record<string, Words>;

const STANDING: Readonly<Record<string, Words>> = {
  self: { sv: 'du själv', en: 'yourself' },
  guardian: { sv: 'du är vårdnadshavare', en: 'you are their guardian' },
  'power-of-attorney': { sv: 'du är ombud med fullmakt', en: 'you hold their power of attorney' },
  partner: { sv: 'du är närstående (partner)', en: 'you are their partner' },
};
const ALLOWED_BY: Readonly<Record<ConnectedApp['allowedBy'], Words>> = {
  you: { sv: 'Du tillät det', en: 'You allowed it' },
  patient: { sv: 'Patienten tillät det', en: 'The patient allowed it' },
  another: { sv: 'Någon annan som företräder patienten tillät det', en: 'Someone else who acts for the patient allowed it' },
};

/** `{issuer}/connected-apps`, at the issuer the person signed in at (signed-in-issuer.ts). */
async function endpoint(client: Client): Promise<string> {
  return `${await signedInIssuer(client.state.serverUrl, client.state.tokenResponse?.id_token)}/connected-apps`;
}

async function call(client: Client, path: string, method: 'GET' | 'DELETE'): Promise<Response> {
  const response = await fetch(`${await endpoint(client)}${path}`, { method, headers: { authorization: client.getAuthorizationHeader() ?? '', accept: 'application/json' } });
  if (!response.ok) throw new RefusedError(response.status);
  return response;
}

export async function listConnectedApps(client: Client): Promise<ConnectedApp[]> {
  return ((await (await call(client, '', 'GET')).json()) as { apps: ConnectedApp[] }).apps;
}

export async function revokeConnectedApp(client: Client, id: string): Promise<void> {
  await call(client, `/${encodeURIComponent(id)}`, 'DELETE');
}

/** The app by its name in `lang`, else its one name. */
const nameOf = (app: ConnectedApp, lang: Lang): string => app.appNames?.[lang] ?? app.appName;

function revokeLabel(app: ConnectedApp, lang: Lang): string {
  const name = nameOf(app, lang);
  if (app.reach === 'everyone') return lang === 'sv' ? `Återkalla ${name}s åtkomst till ${CONNECTED_APPS_LABELS.everyone.sv}` : `Revoke ${name}'s access to ${CONNECTED_APPS_LABELS.everyone.en}`;
  return lang === 'sv' ? `Återkalla ${name}s åtkomst till journalen för ${app.patient.name}` : `Revoke ${name}'s access to ${app.patient.name}'s record`;
}

/** What the app opens: a plain grant every record the person may read, never only the one its token was made for. */
function opens(app: ConnectedApp, lang: Lang): string {
  if (app.reach === 'everyone') return lang === 'sv' ? `Öppnar ${CONNECTED_APPS_LABELS.everyone.sv}` : `Opens ${CONNECTED_APPS_LABELS.everyone.en}`;
  const record = lang === 'sv' ? `Öppnar journalen för ${app.patient.name}` : `Opens the record of ${app.patient.name}`;
  const standing = STANDING[app.patient.basis]?.[lang];
  return `${record}${standing === undefined ? '' : ` (${standing})`}`;
}

/** The tab's content: its heading, the list (or why there is none) and a revoke button per app. */
export function connectedAppsView(apps: ConnectedApp[] | Error | undefined, lang: Lang, onRevoke: (app: ConnectedApp) => void, notice?: Words): Node[] {
  const heading = h('h1', { id: 'connected-apps', tabindex: '-1' }, CONNECTED_APPS_LABELS.tab[lang]);
  const told = notice === undefined ? null : h('p', { class: 'notice', role: 'status' }, notice[lang]);
  if (apps === undefined) return [heading];
  if (apps instanceof Error) return [heading, h('p', { class: 'error', role: 'alert' }, `${CONNECTED_APPS_LABELS.failed[lang]}: ${appsRefusal(apps)[lang]}`)];
  const items = apps.map((app) => {
    const revoke = h('button', { type: 'button' }, revokeLabel(app, lang));
    revoke.addEventListener('click', () => onRevoke(app));
    const since = app.since === undefined ? '' : ` ${CONNECTED_APPS_LABELS.on[lang]} ${when(app.since, lang) ?? app.since}`;
    return h('li', {}, section(nameOf(app, lang), 2, h('p', {}, `${opens(app, lang)}. ${ALLOWED_BY[app.allowedBy][lang]}${since}.`), revoke));
  });
  const parts: (Node | null)[] = [heading, told, h('p', {}, CONNECTED_APPS_LABELS.intro[lang]),
    items.length === 0 ? h('p', {}, CONNECTED_APPS_LABELS.none[lang]) : h('ul', { class: 'apps' }, ...items)];
  return parts.filter((n): n is Node => n !== null);
}

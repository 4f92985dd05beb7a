// An app as a person reads its name: the clients file's `client_name#sv` or `client_name#en` in the
// page's language (RFC 7591 §2.2's language tags, docs/sign-in.md#registering-an-app), else its
// `client_name`, else its name in the other language, else its client id. oidc-provider keeps only the
// metadata it knows, so the tagged names are declared to it as extra client metadata.
import type { Lang, Localized } from './page-language.js';

/** The tagged names, as oidc-provider's `extraClientMetadata.properties`: they stay on its Client objects. */
export const LOCALIZED_NAMES = ['client_name#sv', 'client_name#en'] as const;

/** What of a client (oidc-provider's Client, or a clients file entry's metadata) names it. */
export interface NamedClient {
  clientName?: unknown;
  client_name?: unknown;
  'client_name#sv'?: unknown;
  'client_name#en'?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The app's name in `lang`. */
export function appName(client: NamedClient | undefined, clientId: string, lang: Lang): string {
  const other: Lang = lang === 'sv' ? 'en' : 'sv';
  return text(client?.[`client_name#${lang}`]) ?? text(client?.clientName ?? client?.client_name) ?? text(client?.[`client_name#${other}`]) ?? clientId;
}

/** The app's name in both languages. */
export const appNames = (client: NamedClient | undefined, clientId: string): Localized =>
  ({ sv: appName(client, clientId, 'sv'), en: appName(client, clientId, 'en') });

/** The app's one name where no language is known (an API's answer, the access log): `client_name`, else the Swedish one, else the English one, else its id. */
export const registeredName = (client: NamedClient | undefined, clientId: string): string =>
  text(client?.clientName ?? client?.client_name) ?? text(client?.['client_name#sv']) ?? text(client?.['client_name#en']) ?? clientId;

/** An app as a person reads it: its one name where no language is known (an API's answer, the access log) and its name in each language. */
export interface AppNaming extends Localized {
  name: string;
}

/**
 * The names of the apps a server registers (the demo's, or a clients file's), by client id: the access
 * log's one name (what CLIENT_NAMES would say, so a region names each app once; CLIENT_NAMES, when it
 * names one too, is the operator's last word) and the name in each language, as the pages show it.
 */
export function registeredApps(clients: ReadonlyArray<{ metadata: NamedClient & { client_id: string } }>): Map<string, AppNaming> {
  return new Map(clients.map(({ metadata: m }) => [m.client_id, { name: registeredName(m, m.client_id), ...appNames(m, m.client_id) }] as const));
}

/**
 * Apps by their names in the page's language (issue 55 item 6): this app's own, as the service's page
 * says its registration names it (`client_name#sv`/`#en`, meta tags filled in by the service), and an
 * app in the access log, as the AuditEvent names it (FHIR's translation extension). Never written here.
 */
import type { Extension } from './fhir-types.js';
import type { Lang } from './i18n.js';

const meta = (name: string): string => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';

/** This app's name in `lang`, with "(demo)" after it in demo mode only. */
export function ownName(lang: Lang): string {
  const name = meta(`app-name-${lang}`) || meta('app-name-en') || 'patient-app';
  return meta('demo') === 'on' ? `${name} (demo)` : name;
}

const TRANSLATION = 'http://hl7.org/fhir/StructureDefinition/translation';

/** A FHIR string in `lang`: its translation into it where the element has one, else as written. */
export function inLanguage(value: string | undefined, element: { extension?: Extension[] } | undefined, lang: Lang): string | undefined {
  const translation = element?.extension?.find((e) => e.url === TRANSLATION && e.extension?.some((p) => p.url === 'lang' && p.valueCode === lang));
  return translation?.extension?.find((p) => p.url === 'content')?.valueString ?? value;
}

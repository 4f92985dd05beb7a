// What each scope on the consent page lets the application do, in words for the person asked, in
// Swedish and English: the OpenID and SMART launch scopes, the COS API's own (their descriptions and
// names in the operation table) and SMART resource scopes as the FHIR API reads them
// (src/domain/fhir/smart-scopes.ts); and whose records each one reaches.
import { canonicalScope } from '../../domain/access/scopes.js';
import { OPERATION_NAMES, OPERATIONS } from '../../domain/operations/table.js';
import { smartGrants, type ScopeContext } from '../../domain/fhir/smart-scopes.js';
import type { Lang, Localized } from './page-language.js';

const LAUNCH_SCOPES: Readonly<Record<string, Localized>> = {
  openid: { en: 'confirm that you signed in', sv: 'bekräfta att du har loggat in' },
  fhirUser: {
    en: 'know who you are in the record: yourself, or your relationship to the person picked',
    sv: 'veta vem du är i journalen: du själv, eller din relation till den du valde',
  },
  'launch/patient': { en: 'know whose record was picked', sv: 'veta vems journal du valde' },
  offline_access: {
    en: 'keep reading without asking you again, until the sign-in expires or is revoked',
    sv: 'fortsätta läsa utan att fråga dig igen, tills inloggningen går ut eller återkallas',
  },
};

/** The COS API's scopes in words: the operation table's description, and in Swedish the names of the operations they open. */
const API_SCOPES: ReadonlyMap<string, Localized> = (() => {
  const out = new Map<string, { en: string; sv: string[] }>();
  for (const name of OPERATION_NAMES) {
    const { scope, displayName } = OPERATIONS[name];
    const entry = out.get(scope.name) ?? { en: scope.description, sv: [] };
    if (!entry.sv.includes(displayName.sv)) entry.sv.push(displayName.sv);
    out.set(scope.name, entry);
  }
  const verb = (scope: string): string => (scope.endsWith('-write') ? 'ändra och skicka' : 'läsa');
  return new Map([...out].map(([scope, { en, sv }]) => [scope, { en, sv: `${verb(scope)}: ${sv.join(', ').toLowerCase()}` }]));
})();

const WHOSE: Readonly<Record<ScopeContext, Localized>> = {
  patient: { en: 'of the person picked', sv: 'för den du valde' },
  user: { en: 'of everyone you may act for', sv: 'för alla du får företräda' },
  system: { en: 'of any patient', sv: 'för alla patienter' },
};
const HOW: Readonly<Record<string, Localized>> = { read: { en: 'read', sv: 'läsa' }, search: { en: 'search', sv: 'söka i' } };
const AND: Localized = { en: ' and ', sv: ' och ' };

const sentence = (text: string): string => text.replace(/^./, (c) => c.toUpperCase());

/** The scope in words; undefined for a scope this server does not know (it is shown as it is). */
export function scopeMeaning(scope: string, lang: Lang = 'en'): string | undefined {
  // SMART's forms of the API's scopes (`patient/Appointment.write`) say what the API's scope does; scopeReach says whose.
  const known = LAUNCH_SCOPES[scope] ?? API_SCOPES.get(scope) ?? (smartGrants([scope]).length === 0 ? API_SCOPES.get(canonicalScope(scope)) : undefined);
  if (known !== undefined) return sentence(known[lang]);
  const [grant] = smartGrants([scope]);
  if (grant === undefined) return undefined;
  const how = [...grant.interactions].sort().map((i) => HOW[i]?.[lang] ?? i).join(AND[lang]);
  const what = grant.type === '*'
    ? { en: 'every part of the record', sv: 'hela journalen' }[lang]
    : { en: `${grant.type} resources`, sv: `uppgifter av typen ${grant.type}` }[lang];
  const only = grant.category === undefined ? '' : { en: ` (only category ${grant.category.code})`, sv: ` (bara kategorin ${grant.category.code})` }[lang];
  return sentence(`${how} ${what}${only} ${WHOSE[grant.context][lang]}`);
}

/**
 * Whose records a scope reaches: `patient/` the person picked, `user/` (SMART's and the COS API's)
 * everyone the person may act for, the OpenID and launch scopes nobody's.
 */
export function scopeReach(scope: string): 'picked' | 'everyone' | 'none' {
  if (scope.startsWith('patient/')) return 'picked';
  if (scope.startsWith('user/')) return 'everyone';
  return 'none';
}

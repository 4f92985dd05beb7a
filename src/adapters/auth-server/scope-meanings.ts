// What each scope on the consent page lets the application do, in words for the person asked, in
// Swedish and English: the OpenID and SMART launch scopes, the COS API's own (their descriptions and
// names in the operation table) and SMART resource scopes as the FHIR API reads them
// (src/domain/fhir/smart-scopes.ts), each type by what it holds (resource-words.ts); and whose
// records each one reaches.
import { readScopeOf } from '../../domain/access/scope-grants.js';
import { canonicalScope } from '../../domain/access/scopes.js';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../domain/operations/table.js';
import { consentAllows, PROXY_READ_SCOPE, PROXY_WRITE_SCOPE } from '../../domain/fhir/consent-scopes.js';
import { subscriptionAllows } from '../../domain/fhir/subscription-scopes.js';
import { smartGrants, type ScopeContext } from '../../domain/fhir/smart-scopes.js';
import type { OpenedParts } from '../../ports/smart-launch.port.js';
import type { Lang, Localized } from './page-language.js';
import { namesOf, typeWords } from './resource-words.js';

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

/** The operations each API scope name stands for (the COS API's operations, the access log among them), in the table's order. */
const OPERATIONS_OF_SCOPE: ReadonlyMap<string, readonly OperationName[]> = (() => {
  const map = new Map<string, OperationName[]>();
  for (const name of OPERATION_NAMES) map.set(OPERATIONS[name].scope.name, [...(map.get(OPERATIONS[name].scope.name) ?? []), name]);
  return map;
})();

/**
 * The COS API's scopes in words: the operation table's description, and in Swedish what the access log
 * calls the operations they open, read ("läsa provsvar") or done ("sköta betalning av besök").
 */
const API_SCOPES: ReadonlyMap<string, Localized> = (() => {
  const verb = (scope: string): string => (scope.endsWith('-write') ? 'sköta' : 'läsa');
  return new Map([...OPERATIONS_OF_SCOPE].map(([scope, operations]) => [scope, {
    en: OPERATIONS[operations[0] as OperationName].scope.description, sv: `${verb(scope)} ${namesOf(operations).sv}`,
  }]));
})();

const WHOSE: Readonly<Record<ScopeContext, Localized>> = {
  patient: { en: 'of the person picked', sv: 'för den du valde' },
  user: { en: 'of everyone you may act for', sv: 'för alla du får företräda' },
  system: { en: 'of any patient', sv: 'för alla patienter' },
};
/** A read by id or a search both show the record: said as reading, a search alone as searching. */
const READ: Localized = { en: 'read', sv: 'läsa' };
const SEARCH: Localized = { en: 'search', sv: 'söka i' };
const EVERYTHING: Localized = { en: 'every part of the record', sv: 'hela journalen' };

/**
 * The scopes of what a person manages rather than reads: the Consents of the grants they gave
 * (docs/contract.md §11), never the records of whoever is picked, and the Subscriptions an app keeps
 * to be told of changes (§12). Each said as what it is rather than as a resource type read.
 */
interface Managed {
  type: string;
  /** The COS door's scopes of the same thing, said the same way (sharing's: consent-scopes.ts). */
  cos?: readonly string[];
  allows: (scopes: Iterable<string>, interaction: 'read' | 'search' | 'create' | 'delete', contexts: readonly ScopeContext[]) => boolean;
  /** Whose record it is about: the signed-in person's own (Consent), or whose the scope's context reaches (Subscription). */
  reach: 'own' | 'by-context';
  read: Localized;
  write: Localized;
}
const MANAGED: readonly Managed[] = [
  {
    type: 'Consent', allows: consentAllows, cos: [PROXY_READ_SCOPE, PROXY_WRITE_SCOPE], reach: 'own',
    read: { en: 'see whom you share your record with and what, and who shares theirs with you', sv: 'se vilka du delar din journal med och vad, och vilka som delar sin med dig' },
    write: { en: 'share your record with someone you choose, and end such sharing', sv: 'dela din journal med någon du väljer, och avsluta sådan delning' },
  },
  {
    // The notifications go to the app's own server, not to this device: said so, as that is what a person consents to.
    type: 'Subscription', allows: subscriptionAllows, reach: 'by-context',
    read: { en: 'see what its server is told of, and how its notifications get through', sv: 'se vad dess server får besked om, och hur beskeden går fram' },
    write: {
      en: 'have its server told when something changes in the record, and stop that',
      sv: 'låta dess server få besked när något ändras i journalen, och sluta med det',
    },
  },
];
/** What a scope manages: by its type, or as the COS door counts it (`user/Proxy.read`, sharing's SMART form, is sharing's scope). */
const managedOf = (scope: string): Managed | undefined =>
  MANAGED.find((m) => scope.startsWith(`patient/${m.type}.`) || scope.startsWith(`user/${m.type}.`) || m.cos?.includes(canonicalScope(scope)) === true);

/**
 * Whether `scope` lets `managed` be read (by id or searched) and changed (created or deleted), in `contexts`:
 * as written, and as the COS door counts it (`user/Proxy.write` is sharing's COS scope: hostile review helper-145, F1, F2).
 */
function managedUse(managed: Managed, scope: string, contexts: readonly ScopeContext[]): { reads: boolean; writes: boolean } {
  const asked = [scope, canonicalScope(scope)];
  const allows = (interactions: readonly ('read' | 'search' | 'create' | 'delete')[]) => interactions.some((i) => managed.allows(asked, i, contexts));
  return { reads: allows(['read', 'search']), writes: allows(['create', 'delete']) };
}

function managedMeaning(scope: string): Localized | undefined {
  const managed = managedOf(scope);
  if (managed === undefined) return undefined;
  const { reads, writes } = managedUse(managed, scope, ['patient', 'user']);
  if (reads && writes) return { en: `${managed.read.en}; ${managed.write.en}`, sv: `${managed.read.sv}; ${managed.write.sv}` };
  return writes ? managed.write : reads ? managed.read : undefined;
}

/**
 * What a scope of sharing does, for the consent page's line on it; undefined for a scope that does
 * nothing of sharing wherever the app is opened (`user/Consent.rs?category=…`: helper-147, F4). `reads`:
 * it reads the person's own grants in an app opened for someone she acts for too, where both doors
 * read them under a `user/` scope alone (routes/proxy-routes.ts, fhir/consent-routes.ts); `writes`: it
 * asks for changes, which both doors make only in an app opened for her.
 */
export function sharingScope(scope: string): { reads: boolean; writes: boolean } | undefined {
  const managed = managedOf(scope);
  if (managed?.reach !== 'own') return undefined;
  const anywhere = managedUse(managed, scope, ['patient', 'user']);
  if (!anywhere.reads && !anywhere.writes) return undefined;
  // As the doors count it: `patient/Consent.rs`, though the COS door takes it as `user/Proxy-read`, reaches only the person picked.
  return { reads: scope.startsWith('user/') && managedUse(managed, scope, ['user']).reads, writes: anywhere.writes };
}

const sentence = (text: string): string => text.replace(/^./, (c) => c.toUpperCase());

/** The scope in words; undefined for a scope this server does not know (the consent page says it opens nothing). */
export function scopeMeaning(scope: string, lang: Lang = 'en'): string | undefined {
  // SMART's forms of the API's scopes (`patient/Appointment.write`) say what the API's scope does; scopeReach says whose.
  const known = LAUNCH_SCOPES[scope] ?? managedMeaning(scope) ?? API_SCOPES.get(scope) ?? (smartGrants([scope]).length === 0 ? API_SCOPES.get(canonicalScope(scope)) : undefined);
  if (known !== undefined) return sentence(known[lang]);
  const [grant] = smartGrants([scope]);
  if (grant === undefined) return undefined;
  const how = (grant.interactions.has('read') ? READ : SEARCH)[lang];
  const what = (grant.type === '*' ? EVERYTHING : typeWords(grant.type))?.[lang];
  if (what === undefined) return undefined;
  const only = grant.category === undefined ? '' : { en: ` (only category ${grant.category.code})`, sv: ` (bara kategorin ${grant.category.code})` }[lang];
  return sentence(`${how} ${what}${only} ${WHOSE[grant.context][lang]}`);
}

/**
 * Whose records a scope reaches: `patient/` the person picked, `user/` (SMART's and the COS API's)
 * everyone the person may act for, the OpenID and launch scopes nobody's, nor do the scopes of sharing:
 * they reach the signed-in person's own grants (consent-scopes.ts), whoever was picked. A Subscription
 * scope reaches by its context as a read does: being told of a record is learning of it.
 */
export function scopeReach(scope: string): 'picked' | 'everyone' | 'none' {
  // A scope without words is one this server does not know, which opens nothing (helper-145, F5: `user/Proxy.rs` named people).
  if (managedOf(scope)?.reach === 'own' || scopeMeaning(scope) === undefined) return 'none';
  if (scope.startsWith('patient/')) return 'picked';
  if (scope.startsWith('user/')) return 'everyone';
  return 'none';
}


/**
 * Whether `scope` opens anything of the record of someone whose access opens `opens` (LaunchPerson): all
 * of it where that is absent; else an API scope where its operation is opened, a SMART scope where its
 * type is (`*` where anything is), a Subscription scope where anything is (being told of a record is
 * learning of it). A proxy's grant opens its categories and never the access log; an age limit of the
 * release policy none of a read it takes whole. Hostile reviews helper-105, 8 and helper-106, F1–F3 and
 * its observation: the consent page named a grantor for notes and a log she had not shared, and a child
 * past the guardian age limit for the reads it takes, and not the grantor for the notifications her grant
 * lets an app subscribe to.
 */
export function scopeOpensFor(scope: string, opens: OpenedParts | undefined): boolean {
  if (opens === undefined) return true;
  // A v2 spelling of a read's COS scope (`user/LabResult.rs`) opens that read, and a SMART type scope spelling it
  // (`patient/Appointment.read`) its type's records too, whichever read has them, as on both doors (domain/access/scope-grants.ts).
  const operations = OPERATIONS_OF_SCOPE.get(readScopeOf(scope));
  if (operations?.some((operation) => opens.operations.has(operation)) === true) return true;
  if (managedOf(scope)?.type === 'Subscription') return opens.types.size > 0;
  return smartGrants([scope]).some((g) => (g.type === '*' ? opens.types.size > 0 : opens.types.has(g.type)));
}

/**
 * SMART App Launch scopes as the FHIR API reads them (docs/fhir-api.md#scopes): v1
 * (`patient/Observation.read`), v2 (`patient/Observation.rs`, `user/*.cruds`) with an optional
 * granular restriction (`?category=<system>|<code>`). What each grants is decided here once, for
 * every route of /fhir: a type not granted is refused, an include of one is left out.
 */

import type { ReadName } from '../operations/table.js';

/** Whom a scope's data is about: the launch patient, anyone the user may act for, or (client tokens) any patient. */
export type ScopeContext = 'patient' | 'user' | 'system';
/** `r` read by id, `s` search. The API serves no other interaction. */
export type Interaction = 'read' | 'search';

export interface Grant {
  context: ScopeContext;
  /** A resource type, or `*` for every type. */
  type: string;
  interactions: ReadonlySet<Interaction>;
  /** v2's granular restriction: only resources with this `category` coding. */
  category?: { system?: string; code: string };
  /**
   * The one read whose records of the type a COS API scope grants (`user/Appointment-read` the bookings,
   * not the video meetings written as Appointment too); a SMART scope's grant has none: every read's.
   */
  read?: ReadName;
}

/**
 * Whether one of `grants` (of the record's type) grants a record that `read` made, of these categories:
 * the read and the category of one grant together, never one grant's read and another's category.
 */
export const grantsRecord = (grants: readonly Grant[], read: ReadName | undefined, categories: readonly { system?: string; code?: string }[]): boolean =>
  grants.some((g) => (g.read === undefined || g.read === read) && passesCategory([g], categories));

/** The reads among `reads` whose records `allowed` grants (each a grant of the type in question). */
export const readsGranted = (reads: readonly ReadName[], allowed: readonly Grant[]): ReadName[] =>
  reads.filter((read) => allowed.some((g) => g.read === undefined || g.read === read));

const SCOPE = /^(patient|user|system)\/([A-Za-z]+|\*)\.([a-z]+)(?:\?(.*))?$/;
const V2 = /^c?r?u?d?s?$/;

function categoryOf(query: string | undefined): Grant['category'] | 'invalid' | undefined {
  if (query === undefined) return undefined;
  const params = new URLSearchParams(query);
  const keys = [...params.keys()];
  const value = params.get('category');
  // A restriction this service does not understand grants nothing rather than everything.
  if (keys.length !== 1 || value === null || value === '') return 'invalid';
  const bar = value.indexOf('|');
  if (bar < 0) return { code: value };
  const code = value.slice(bar + 1);
  if (code === '') return 'invalid';
  return bar === 0 ? { code } : { system: value.slice(0, bar), code };
}

/** A SMART resource scope in full: every v2 letter it names, those of writing and managing too, not only what this API reads. */
export interface ScopeLetters {
  context: ScopeContext;
  type: string;
  /** Of `cruds`: v1 `read` is `rs`, `write` is `cud`. */
  letters: ReadonlySet<string>;
  category?: { system?: string; code: string };
}

const V1_LETTERS: Readonly<Record<string, string>> = { read: 'rs', write: 'cud' };

/** The letters of a SMART resource scope, or undefined for one that is not one (or names a restriction not understood). */
export function scopeLetters(scope: string): ScopeLetters | undefined {
  const m = SCOPE.exec(scope);
  if (!m) return undefined;
  const [, context, type, permissions, query] = m as unknown as [string, ScopeContext, string, string, string | undefined];
  const letters = V1_LETTERS[permissions] ?? (permissions !== '' && V2.test(permissions) ? permissions : undefined);
  const category = categoryOf(query);
  if (letters === undefined || category === 'invalid') return undefined;
  return { context, type, letters: new Set(letters), ...(category === undefined ? {} : { category }) };
}

/** The grants of a token's scopes: the reads (`r`, `s`) of each; a scope that is not a SMART resource scope, or reads nothing (`write`), grants nothing here. */
export function smartGrants(scopes: Iterable<string>): Grant[] {
  const grants: Grant[] = [];
  for (const scope of scopes) {
    const parts = scopeLetters(scope);
    if (parts === undefined) continue;
    const interactions = new Set<Interaction>();
    if (parts.letters.has('r')) interactions.add('read');
    if (parts.letters.has('s')) interactions.add('search');
    if (interactions.size === 0) continue;
    grants.push({ context: parts.context, type: parts.type, interactions, ...(parts.category === undefined ? {} : { category: parts.category }) });
  }
  return grants;
}

/** The grants that allow `interaction` on `type` in one of `contexts`. */
export function grantsFor(grants: readonly Grant[], type: string, interaction: Interaction, contexts: readonly ScopeContext[]): Grant[] {
  return grants.filter((g) => (g.type === type || g.type === '*') && g.interactions.has(interaction) && contexts.includes(g.context));
}

/** Whether a resource passes at least one grant's category restriction (a grant without one passes all). */
export function passesCategory(grants: readonly Grant[], categories: readonly { system?: string; code?: string }[]): boolean {
  return grants.some(({ category: wanted }) => wanted === undefined
    || categories.some((c) => c.code === wanted.code && (wanted.system === undefined || c.system === wanted.system)));
}

/** What a type whose scopes must name it needs of a scope: any of `letters` in a v2 permission, or the v1 permission `v1`. */
export interface NamedPermission {
  letters: string;
  v1: 'read' | 'write';
}

const PERSON_SCOPE = /^(patient|user)\/([A-Za-z]+)\.([a-z*]+)$/;

/**
 * Whether `scopes` grant `wanted` on `type` in one of `contexts`, counting only scopes that name the
 * type (never `*`): for what an app manages rather than reads (the grants a person gave, the
 * notifications an endpoint receives), which a wildcard asked for to read a record does not hand it.
 */
export function namedScopeAllows(scopes: Iterable<string>, type: string, wanted: NamedPermission, contexts: readonly ScopeContext[]): boolean {
  for (const scope of scopes) {
    const m = PERSON_SCOPE.exec(scope);
    if (!m || m[2] !== type) continue;
    const [, context, , permissions] = m as unknown as [string, ScopeContext, string, string];
    if (!contexts.includes(context)) continue;
    if (permissions === '*' || permissions === wanted.v1) return true;
    if (permissions !== '' && V2.test(permissions) && [...wanted.letters].some((l) => permissions.includes(l))) return true;
  }
  return false;
}

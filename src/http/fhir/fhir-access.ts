/**
 * Who a FHIR request may read, decided on every request (docs/fhir-api.md#scopes): the token's
 * SMART scopes (and the API's own scope of each read) for the type, and the patient, through the
 * same access policy as every COS read (delegation checked now, protected identity, audit).
 */
import type { FastifyRequest } from 'fastify';
import { reachesRead } from '../../domain/access/operation-reach.js';
import type { PatientAccess } from '../../domain/access/patient-access.js';
import { contextsReaching, launchPatient } from '../../domain/access/scope-reach.js';
import { withReferenced } from '../../domain/fhir/document-references.js';
import { keyOf } from '../../domain/fhir/resource-search.js';
import { REFERENCED_TYPES, type FhirType } from '../../domain/fhir/search-parameters.js';
import { grantsFor, grantsRecord, type Grant, type Interaction, type ScopeContext } from '../../domain/fhir/smart-scopes.js';
import type { ReadName } from '../../domain/operations/table.js';
import type { FhirForm, FhirResource } from '../../reads/as-fhir.js';
import { ApiError } from '../api-error.js';
import { scopeGrantsOf, type FhirApi, type TypeServing } from './fhir-api.js';

/** The resource types a read's FHIR form writes, which the read's own scope grants; none for a read without one. */
export const formTypes = (api: FhirApi, read: ReadName): readonly string[] => (api.forms[read] as FhirForm<ReadName> | undefined)?.types ?? [];

/** The grants of the request's token: SMART scopes as written, and each spelling of a read's COS scope as a grant of its types (scope-grants.ts). */
export function grantsOf(request: FastifyRequest, api: FhirApi): Grant[] {
  const token = request.token;
  if (token === undefined) return [];
  return grantsOfScopes(token.grantedScopes ?? token.scopes, token.personId === undefined ? 'system' : 'user', api);
}

/** The grants `written` scopes give a person's (`user`) or a client's (`system`) token: grantsOf without a request. */
export const grantsOfScopes = (written: ReadonlySet<string>, context: ScopeContext, api: FhirApi): Grant[] =>
  scopeGrantsOf(api.forms).grantsOf(written, context);

/** The launch patient of a person token (scope-reach.ts): the `smart_patient` the user picked, else the person. */
export function launchPatientOf(request: FastifyRequest, api: FhirApi): string | undefined {
  const token = request.token;
  if (token === undefined) return undefined;
  const launch = launchPatient(token, (id) => api.ids.identityNumberOf(id));
  // A picked patient this service's key did not make names nobody: refused here, never the person instead.
  if (launch === undefined && token.personId !== undefined) throw new ApiError(403, 'The token\'s smart_patient is not a Patient id of this service: launch the app again.');
  return launch;
}

/** The scope contexts that may reach `patient` for this request's token: the rule the COS door applies too (scope-reach.ts). */
export function contextsFor(request: FastifyRequest, api: FhirApi, patient: string): ScopeContext[] {
  const token = request.token ?? {};
  return contextsReaching(token, launchPatientOf(request, api), patient);
}

/** The grants allowing `interaction` on `type` for `patient`; 403 naming the scope to ask for when none does. */
export function requireGrants(grants: readonly Grant[], type: string, interaction: Interaction, contexts: readonly ScopeContext[]): Grant[] {
  const allowed = grantsFor(grants, type, interaction, contexts);
  if (allowed.length === 0) {
    throw insufficientScope(type, interaction, contexts, (scope) => `The token's scopes do not allow ${interaction === 'read' ? 'reading' : 'searching'} ${type} for this patient: ask for ${scope} (or ${contexts[0] ?? 'patient'}/${type}.read).`);
  }
  return allowed;
}

/** A 403 insufficient_scope naming the scope of `type` to ask for, in words `say` makes of it. */
export function insufficientScope(type: string, interaction: Interaction, contexts: readonly ScopeContext[], say: (scope: string) => string): ApiError {
  const scope = `${contexts[0] ?? 'patient'}/${type}.${interaction === 'read' ? 'r' : 's'}`;
  return new ApiError(403, say(scope), { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` });
}

/** The codings of a resource's `category` (one concept or a list): what a granular scope restricts by. */
export const categoriesOf = (r: FhirResource): { system?: string; code?: string }[] => {
  const category = r.category as unknown;
  const concepts = Array.isArray(category) ? category : category === undefined ? [] : [category];
  return concepts.flatMap((c: { coding?: { system?: string; code?: string }[] }) => c.coding ?? []);
};

export const isReferenced = (r: FhirResource): boolean => REFERENCED_TYPES.has(r.resourceType as FhirType);

/** The read that wrote `r` among a request's records (PatientResources.readOf, by `Type/id`). */
export const readOfRecord = (readOf: ReadonlyMap<string, ReadName>, r: FhirResource): ReadName | undefined => readOf.get(keyOf(r));

/**
 * One patient's records as a request looked through them, and what decides which of them it may show:
 * the token's grants in the patient's contexts, and whether the caller's access opens a record's type.
 */
export interface RecordsView {
  resources: readonly FhirResource[];
  /** The read that wrote each resource (PatientResources.readOf). */
  readOf: ReadonlyMap<string, ReadName>;
  grants: readonly Grant[];
  contexts: readonly ScopeContext[];
  /** accessOpens for the record's type: a proxy's grant its categories only. */
  opens: (r: FhirResource) => boolean;
}

/**
 * Whether `access` opens resources of the type `serving` serves: a proxy's grant its categories only
 * (docs/proxies.md), so an Encounter a note's or a prescription's own form wrote is not shown for a grant
 * without care contacts (hostile review helper-98, F1: a summary handed it over), nor are the parties only
 * it names (helper-99, F1: the care unit of a note's contact, under SMART type scopes). A referenced type
 * (a Practitioner, a Medication) comes with any record that names it.
 */
export function accessOpens(serving: TypeServing | undefined, access: PatientAccess): boolean {
  return serving === undefined || serving.referenced || serving.reads.some((read) => reachesRead(access, read));
}

/** The view of `found`'s records for a token's `grants` in the patient's `contexts`, `served` telling which reads serve a type. */
export function recordsView(
  found: { resources: readonly FhirResource[]; readOf: ReadonlyMap<string, ReadName>; access: PatientAccess },
  grants: readonly Grant[], contexts: readonly ScopeContext[], served: ReadonlyMap<string, TypeServing>,
): RecordsView {
  return { resources: found.resources, readOf: found.readOf, grants, contexts, opens: (r) => accessOpens(served.get(r.resourceType), found.access) };
}

/** Whether one of `grants` in `contexts` gives record `r`, which `read` wrote: its type (to read or search), its read and its category. */
export function grantsShow(grants: readonly Grant[], contexts: readonly ScopeContext[], r: FhirResource, read: ReadName | undefined): boolean {
  const allowed = [...grantsFor(grants, r.resourceType, 'search', contexts), ...grantsFor(grants, r.resourceType, 'read', contexts)];
  return grantsRecord(allowed, read, categoriesOf(r));
}

/** Whether the view shows record `r`: the caller's access opens its type, and a grant gives it (grantsShow). */
const grantShows = (r: FhirResource, view: RecordsView): boolean =>
  view.opens(r) && grantsShow(view.grants, view.contexts, r, readOfRecord(view.readOf, r));

/**
 * What of the view's resources an answer may hold: a record it shows, or a party (a referenced type) such a
 * record names (namedByShown), for an include as for a search: one referenced type's revinclude of another
 * (`Organization:partof`) brings no party a shown record does not name (hostile review helper-94, F1).
 */
export function showable(view: RecordsView): (r: FhirResource) => boolean {
  const named = namedByShown(view);
  return (r) => (isReferenced(r) ? named.has(keyOf(r)) : grantShows(r, view));
}

/**
 * The reads whose records the view shows name one of `parties` (referenced types, by `Type/id`), directly
 * or through another party, in the order the records came: what an answer holding the parties is recorded
 * for (hostile review helper-94, F2), never every read looked through to find them.
 */
export function readsNaming(parties: ReadonlySet<string>, view: RecordsView): ReadName[] {
  const shownBy = new Map<ReadName, FhirResource[]>();
  for (const r of view.resources) {
    const read = readOfRecord(view.readOf, r);
    if (read === undefined || isReferenced(r) || !grantShows(r, view)) continue;
    shownBy.set(read, [...(shownBy.get(read) ?? []), r]);
  }
  return [...shownBy].filter(([, shown]) => withReferenced(shown, view.resources, isReferenced).some((r) => isReferenced(r) && parties.has(keyOf(r))))
    .map(([read]) => read);
}

/**
 * The resources of referenced types (a Practitioner, a Medication) that the records the view shows name,
 * directly or through another (a PractitionerRole's Organization), by `Type/id`: all a referenced type
 * answers, so a grant whose category shows no record names nothing (hostile review helper-93).
 */
function namedByShown(view: RecordsView): Set<string> {
  const shown = view.resources.filter((r) => !isReferenced(r) && grantShows(r, view));
  return new Set(withReferenced(shown, view.resources, isReferenced).filter(isReferenced).map(keyOf));
}

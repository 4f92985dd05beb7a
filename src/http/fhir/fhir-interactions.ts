/**
 * The two interactions of the FHIR API (docs/fhir-api.md#interactions): search and read by id,
 * for every type served, over the patient's released records. Each decides scopes and patient
 * first; the records are read (and the access audited) only for a caller who may see them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { included, keyOf, matchesQuery, sortMatches, typesToInclude, type IncludeSpec } from '../../domain/fhir/resource-search.js';
import { REFERENCED_TYPES, type FhirType } from '../../domain/fhir/search-parameters.js';
import { grantsFor, grantsRecord, readsGranted, type Grant, type ScopeContext } from '../../domain/fhir/smart-scopes.js';
import { DomainError } from '../../domain/errors.js';
import { reachesRead } from '../../domain/access/operation-reach.js';
import { READ_NAMES, type ReadName } from '../../domain/operations/table.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { ApiError } from '../api-error.js';
import { noteWithheld } from '../release-header.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import type { JsonAnswer } from '../serialization/json-answer.js';
import { searchLink } from './bundle.js';
import { delegateRelatedPerson } from './delegate-related-person.js';
import {
  categoriesOf, contextsFor, formTypes, grantsOf, insufficientScope, launchPatientOf, readOfRecord, readsNaming, recordsView, requireGrants, showable,
} from './fhir-access.js';
import { servedTypes, type FhirApi, type TypeServing } from './fhir-api.js';
import { patientResources } from './patient-records.js';
import { noteRefusedFor } from '../caller-basis.js';
import { namedPatient, patientsOf, samePatient, scopeRefusal } from './patients-of-request.js';
import { RememberedMatches, selectionKey, type Selection } from './remembered-matches.js';
import type { FhirSearch } from './search-query.js';
import { noteShownReads, type SearchedPatient } from './shown-reads.js';
import { KeptEntries, searchsetBody } from './searchset-bytes.js';
import type { WrittenForms } from './written-forms.js';

const notFound = (type: string): ApiError => new ApiError(404, `No ${type} with this id is readable with this token: search ${type}?patient=… for the ids.`);

export class FhirInteractions {
  private readonly served: ReadonlyMap<string, TypeServing>;
  /** What searches selected of kept resources, and the kept resources' entries as bytes (issue 56 item 4). */
  private readonly remembered = new RememberedMatches();
  private readonly entries = new KeptEntries();

  /** `written`: the reads' FHIR forms of records this API has written, for as long as the EHR keeps those records. */
  constructor(private readonly deps: RouteDependencies, private readonly api: FhirApi, private readonly written: WrittenForms) {
    this.served = new Map(servedTypes(api.forms).map((s) => [s.type, s]));
  }

  servedTypes(): TypeServing[] {
    return [...this.served.values()];
  }

  private readonly typesOfRead = (read: ReadName): readonly string[] => formTypes(this.api, read);

  /** The reads this request may take records of `type` from, for one patient's contexts. */
  private readsFor(type: FhirType, grants: readonly Grant[], contexts: readonly ScopeContext[], interaction: 'read' | 'search'): ReadName[] {
    const serving = this.served.get(type);
    if (serving === undefined) throw new ApiError(404, `This API does not serve ${type}: GET /fhir/metadata lists the types it does.`);
    // Of the type's reads, those a grant reaches: a COS scope's grant is its own read's alone (the bookings' scope reaches no video meeting).
    if (!serving.referenced) return readsGranted(serving.reads, requireGrants(grants, type, interaction, contexts));
    // A referenced type is readable with any scope that reaches a record referencing it.
    const reads = serving.reads.filter((read) => this.grantsRead(read, grants, contexts));
    if (reads.length > 0) return reads;
    // A scope of the type itself reaches no record that names one: refused, never an empty answer.
    const named = [...new Set(serving.reads.flatMap((read) => this.typesOfRead(read)))];
    throw insufficientScope(named[0] ?? type, interaction, contexts,
      () => `${type} is read through the records that name it, and this token's scopes reach none of them for this patient: ask for a scope of ${named.join(', ')}.`);
  }

  /** Whether `grants` reach the records of `read` of some type its form writes, by read or by search. */
  private grantsRead(read: ReadName, grants: readonly Grant[], contexts: readonly ScopeContext[]): boolean {
    return this.typesOfRead(read).some((t) =>
      readsGranted([read], [...grantsFor(grants, t, 'read', contexts), ...grantsFor(grants, t, 'search', contexts)]).length > 0);
  }

  /** The searchset: bytes where every resource on the page is kept (searchset-bytes.ts), else the Bundle to serialise. */
  async search(request: FastifyRequest, reply: FastifyReply, search: FhirSearch): Promise<JsonAnswer | Record<string, unknown>> {
    const grants = grantsOf(request, this.api);
    const { patients, listing } = await patientsOf(request, this.deps, this.api, search, grants);
    // A listing, of one or of several: each one read gets an audit record of their own, nobody left out is named.
    if (listing || patients.length > 1) request.audit.patientsRead = new Map();
    const matches: FhirResource[] = [];
    const all: FhirResource[] = [];
    const selections: Selection[] = [];
    const searched: SearchedPatient[] = [];
    let withheld = 0;
    let withheldAny = 0;
    for (const patient of patients) {
      // The patient the query names is the one a refusal for want of a scope is about (as a COS refusal names the patient header's).
      if (!listing) request.audit.patientId = patient;
      const contexts = contextsFor(request, this.api, patient);
      if (listing && grantsFor(grants, search.type, 'search', contexts).length === 0) continue;
      let reads: ReadName[];
      try {
        reads = this.readsFor(search.type, grants, contexts, 'search');
      } catch (err) {
        throw scopeRefusal(request, contexts, err);
      }
      const typeGrants = REFERENCED_TYPES.has(search.type) ? [] : grantsFor(grants, search.type, 'search', contexts);
      let found;
      try {
        found = await patientResources(request, this.deps, this.api, this.written, patient, reads, this.includedReads(search, grants, contexts));
      } catch (err) {
        if (listing && err instanceof DomainError && err.code === 'ACCESS_DENIED') continue;
        throw err;
      }
      // What the search's own reads withheld marks the Bundle (SUBSETTED, which speaks of the matches);
      // whatever any read of the answer withheld, an include's too, marks the answer (Patient-Data-Filtered):
      // an app is never handed a part as the whole without a word (the review of 2026-11-29).
      withheld += reads.reduce((sum, read) => sum + (found.withheldBy.get(read) ?? 0), 0);
      withheldAny += found.withheld;
      const view = recordsView(found, grants, contexts, this.served);
      searched.push({ patient, view });
      const query = { type: search.type, dates: search.dates, tokens: search.tokens, references: search.references, ...(search.ids === undefined ? {} : { ids: search.ids }) };
      // Matches come from the type's own reads: an included read may write the type too (a note's Encounter).
      const own = new Set<ReadName>(reads);
      const fromOwn = (r: FhirResource): boolean => own.has(readOfRecord(found.readOf, r) as ReadName);
      // What of the records an answer may hold (a party: what a shown record names), made once for the selection and the includes.
      let showing: ((r: FhirResource) => boolean) | undefined;
      const shows = (): ((r: FhirResource) => boolean) => (showing ??= showable(view));
      // A referenced type answers what the records a grant shows name, so every grant of the patient's contexts keys its selection.
      const referenced = REFERENCED_TYPES.has(search.type);
      const key = selectionKey(referenced
        ? { ...query, own: reads, typeGrants: grants.filter((g) => contexts.includes(g.context)), reached: READ_NAMES.filter((read) => reachesRead(found.access, read)) }
        : { ...query, own: reads, typeGrants });
      const mine = this.remembered.of(found.resources, key, () => {
        // A record of the type by its search grants; a party as showable says.
        const selects = referenced ? shows() : (r: FhirResource) => grantsRecord(typeGrants, readOfRecord(found.readOf, r), categoriesOf(r));
        return found.resources.filter((r) => fromOwn(r) && matchesQuery(r, query, this.deps.zone) && selects(r));
      });
      selections.push(mine);
      matches.push(...mine.matches);
      // What an include may add: looked at only when the search asks for includes.
      if (search.includes.length > 0 || search.revincludes.length > 0) {
        all.push(...found.resources.filter(shows()));
      }
    }
    // A listing that read nobody is recorded as such: no record names someone left out, or the caller instead.
    if (request.audit.patientsRead?.size === 0) request.audit.nobody = true;
    const sort = (m: readonly FhirResource[]): FhirResource[] => sortMatches(m, search.type, this.deps.zone);
    // One patient's matches: their order is remembered with them. Several patients' are sorted together, as before.
    const [only] = selections;
    const sorted = selections.length === 1 && only !== undefined ? only.sorted(sort) : sort(matches);
    return this.page(request, reply, search, sorted, all, { matches: withheld, any: withheldAny }, patients, searched);
  }

  /**
   * The reads an include or a revinclude needs besides the search's own (a `:patient` include the
   * patient's, an `:encounter` include the care contacts'), of the types the token may read: read
   * as any read is, through the access policy, release policy and audit of patientResources.
   */
  private includedReads(search: FhirSearch, grants: readonly Grant[], contexts: readonly ScopeContext[]): ReadName[] {
    if (search.includes.length === 0 && search.revincludes.length === 0) return [];
    return typesToInclude(search.includes, search.revincludes).flatMap((type) => {
      const serving = this.served.get(type);
      if (serving === undefined || serving.referenced) return [];
      return readsGranted(serving.reads, [...grantsFor(grants, type, 'read', contexts), ...grantsFor(grants, type, 'search', contexts)]);
    });
  }

  private page(
    request: FastifyRequest, reply: FastifyReply, search: FhirSearch, matches: readonly FhirResource[], all: FhirResource[],
    withheld: { matches: number; any: number }, patients: string[], searched: readonly SearchedPatient[],
  ): JsonAnswer | Record<string, unknown> {
    const binding = cursorBinding(request, patients, search);
    const offset = search.cursor === undefined ? 0 : this.api.ids.openOffset(search.cursor, binding);
    if (offset === undefined) throw new ApiError(400, 'Search parameter _cursor was changed or belongs to another search: follow the next link as given, or search again without _cursor.');
    const onPage = search.count === 0 ? [] : matches.slice(offset, offset + search.count);
    const more = search.count > 0 && offset + search.count < matches.length;
    const base = this.api.publicBaseUrl;
    noteWithheld(request, reply, withheld.any);
    const includes = included(onPage, all, search.includes, search.revincludes as IncludeSpec[]);
    noteShownReads(request, onPage, includes, searched);
    return searchsetBody(base, {
      total: matches.length,
      matches: onPage,
      includes,
      self: searchLink(base, search.type, [...search.linkParams, ...(offset === 0 ? [] : [['_cursor', search.cursor ?? ''] as [string, string]])]),
      ...(more ? { next: searchLink(base, search.type, [...search.linkParams, ['_cursor', this.api.ids.sealOffset(offset + search.count, binding)]]) } : {}),
      subsetted: withheld.matches > 0,
    }, this.entries);
  }

  async read(request: FastifyRequest, reply: FastifyReply, type: FhirType, id: string, patientParam: string | undefined): Promise<FhirResource> {
    const grants = grantsOf(request, this.api);
    const delegate = type === 'RelatedPerson' && patientParam === undefined ? await this.delegate(request, reply, grants, id) : undefined;
    if (delegate !== undefined) return delegate;
    const candidates = await this.readCandidates(request, type, id, patientParam, grants);
    // The launch patient is the one a refusal names; with several candidates, each one read gets a record of their own.
    request.audit.patientId = candidates[0];
    if (candidates.length > 1) request.audit.patientsRead = new Map();
    for (const patient of candidates) {
      const contexts = contextsFor(request, this.api, patient);
      let reads: ReadName[];
      try {
        reads = this.readsFor(type, grants, contexts, 'read');
      } catch (err) {
        // The launch patient's (or a client's named patient's) refusal names the scope to ask for; any
        // other patient's resource is just not there: 404, as one that does not exist (not 403, which
        // would tell a Patient id this key made from one it did not).
        if (patient === candidates[0] && !contexts.every((c) => c === 'user')) throw err;
        continue;
      }
      try {
        const found = await patientResources(request, this.deps, this.api, this.written, patient, reads);
        const resource = found.resources.find((r) => r.resourceType === type && r.id === id);
        const referenced = REFERENCED_TYPES.has(type);
        const view = recordsView(found, grants, contexts, this.served);
        const shown = resource !== undefined && (referenced ? showable(view)(resource)
          : grantsRecord(grantsFor(grants, type, 'read', contexts), readOfRecord(found.readOf, resource), categoriesOf(resource)));
        if (resource !== undefined && shown) {
          // A record is named for the read it came from; a party (a referenced type) for the reads whose shown records name it.
          const record = readOfRecord(found.readOf, resource);
          const answeredBy = referenced ? readsNaming(new Set([keyOf(resource)]), view) : record === undefined ? [] : [record];
          (request.audit.patientsRead?.get(patient) ?? request.audit).answeredBy = answeredBy;
          noteWithheld(request, reply, 0);
          return resource;
        }
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'ACCESS_DENIED')) throw err;
      }
    }
    // Withheld, someone else's, or no such record: the same answer. Where several might have held it and none was read, the record names nobody.
    if (request.audit.patientsRead?.size === 0) request.audit.nobody = true;
    throw notFound(type);
  }

  /**
   * A delegate's own RelatedPerson (their `fhirUser`), for a token whose scopes reach RelatedPerson of the launch patient: a
   * SMART grant of the type, for it is no read's record (not the patient read's scope), unrestricted by a category it cannot
   * have (hostile review helper-143, F1).
   */
  private async delegate(request: FastifyRequest, reply: FastifyReply, grants: readonly Grant[], id: string): Promise<FhirResource | undefined> {
    const launch = launchPatientOf(request, this.api);
    const allowed = launch === undefined ? [] : grantsFor(grants, 'RelatedPerson', 'read', contextsFor(request, this.api, launch));
    if (!grantsRecord(allowed, undefined, [])) return undefined;
    const resource = await delegateRelatedPerson(request, this.deps, this.api, id);
    if (resource !== undefined) noteWithheld(request, reply, 0);
    return resource;
  }

  private async readCandidates(request: FastifyRequest, type: FhirType, id: string, patientParam: string | undefined, grants: readonly Grant[]): Promise<string[]> {
    // An id this service did not make names nobody: not found, as a real patient's resource one may not read is.
    const named = type === 'Patient' ? id : patientParam;
    if (named !== undefined) {
      const number = namedPatient(request, this.api, named);
      if (number === undefined) throw notFound(type);
      // A Patient is in its own compartment alone: `patient` naming anyone else finds nothing, as on any other type.
      if (type === 'Patient' && patientParam !== undefined && !samePatient(this.api, patientParam, number)) {
        noteRefusedFor(request, number);
        throw notFound(type);
      }
      return [number];
    }
    const personId = request.token?.personId;
    if (personId === undefined) {
      throw new ApiError(400, `A client token's read names the patient: GET /fhir/${type}/<id>?patient=Patient/<id>, or search ${type}?_id=<id>&patient=Patient/<id>.`);
    }
    const launch = launchPatientOf(request, this.api) as string;
    const userWide = grants.some((g) => g.context === 'user');
    return userWide ? [...new Set([launch, ...await this.deps.accessPolicy.peopleFor(personId)])] : [launch];
  }
}

/** What a page cursor is bound to: the caller and their app, the patients and the query (never the cursor itself). */
function cursorBinding(request: FastifyRequest, patients: readonly string[], search: FhirSearch): string {
  const token = request.token;
  const identifier = (search.identifiers ?? []).map((i) => `${i.system ?? ''}|${i.code}`).join(',');
  return JSON.stringify([token?.issuer, token?.subject, token?.clientId ?? '', token?.smartPatient ?? '', patients, search.type, search.linkParams, identifier]);
}

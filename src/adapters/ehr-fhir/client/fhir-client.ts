/**
 * Searches and reads against a FHIR R4 server (docs/upstream-fhir.md#search-and-paging): every search
 * carries `_count`, `next` links are followed up to FHIR_MAX_PAGES pages (a search that would need
 * one more fails, never a silently cut answer), and only to the base URL's own scheme, host and
 * port. `Bundle.total` is not relied on. Matches must be of the type searched; include entries are
 * kept beside them for the mapping to look up.
 */
import { EhrError } from '../../../domain/ehr-error.js';
import { SUBSETTED } from '../../../domain/fhir/subsetted.js';
import { fhirFault } from '../fault.js';
import type { EntryMode } from '../resource-index.js';
import { checked } from '../schemas/index.js';
import { BundleSchema, type BundleEntry } from '../schemas/envelopes.js';
import { outcomeSummary, resourceOf } from './answer.js';
import { FHIR_JSON, type FhirAnswer, type FhirExchange, type FhirRequestInit } from './fhir-exchange.js';
import { searchUrl, type SearchParams } from './search-url.js';

export interface FhirClientOptions {
  /** EHR_BASE_URL: the FHIR base, e.g. `https://fhir.region.example.se/fhir/R4`. */
  baseUrl: string;
  exchange: FhirExchange;
  /** FHIR_PAGE_SIZE: `_count` of every search that names no other. */
  pageSize: number;
  /** FHIR_MAX_PAGES: pages per search, the first included. */
  maxPages: number;
  /** Told the status and the issues' severity and code of an answer that was not a success. */
  onRefusal?: (status: number, issues: string | undefined) => void;
  /** How each answer read with `get` is held while it is asked for and parsed; at once unless set (adapter/page-memory.ts). */
  hold?: PageHold;
}

/** Asks for an answer with `fetch` and reads it with `parse`, when and as the memory its bytes take allows. */
export type PageHold = <T>(fetch: () => Promise<FhirAnswer>, parse: (answer: FhirAnswer) => Promise<T>) => Promise<T>;

const atOnce: PageHold = async (fetch, parse) => parse(await fetch());

export interface RawResource {
  resourceType: string;
  id?: string;
}

export interface HeldEntry {
  resource: RawResource;
  fullUrl?: string;
  /** A match of the search, or an include (`_include`, `_revinclude`). */
  mode: EntryMode;
}

export interface SearchResult {
  matches: RawResource[];
  /** Every entry of every page, matches and includes, each as it came (a repeated one too). */
  entries: HeldEntry[];
  /** A page was tagged `SUBSETTED`: the server withheld some of what matched (its release rules). */
  subsetted?: boolean;
}

/** Whether a Bundle's `meta.tag` holds SUBSETTED; read leniently, since a tag says nothing a read depends on otherwise. */
const isSubsetted = (bundle: unknown): boolean => {
  const tags = (bundle as { meta?: { tag?: unknown } } | null)?.meta?.tag;
  return Array.isArray(tags) && tags.some((t: { system?: unknown; code?: unknown } | null) => t?.system === SUBSETTED.system && t.code === SUBSETTED.code);
};

const LOGICAL_ID = /^[A-Za-z0-9.-]{1,64}$/;

/**
 * Whether `id` may stand as the `{id}` of `<Type>/{id}`: FHIR's id syntax, and never an id of dots
 * only, which a URL parser or a proxy resolves as a dot-segment (`Appointment/..` is the base itself,
 * `Appointment/.` a search of every appointment): threat 28 of docs/threat-model.md#the-upstream-ehr-api10.
 */
export const isPathId = (id: string): boolean => LOGICAL_ID.test(id) && !/^\.+$/.test(id);

const isMatch = (entry: BundleEntry): boolean => entry.search?.mode === undefined || entry.search.mode === 'match';

export class FhirClient {
  readonly baseUrl: string;
  private readonly origin: string;

  constructor(private readonly options: FhirClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    for (const [name, value] of [['pageSize', options.pageSize], ['maxPages', options.maxPages]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
  }

  /** `<base>/<type>/<id>`, the one URL a caller's id goes into; an id that is no path segment of its own is refused. */
  resourceUrl(type: string, id: string): string {
    if (!isPathId(id)) throw new RangeError('a FHIR logical id (no id of dots only) is needed in a resource URL');
    return `${this.baseUrl}/${type}/${id}`;
  }

  /** The JSON of `url` (absolute), which must be a `resourceType`. */
  get(url: string, resourceType: string, signal?: AbortSignal): Promise<unknown> {
    const init = { method: 'GET' as const, signal };
    return (this.options.hold ?? atOnce)(() => this.request(url, init), (answer) => resourceOf(answer, resourceType, signal));
  }

  /** Every page of a search of `type`; `count` instead of FHIR_PAGE_SIZE where the contract names one. */
  async search(type: string, params: SearchParams, options: { count?: number; signal?: AbortSignal } = {}): Promise<SearchResult> {
    const result: SearchResult = { matches: [], entries: [] };
    let url: string | undefined = searchUrl(this.baseUrl, type, [...params, ['_count', String(options.count ?? this.options.pageSize)]]);
    for (let page = 1; url !== undefined; page++) {
      const json = await this.get(url, 'Bundle', options.signal);
      if (isSubsetted(json)) result.subsetted = true;
      const bundle = checked(BundleSchema, json, 'Bundle');
      for (const entry of bundle.entry ?? []) {
        if (entry.resource === undefined || entry.search?.mode === 'outcome') continue;
        const match = isMatch(entry);
        if (match) {
          if (entry.resource.resourceType !== type) throw fhirFault(`a match of a ${type} search that is no ${type}`);
          result.matches.push(entry.resource);
        }
        result.entries.push({ resource: entry.resource, fullUrl: entry.fullUrl, mode: match ? 'match' : 'include' });
      }
      url = this.nextOf(bundle.link);
      if (url !== undefined && page >= this.options.maxPages) throw fhirFault('a search of more pages than FHIR_MAX_PAGES');
    }
    return result;
  }

  /**
   * The resources of `type` with these ids, in searches of at most FHIR_PAGE_SIZE ids each; `params`
   * after `_id` (the patient, where the server binds the type to one: reference-resolution.ts).
   */
  fetchByIds(type: string, ids: readonly string[], signal?: AbortSignal, params: SearchParams = []): Promise<SearchResult> {
    return this.inChunks(type, ids, (chunk) => [['_id', chunk], ...params], signal);
  }

  /** Searches of `type` by the `values` of `param` (FHIR's OR), at most FHIR_PAGE_SIZE values each, beside `params`. */
  searchByValues(type: string, param: string, values: readonly string[], params: SearchParams, signal?: AbortSignal): Promise<SearchResult> {
    return this.inChunks(type, values, (chunk) => [...params, [param, chunk]], signal);
  }

  /** One search of `type` per FHIR_PAGE_SIZE `values` (joined by `,`, FHIR's OR), their results as one. */
  private async inChunks(type: string, values: readonly string[], paramsOf: (chunk: string) => SearchParams, signal?: AbortSignal): Promise<SearchResult> {
    const result: SearchResult = { matches: [], entries: [] };
    for (let i = 0; i < values.length; i += this.options.pageSize) {
      const part = await this.search(type, paramsOf(values.slice(i, i + this.options.pageSize).join(',')), { signal });
      result.matches.push(...part.matches);
      result.entries.push(...part.entries);
      if (part.subsetted === true) result.subsetted = true;
    }
    return result;
  }

  /** A next link to follow: only to the base URL's scheme, host and port, with or without credentials. */
  private nextOf(links: readonly { relation: string; url: string }[] | undefined): string | undefined {
    const next = links?.find((l) => l.relation === 'next')?.url;
    if (next === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(next, `${this.baseUrl}/`);
    } catch {
      throw fhirFault('an unreadable next link');
    }
    if (url.origin !== this.origin) throw fhirFault('a next link to another origin');
    return url.href;
  }

  /** One request, answered as it came (a write decides on its status); transport faults are EhrErrors. */
  async request(url: string, init: FhirRequestInit): Promise<FhirAnswer> {
    if (init.signal?.aborted) throw new EhrError('timeout', 'FHIR call exceeded its deadline');
    let answer: FhirAnswer;
    try {
      answer = await this.options.exchange(url, { ...init, headers: { accept: FHIR_JSON, ...init.headers } });
    } catch (err) {
      if (err instanceof EhrError) throw err;
      if (init.signal?.aborted) throw new EhrError('timeout', 'FHIR call exceeded its deadline');
      // The transport's own words may name the URL, and with it an identity number.
      throw new EhrError('bad-response', 'FHIR exchange failed');
    }
    if (answer.status >= 300) this.options.onRefusal?.(answer.status, outcomeSummary(answer));
    return answer;
  }
}

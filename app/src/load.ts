/**
 * Every read of the picked patient's record, all at once: the patient, each read's searches as its
 * folder describes them (`APP_READS`, src/reads/app-view.ts), the summary, then the access log. Each search follows
 * every `next` link (`pageLimit: 0`) and answers the resources of all pages, the included ones with
 * them, and whether any page was marked as leaving something out (the release policy's `SUBSETTED`
 * tag, docs/fhir-api.md); a read of several searches is what they found together. One read failing
 * leaves the others shown.
 */
import type Client from 'fhirclient/lib/Client';
import { APP_READS, type AppRead } from 'virtual:access-log-names';
import { parseKeepingDecimals } from './decimals.js';
import { below, withSlash } from './server-address.js';
import type { Bundle, Patient, Resource } from './fhir-types.js';
import { readsPart, type Settled } from './shared-parts.js';
import { isSubsetted } from './subsetted.js';

export { allRefused, type Settled } from './shared-parts.js';


/** A search's resources, and whether the server left some out of them (`filtered`). */
export interface Found { resources: Resource[]; filtered: boolean }

/** One read's section: the read as the app shows it, and what its searches found. */
export interface ReadPart { read: AppRead; found: Settled<Found> }

export interface PatientRecord {
  patient: Settled<Patient>;
  /** The reads' sections, in their order. */
  reads: ReadPart[];
  summary: Settled<Bundle>;
  accessLog: Settled<Found>;
}

/** Every part of the record, each read's among them. */
export const partsOf = (record: PatientRecord): Settled<unknown>[] =>
  [record.patient, ...record.reads.map((r) => r.found), record.summary, record.accessLog];

/** Adds a page's resources to `found`, and its mark. */
function addPage(found: Found, page: Bundle): void {
  for (const entry of page.entry ?? []) if (entry.resource !== undefined) found.resources.push(entry.resource);
  found.filtered ||= isSubsetted(page);
}

/** The most pages of one search the app reads: a search with more fails, never shown cut as if it were whole. */
export const MAX_PAGES = 100;

/**
 * What fhirclient asks for `url` (its `absolute`, lib.js, 2.6.3): the text as written when it begins
 * with `http` or `urn`, else joined to the server's address. The app's own paging asks the same.
 */
const askedFor = (client: Client, url: string): string =>
  (/^(?:http|urn)/.test(url) ? url : `${withSlash(client.state.serverUrl)}${url.replace(/^\/+/, '')}`);

/**
 * What is asked for `url` (relative to the FHIR server's address, or absolute), with the token: only
 * the FHIR server the app signed in to, else refused, never asked. Absolute as written (`http:host/…`
 * is read against the page's own address by a browser, and as a host by Node), and still below the
 * server's address once read (`..`, `%2e%2e`).
 */
function onServer(client: Client, url: string): string {
  const asked = askedFor(client, url);
  const base = below(client.state.serverUrl);
  if (!/^https?:\/\//.test(asked) || !new URL(asked).href.startsWith(base)) {
    throw new Error(`a link leads away from the FHIR server: ${URL.canParse(asked) ? new URL(asked).origin : 'not an address'}`);
  }
  return asked;
}

/**
 * The `next` link of the `pages`-th page of a search, checked before anyone follows it: on the FHIR
 * server, and the search not longer than MAX_PAGES pages. Found as fhirclient finds the one it
 * follows: in `link || []`, the first whose relation `==` 'next' (so `["next"]` is one), its url any truthy value.
 */
function nextOf(client: Client, page: Bundle, pages: number): string | undefined {
  const next: unknown = (page.link || []).find((l) => String(l.relation) === 'next')?.url;
  if (!next) return undefined;
  if (pages >= MAX_PAGES) throw new Error(`a search has more than ${MAX_PAGES} pages: the app shows none of it rather than a part`);
  return onServer(client, String(next));
}

/** A Bundle the FHIR server answers at `url` (relative to its base, or absolute), each decimal's digits kept (decimals.ts). */
async function readKeepingDecimals(client: Client, url: string): Promise<Bundle> {
  const asked = onServer(client, url);
  // As fhirclient's own requests do: an access token past its lifetime (a page reloaded later) is renewed first.
  await client.refreshIfNeeded();
  const response = await fetch(asked, { headers: { accept: 'application/fhir+json', authorization: client.getAuthorizationHeader() ?? '' } });
  if (!response.ok) throw Object.assign(new Error(`${response.status} ${response.statusText}`), { status: response.status });
  return parseKeepingDecimals(await response.text()) as Bundle;
}

/** Every match of a search, following its `next` links as fhirclient does, each decimal's digits kept. */
export async function searchKeepingDecimals(client: Client, query: string): Promise<Found> {
  const found: Found = { resources: [], filtered: false };
  let url: string | undefined = query;
  for (let pages = 1; url !== undefined; pages += 1) {
    const bundle = await readKeepingDecimals(client, url);
    addPage(found, bundle);
    url = nextOf(client, bundle, pages);
  }
  return found;
}

/**
 * Every match of a search through fhirclient, page by page (`onPage` sees each Bundle whole, its mark
 * with it). fhirclient follows every `next` link with the token (`pageLimit: 0`), wherever it leads
 * and for as long as there is one: each is checked here first, and a refusal thrown from `onPage`
 * stops it before it asks.
 */
async function search(client: Client, query: string): Promise<Found> {
  const found: Found = { resources: [], filtered: false };
  let pages = 0;
  await client.request<Bundle>(query, {
    pageLimit: 0,
    onPage: (page) => {
      addPage(found, page as Bundle);
      nextOf(client, page as Bundle, ++pages);
    },
  });
  return found;
}

/**
 * A section's searches as one answer: every resource they found, `filtered` if any page of any was
 * marked. Each is sent, whatever another's fate; the first in the read's order that failed fails the
 * section, so the status it shows does not depend on which answer came back first.
 */
async function searchAll(queries: readonly string[], searchOne: (query: string) => Promise<Found>): Promise<Found> {
  const found: Found = { resources: [], filtered: false };
  for (const s of await Promise.allSettled(queries.map(searchOne))) {
    if (s.status === 'rejected') throw s.reason;
    found.resources.push(...s.value.resources);
    found.filtered ||= s.value.filtered;
  }
  return found;
}

async function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    return { ok: false, ...(typeof status === 'number' ? { status } : {}), message: err instanceof Error ? err.message : String(err) };
  }
}

const NOT_SHARED = { ok: false, message: 'not shared', notShared: true } as const;

/**
 * Every read of the record; with `shared` (what a proxy was given), only those parts (readsPart).
 * `reads` are the sections the app shows, the reads' folders' (APP_READS).
 */
export async function loadRecord(client: Client, patientId: string, shared?: readonly string[], reads: readonly AppRead[] = APP_READS): Promise<PatientRecord> {
  const id = encodeURIComponent(patientId);
  const only = <T>(operation: string, read: () => Promise<T>): Promise<Settled<T>> =>
    (readsPart(shared, operation) ? settle(read()) : Promise.resolve(NOT_SHARED));
  const searched = (operation: string, query: string) => only(operation, () => search(client, query));
  // A read whose values are shown keeps their digits as written (decimals.ts): it is read without fhirclient's parse.
  const searchOf = (read: AppRead) => {
    const queries = read.searches.map((s) => s.replace(/\{id\}/g, () => id));
    const searchOne = (query: string) => (read.keepsDigits ? searchKeepingDecimals(client, query) : search(client, query));
    return only(read.read, () => searchAll(queries, searchOne));
  };
  const [patient, parts, summary] = await Promise.all([
    only('getPatient', () => client.request<Patient>(`Patient/${id}`)),
    Promise.all(reads.map(async (read): Promise<ReadPart> => ({ read, found: await searchOf(read) }))),
    only('summary', () => readKeepingDecimals(client, `Patient/${id}/$summary`)),
  ]);
  // Read last, so the log already names the reads just made: the service audits each before it answers.
  const accessLog = await searched('accessLog', `AuditEvent?patient=Patient/${id}`);
  return { patient, reads: parts, summary, accessLog };
}

/**
 * Every read of the picked patient's record, through fhirclient, all at once. Each search follows
 * every `next` link (`pageLimit: 0`) and answers the resources of all pages, the included ones with
 * them, and whether any page was marked as leaving something out (the release policy's `SUBSETTED`
 * tag, docs/fhir-api.md); one read failing leaves the others shown.
 */
import type Client from 'fhirclient/lib/Client';
import { parseKeepingDecimals } from './decimals.js';
import type { Bundle, Patient, Resource } from './fhir-types.js';
import { readsPart, type Settled } from './shared-parts.js';
import { isSubsetted } from './subsetted.js';

export { allRefused, type Settled } from './shared-parts.js';


/** A search's resources, and whether the server left some out of them (`filtered`). */
export interface Found { resources: Resource[]; filtered: boolean }

export interface PatientRecord {
  patient: Settled<Patient>;
  appointments: Settled<Found>;
  journal: Settled<Found>;
  medications: Settled<Found>;
  diagnoses: Settled<Found>;
  labs: Settled<Found>;
  summary: Settled<Bundle>;
  accessLog: Settled<Found>;
}

/** Adds a page's resources to `found`, and its mark. */
function addPage(found: Found, page: Bundle): void {
  for (const entry of page.entry ?? []) if (entry.resource !== undefined) found.resources.push(entry.resource);
  found.filtered ||= isSubsetted(page);
}

const MAX_PAGES = 100;

/** A Bundle the FHIR server answers at `url` (relative to its base, or absolute), each decimal's digits kept (decimals.ts). */
async function readKeepingDecimals(client: Client, url: string): Promise<Bundle> {
  const base = `${client.state.serverUrl.replace(/\/$/, '')}/`;
  const absolute = new URL(url, base).href;
  // The token goes with the request: never to a link that leads away from the FHIR server.
  if (!absolute.startsWith(base)) throw new Error(`a link leads away from the FHIR server: ${new URL(absolute).origin}`);
  const response = await fetch(absolute, { headers: { accept: 'application/fhir+json', authorization: client.getAuthorizationHeader() ?? '' } });
  if (!response.ok) throw Object.assign(new Error(`${response.status} ${response.statusText}`), { status: response.status });
  return parseKeepingDecimals(await response.text()) as Bundle;
}

/** Every match of a search, following `next` links as fhirclient does, each decimal's digits kept. */
export async function searchKeepingDecimals(client: Client, query: string): Promise<Found> {
  const found: Found = { resources: [], filtered: false };
  let url: string | undefined = query;
  for (let page = 0; url !== undefined && page < MAX_PAGES; page += 1) {
    const bundle = await readKeepingDecimals(client, url);
    addPage(found, bundle);
    url = bundle.link?.find((l) => l.relation === 'next')?.url;
  }
  return found;
}

/** Every match of a search through fhirclient, page by page (`onPage` sees each Bundle whole, its mark with it). */
async function search(client: Client, query: string): Promise<Found> {
  const found: Found = { resources: [], filtered: false };
  await client.request<Bundle>(query, { pageLimit: 0, onPage: (page) => { addPage(found, page as Bundle); } });
  return found;
}

const LABORATORY = 'http://terminology.hl7.org/CodeSystem/observation-category|laboratory';

async function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    return { ok: false, ...(typeof status === 'number' ? { status } : {}), message: err instanceof Error ? err.message : String(err) };
  }
}

const NOT_SHARED = { ok: false, message: 'not shared', notShared: true } as const;

/** Every read of the record; with `shared` (what a proxy was given), only those parts (readsPart). */
export async function loadRecord(client: Client, patientId: string, shared?: readonly string[]): Promise<PatientRecord> {
  const id = encodeURIComponent(patientId);
  const only = <T>(operation: string, read: () => Promise<T>): Promise<Settled<T>> =>
    (readsPart(shared, operation) ? settle(read()) : Promise.resolve(NOT_SHARED));
  const searched = (operation: string, query: string) => only(operation, () => search(client, query));
  const [patient, appointments, journal, medications, diagnoses, labs, summary] = await Promise.all([
    only('getPatient', () => client.request<Patient>(`Patient/${id}`)),
    searched('getAppointments', `Appointment?patient=${id}&_include=Appointment:practitioner&_include=Appointment:location`),
    // A note's values are shown, so their digits are kept as written (decimals.ts), as the lab results' are.
    only('getJournalNotes', () => searchKeepingDecimals(client, `Composition?patient=${id}&_include=Composition:entry&_include=Composition:author&_include:iterate=PractitionerRole:practitioner`)),
    searched('getMedications', `MedicationRequest?patient=${id}&_include=MedicationRequest:medication`),
    searched('getDiagnoses', `Condition?patient=${id}`),
    only('getLabResults', () => searchKeepingDecimals(client, `Observation?patient=${id}&category=${encodeURIComponent(LABORATORY)}`)),
    only('summary', () => readKeepingDecimals(client, `Patient/${id}/$summary`)),
  ]);
  // Read last, so the log already names the reads just made: the service audits each before it answers.
  const accessLog = await searched('accessLog', `AuditEvent?patient=Patient/${id}`);
  return { patient, appointments, journal, medications, diagnoses, labs, summary, accessLog };
}

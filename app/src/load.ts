/**
 * Every read of the picked patient's record, through fhirclient, all at once. Each search follows
 * every `next` link (`pageLimit: 0`) and answers the resources of all pages (`flat: true`), the
 * included ones with them; one read failing leaves the others shown.
 */
import type Client from 'fhirclient/lib/Client';
import { parseKeepingDecimals } from './decimals.js';
import type { Bundle, Patient, Resource } from './fhir-types.js';

export type Settled<T> = { ok: true; value: T } | { ok: false; status?: number; message: string };

export interface PatientRecord {
  patient: Settled<Patient>;
  appointments: Settled<Resource[]>;
  journal: Settled<Resource[]>;
  medications: Settled<Resource[]>;
  diagnoses: Settled<Resource[]>;
  labs: Settled<Resource[]>;
  summary: Settled<Bundle>;
  accessLog: Settled<Resource[]>;
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
export async function searchKeepingDecimals(client: Client, query: string): Promise<Resource[]> {
  const out: Resource[] = [];
  let url: string | undefined = query;
  for (let page = 0; url !== undefined && page < MAX_PAGES; page += 1) {
    const bundle = await readKeepingDecimals(client, url);
    for (const entry of bundle.entry ?? []) if (entry.resource !== undefined) out.push(entry.resource);
    url = bundle.link?.find((l) => l.relation === 'next')?.url;
  }
  return out;
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

export async function loadRecord(client: Client, patientId: string): Promise<PatientRecord> {
  const id = encodeURIComponent(patientId);
  const search = (query: string) => settle(client.request<Resource[]>(query, { pageLimit: 0, flat: true }));
  const [patient, appointments, journal, medications, diagnoses, labs, summary] = await Promise.all([
    settle(client.request<Patient>(`Patient/${id}`)),
    search(`Appointment?patient=${id}&_include=Appointment:practitioner&_include=Appointment:location`),
    search(`Composition?patient=${id}&_include=Composition:entry&_include=Composition:author&_include:iterate=PractitionerRole:practitioner`),
    search(`MedicationRequest?patient=${id}&_include=MedicationRequest:medication`),
    search(`Condition?patient=${id}`),
    settle(searchKeepingDecimals(client, `Observation?patient=${id}&category=${encodeURIComponent(LABORATORY)}`)),
    settle(readKeepingDecimals(client, `Patient/${id}/$summary`)),
  ]);
  // Read last, so the log already names the reads just made: the service audits each before it answers.
  const accessLog = await search(`AuditEvent?patient=Patient/${id}`);
  return { patient, appointments, journal, medications, diagnoses, labs, summary, accessLog };
}

/**
 * The kit's own look at the FHIR answers behind each read (docs/upstream-fhir.md#the-conformance-kit):
 * every entry of every Bundle the server answered while the read ran, each on its own, whatever the
 * adapter made of them. An entry that names a patient names the test patient's Patient on this
 * server (relative, or absolute under EHR_BASE_URL); a Patient entry is the test patient; two
 * entries for one resource (one `Type/id` or one `fullUrl`) are the same resource as written. So the
 * kit never certifies an answer as the test patient's only because the mapped records show no other
 * number: another patient's diagnosis under the id of one of the test patient's shows none. The
 * identity lookup's own answer (it may hold records merged into the patient's) has its own row.
 */
import type { FhirAnswer, FhirExchange } from '../adapters/ehr-fhir/client/fhir-exchange.js';
import { patientReferences } from '../adapters/ehr-fhir/client/patient-binding.js';
import { serverKey } from '../adapters/ehr-fhir/resource-index.js';
import { isResourceType } from '../adapters/ehr-fhir/schemas/index.js';

export interface TappedEntry {
  fullUrl?: unknown;
  resource?: { resourceType?: unknown; id?: unknown; [member: string]: unknown };
}

const isLookup = (url: URL): boolean => url.pathname.endsWith('/Patient') && url.searchParams.has('identifier');

function bundleEntries(url: string, answer: FhirAnswer): TappedEntry[] {
  if (answer.status !== 200 || answer.body === undefined || isLookup(new URL(url))) return [];
  try {
    const json = JSON.parse(answer.body.toString()) as { resourceType?: unknown; entry?: unknown };
    return json.resourceType === 'Bundle' && Array.isArray(json.entry) ? (json.entry as TappedEntry[]) : [];
  } catch {
    // Not JSON: the read itself fails on it, and says so.
    return [];
  }
}

/** An exchange that keeps the entries of every search answer it carries, until they are taken. */
export class AnswerTap {
  private held: TappedEntry[] = [];

  constructor(private readonly inner: FhirExchange) {}

  readonly exchange: FhirExchange = async (url, init) => {
    const answer = await this.inner(url, init);
    this.held.push(...bundleEntries(url, answer));
    return answer;
  };

  /** The entries carried since the last time, forgotten here. */
  take(): TappedEntry[] {
    const taken = this.held;
    this.held = [];
    return taken;
  }
}

const MAX_FAULTS = 3;

/** What is wrong with `entries` for the test patient's Patient `patientId`: fixed words and a resource type, never an id or a value. */
export function entryFaults(entries: readonly TappedEntry[], patientId: string, baseUrl: string): string[] {
  const faults = new Set<string>();
  const seen = new Map<string, string>();
  for (const { fullUrl, resource } of entries) {
    if (resource === undefined || typeof resource.resourceType !== 'string') continue;
    // Named in the kit's table only when it is a type the service reads: the server's word may hold anything.
    const type = isResourceType(resource.resourceType) ? resource.resourceType : 'resource';
    const written = JSON.stringify(resource);
    const names = [typeof resource.id === 'string' ? `${type}/${resource.id}` : undefined, typeof fullUrl === 'string' ? fullUrl : undefined];
    for (const name of names) {
      if (name === undefined) continue;
      if (seen.has(name) && seen.get(name) !== written) faults.add(`two different entries for one ${type}`);
      seen.set(name, written);
    }
    if (resource.resourceType === 'Patient' && resource.id !== patientId) faults.add('a Patient other than the test patient');
    const references = patientReferences(resource as { resourceType: string }) ?? [];
    if (references.some((ref) => serverKey(baseUrl, ref) !== `Patient/${patientId}`)) faults.add(`a ${type} that names another patient`);
  }
  return [...faults].slice(0, MAX_FAULTS);
}

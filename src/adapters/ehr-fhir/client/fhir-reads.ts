/**
 * The reads of patient records over FHIR, as the EHR port names them (EhrRecords.reads), and the
 * delegation registry: each port call finds the patient (or takes the one its request found), sends
 * the read's searches, fetches what was not included, refuses an answer holding anything of another
 * patient, maps, and selects the range exactly. One deadline (EHR_TIMEOUT_MS) covers the whole call
 * when it is given here; the shared transport puts its own on each request.
 */
import type { Relationship } from '../../../domain/access/relationship.js';
import { READ_NAMES, selectInRange, type ReadName } from '../../../domain/operations/table.js';
import { markFilteredUpstream } from '../../../domain/release/filtered-upstream.js';
import type { EhrReads, RecordReader } from '../../../ports/ehr-records.port.js';
import { fhirFault } from '../fault.js';
import type { MapContext } from '../map-context.js';
import { patientFacts } from '../patient-facts.js';
import { mapRelationships, type DelegationTag } from '../relationships.js';
import { ResourceIndex } from '../resource-index.js';
import { checkedResource, isResourceType, type MappedResource } from '../schemas/index.js';
import type { FhirClient } from './fhir-client.js';
import { REGISTRY_FOLLOWS } from './follow-rules.js';
import { assertPatientBound } from './patient-binding.js';
import { lookupOf, patientLookupParams, type PatientLookup } from './patient-lookup.js';
import type { ReadPlan, ReversePlan } from './read-plan.js';
import { READ_PLANS } from './read-plans.js';
import { noRecords } from '../../../reads/read-sources.js';
import { resolveMissing } from './reference-resolution.js';

export interface FhirReadsOptions {
  client: FhirClient;
  /** EHR_TIMEZONE, FHIR_ID_ROOT, FHIR_VIDEO_ACTION_ID_SYSTEM. */
  zone: string;
  idRoot: string;
  videoActionIdSystem?: string;
  now: () => number;
  /** What the mapping notes, for the adapter's log (never patient data). */
  note: (reason: string) => void;
  /** EHR_TIMEOUT_MS for one port call as a whole. */
  callTimeoutMs?: number;
  /** How each call finds the patient: its own search (the default), or the one its request made (`lookupOnce`). */
  lookup?: PatientLookup;
  /** The types the server's CapabilityStatement declares `patient` on, named in the `_id` fetches (reference-resolution.ts); none when absent. */
  patientBoundTypes?: () => Promise<ReadonlySet<string>>;
}

const contextOf = (o: FhirReadsOptions): MapContext => ({
  zone: o.zone, idRoot: o.idRoot, videoActionIdSystem: o.videoActionIdSystem, nowMs: o.now(), note: o.note,
});

const deadline = (o: FhirReadsOptions): AbortSignal | undefined => (o.callTimeoutMs === undefined ? undefined : AbortSignal.timeout(o.callTimeoutMs));

const checkedMatch = (raw: { resourceType: string }): MappedResource => {
  // The server's word for the type is not repeated: it may hold anything (threat 50 of docs/threat-model.md).
  if (!isResourceType(raw.resourceType)) throw fhirFault('a match of a type this service does not read');
  return checkedResource(raw.resourceType, raw);
};

/** What names the matches, searched for when the server sent none of it with the matches; whether the server withheld any of it. */
async function readReverse(
  client: FhirClient, reverse: ReversePlan, matches: readonly MappedResource[], index: ResourceIndex, patientId: string, signal?: AbortSignal,
): Promise<boolean> {
  if (matches.length === 0 || index.entries().some((r) => r.resourceType === reverse.type)) return false;
  const named = matches.map((m) => `${m.resourceType}/${m.id}`);
  const { entries, subsetted } = await client.searchByValues(reverse.type, reverse.param, named, [['patient', `Patient/${patientId}`]], signal);
  for (const entry of entries) index.add(entry.resource, entry.fullUrl, entry.mode);
  return subsetted === true;
}

function reader<R extends ReadName>(name: R, plan: ReadPlan<R>, o: FhirReadsOptions): RecordReader<R> {
  const lookup = lookupOf(o);
  return async (number, range) => {
    const signal = deadline(o);
    const patient = await lookup(number, signal);
    const index = new ResourceIndex(o.client.baseUrl);
    index.add(patient);
    const matches: MappedResource[] = [];
    // The server withheld some of the read's records (a SUBSETTED Bundle): the answer says so (domain/release/filtered-upstream.ts).
    let subsetted = false;
    for (const search of plan.searches) {
      const result = await o.client.search(search.type, search.params(patient.id, range, o.zone), { signal });
      for (const entry of result.entries) index.add(entry.resource, entry.fullUrl, entry.mode);
      matches.push(...result.matches.map(checkedMatch));
      subsetted ||= result.subsetted === true;
    }
    if (plan.reverse !== undefined) subsetted = await readReverse(o.client, plan.reverse, matches, index, patient.id, signal) || subsetted;
    const scope = o.patientBoundTypes === undefined ? undefined : { patientId: patient.id, types: o.patientBoundTypes };
    await resolveMissing(o.client, index, [patient, ...matches], plan.follows, signal, scope);
    assertPatientBound(matches, index, patient.id);
    const items = plan.map({ matches, index, patient: patientFacts(patient, number), withheld: subsetted }, contextOf(o));
    const answer = selectInRange(name, items, range, o.zone);
    return subsetted ? markFilteredUpstream(answer) : answer;
  };
}

/** Every read of patient records the operation table names, over FHIR. */
export function fhirReads(options: FhirReadsOptions): EhrReads {
  return Object.fromEntries(READ_NAMES.map((name) => {
    const plan = READ_PLANS[name] as ReadPlan<typeof name> | undefined;
    return [name, plan === undefined ? noRecords : reader(name, plan, options)];
  })) as EhrReads;
}

/**
 * The delegation registry from tagged RelatedPersons: one search by the actor's number with the
 * patients included (FHIR_DELEGATION_TAG). Read on every request, never cached.
 */
export function fhirRelationships(options: FhirReadsOptions & { tag: DelegationTag; count?: number }) {
  return async (actor: string): Promise<Relationship[]> => {
    const signal = deadline(options);
    const { matches, entries } = await options.client.search('RelatedPerson', [
      ...patientLookupParams(actor),
      ['_tag', `${options.tag.system}|${options.tag.code}`],
      ['_include', 'RelatedPerson:patient'],
    ], { count: options.count ?? 100, signal });
    const index = new ResourceIndex(options.client.baseUrl);
    for (const entry of entries) index.add(entry.resource, entry.fullUrl, entry.mode);
    const people = matches.map((m) => checkedResource('RelatedPerson', m));
    await resolveMissing(options.client, index, people, REGISTRY_FOLLOWS, signal);
    return mapRelationships(people, index, actor, options.tag, contextOf(options));
  };
}

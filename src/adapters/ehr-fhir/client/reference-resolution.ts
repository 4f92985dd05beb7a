/**
 * Includes resolved (docs/upstream-fhir.md#search-and-paging): the mapping of each read follows some
 * references (a note's custodian and its head care provider, a booking's unit). Where the server did
 * not include what they name (it ignores `_include`, `:iterate`, or R4 has no include for it), the
 * missing ones are read with one `GET <Type>?_id=a,b,...` per type and round, within the same call.
 * A reference that still cannot be resolved leaves out what it would fill; it is not an error. What
 * is fetched is added to the index as an include: a fetched resource that is another than one held
 * under its id makes the answer malformed. Another server's resources are never asked of this one.
 * A fetch names the read's patient too (`&patient=Patient/<id>`) for each type the server's
 * CapabilityStatement declares `patient` on: a server that answers a client only within one
 * patient's record (this service's own FHIR API, docs/fhir-api.md#one-dialect-in-and-out) can
 * answer it, and any other binds the answer to the patient on its side too. A type it does not
 * declare `patient` on is asked by `_id` alone, as a server may answer nothing for a parameter it
 * does not know.
 */
import type { ResourceIndex } from '../resource-index.js';
import type { Reference } from '../../../domain/fhir/resources/datatypes.js';
import { isResourceType, type MappedResource, type ResourceOf, type ResourceType } from '../schemas/index.js';
import type { FhirClient } from './fhir-client.js';

/** The references a read's mapping follows, per resource type. */
export type FollowRules = { readonly [T in ResourceType]?: (resource: ResourceOf<T>) => readonly (Reference | undefined)[] };

/** Chains are short (a role's organisation's head care provider); rounds beyond these find nothing new. */
const MAX_ROUNDS = 4;

/** The patient a read is about, for the types whose searches the server takes `patient` on. */
export interface PatientScope {
  /** The logical id of the Patient found. */
  patientId: string;
  /** The types the CapabilityStatement declares `patient` on; asked only when something is fetched. */
  types: () => Promise<ReadonlySet<string>>;
}

/** `Type/id` of each reference the rules follow from `starts` that names nothing at hand and was not asked for yet. */
export function missingReferences(
  index: ResourceIndex, starts: readonly MappedResource[], rules: FollowRules, asked: ReadonlySet<string>,
): Set<string> {
  const missing = new Set<string>();
  const seen = new Set<MappedResource>(starts);
  const queue = [...starts];
  for (let r = queue.shift(); r !== undefined; r = queue.shift()) {
    const follow = rules[r.resourceType] as ((resource: MappedResource) => readonly (Reference | undefined)[]) | undefined;
    for (const ref of follow?.(r) ?? []) {
      const key = index.keyOf(ref?.reference);
      const type = key?.split('/')[0];
      if (key === undefined || type === undefined || !isResourceType(type)) continue;
      const target = index.get(ref, type);
      if (target !== undefined) {
        if (!seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      } else if (!index.has(key) && !asked.has(key)) {
        missing.add(key);
      }
    }
  }
  return missing;
}

/** Fetches by `_id` what the rules follow and the server did not include, until nothing new turns up. */
export async function resolveMissing(
  client: FhirClient, index: ResourceIndex, starts: readonly MappedResource[], rules: FollowRules, signal?: AbortSignal, scope?: PatientScope,
): Promise<void> {
  const asked = new Set<string>();
  let bound: ReadonlySet<string> | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const missing = missingReferences(index, starts, rules, asked);
    if (missing.size === 0) return;
    const byType = new Map<string, string[]>();
    for (const key of missing) {
      asked.add(key);
      const [type, id] = key.split('/') as [string, string];
      byType.set(type, [...(byType.get(type) ?? []), id]);
    }
    bound ??= scope === undefined ? new Set<string>() : await scope.types();
    for (const [type, ids] of byType) {
      const patient: [string, string][] = scope !== undefined && bound.has(type) ? [['patient', `Patient/${scope.patientId}`]] : [];
      for (const entry of (await client.fetchByIds(type, ids, signal, patient)).entries) index.add(entry.resource, entry.fullUrl);
    }
  }
}

/**
 * One patient's resources of several reads gathered, each `Type/id` once, the first read that wrote it
 * naming it (patient-records.ts), remembered for the same reads' same kept resources (issue 56 item 4).
 * A read's kept records are written once (written-forms.ts) and so come back as the same frozen array
 * of frozen resources on every request; gathering them again made a `Type/id` text and a map entry per
 * resource per request. The gathered array is frozen and the same on every request, so what a search
 * selects of it can be remembered by it in turn (remembered-matches.ts).
 *
 * What it answers depends on the parts alone (reads and arrays compared by identity, in order): nothing
 * of the caller. Parts holding a resource that is not kept (records mapped anew, masked) are gathered
 * anew every time, as before.
 */
import type { ReadName } from '../../domain/operations/table.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { isKept } from './searchset-bytes.js';

export interface GatheredPart {
  read: ReadName;
  resources: readonly FhirResource[];
}

export interface Gathered {
  resources: readonly FhirResource[];
  /** The read each resource (`Type/id`) came from: the first part that holds it. */
  readOf: ReadonlyMap<string, ReadName>;
}

interface Remembered extends Gathered {
  parts: readonly GatheredPart[];
}

/** Entries kept per first array: a patient's few combinations of reads (a search alone, with includes, a summary). */
const KEPT_PER_ARRAY = 8;

function gather(parts: readonly GatheredPart[]): Gathered {
  const readOf = new Map<string, ReadName>();
  const resources: FhirResource[] = [];
  for (const { read, resources: written } of parts) {
    for (const r of written) {
      const key = `${r.resourceType}/${r.id}`;
      if (readOf.has(key)) continue;
      readOf.set(key, read);
      resources.push(r);
    }
  }
  return { resources: Object.freeze(resources), readOf };
}

const sameParts = (a: readonly GatheredPart[], b: readonly GatheredPart[]): boolean =>
  a.length === b.length && a.every((p, i) => p.read === b[i]?.read && p.resources === b[i]?.resources);

export class GatheredResources {
  // By the first part's array: an object every request over the same kept records holds.
  private readonly byFirst = new WeakMap<readonly FhirResource[], Remembered[]>();

  /** The parts gathered; the same answer as before for the same kept parts. */
  of(parts: readonly GatheredPart[]): Gathered {
    // An empty part adds nothing: left out, so a read with no records (a new array each time) does not stop the lookup.
    const held = parts.filter((p) => p.resources.length > 0);
    const first = held[0]?.resources;
    if (first === undefined || !held.every((p) => Object.isFrozen(p.resources) && p.resources.every(isKept))) return gather(held);
    const known = this.byFirst.get(first) ?? [];
    const hit = known.find((k) => sameParts(k.parts, held));
    if (hit !== undefined) return hit;
    const made: Remembered = { ...gather(held), parts: held };
    this.byFirst.set(first, [made, ...known].slice(0, KEPT_PER_ARRAY));
    return made;
  }
}

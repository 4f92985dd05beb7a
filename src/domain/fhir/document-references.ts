/**
 * What a FHIR document holds besides its entries (docs/fhir-api.md#patient-summary): every resource an
 * entry references, and what those reference in turn, taken from the resources the request read, so
 * that every reference resolves within the document. A reference to what the document may not hold (a
 * type the token does not grant, a record withheld or not read) is taken out of the copy the document
 * holds, never left dangling; whatever else that Reference says (its display) stays.
 */
import type { FhirResource } from '../../reads/as-fhir.js';
import { keyOf } from './resource-search.js';

/** A relative reference `Type/id`: the only kind the API's forms write (besides `#contained`). */
const RELATIVE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/;
const DROP = Symbol('drop');


function referencesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) referencesIn(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'reference' && typeof v === 'string') out.push(v);
      else referencesIn(v, out);
    }
  }
  return out;
}

/** `value` without the references `keep` refuses: a Reference with nothing else is dropped, and an array or object left empty. */
function pruned(value: unknown, keep: (reference: string) => boolean): unknown {
  if (Array.isArray(value)) {
    const out = value.map((v) => pruned(v, keep)).filter((v) => v !== DROP);
    return out.length === 0 && value.length > 0 ? DROP : out;
  }
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = k === 'reference' && typeof v === 'string' && RELATIVE.test(v) && !keep(v) ? DROP : pruned(v, keep);
    if (kept !== DROP) out[k] = kept;
  }
  return Object.keys(out).length === 0 && Object.keys(value).length > 0 ? DROP : out;
}

/**
 * `entries` and every resource of `read` they reach by reference that `mayHold` allows, each once, in
 * the order first reached; each resource with a reference that does not resolve among them is a copy
 * without it.
 */
export function withReferenced(entries: readonly FhirResource[], read: readonly FhirResource[], mayHold: (r: FhirResource) => boolean): FhirResource[] {
  const available = new Map(read.map((r) => [keyOf(r), r]));
  const held = new Map(entries.map((r) => [keyOf(r), r]));
  const queue = [...held.values()];
  for (let r = queue.shift(); r !== undefined; r = queue.shift()) {
    for (const reference of referencesIn(r)) {
      const target = available.get(reference);
      if (held.has(reference) || target === undefined || !mayHold(target)) continue;
      held.set(reference, target);
      queue.push(target);
    }
  }
  const resolves = (reference: string): boolean => held.has(reference);
  return [...held.values()].map((r) => (referencesIn(r).every((ref) => !RELATIVE.test(ref) || resolves(ref)) ? r : pruned(r, resolves) as FhirResource));
}

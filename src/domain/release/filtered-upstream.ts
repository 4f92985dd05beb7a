/**
 * An answer from which the EHR itself withheld records (docs/upstream-fhir.md#search-and-paging: a
 * FHIR server's `SUBSETTED` Bundle, as this service's own FHIR API answers one, docs/fhir-api.md#one-dialect-in-and-out).
 * Its records are those the EHR released; the caller is told that something was withheld
 * (Patient-Data-Filtered), as for what this service's own release policy withholds. The mark travels
 * with the answer's array through every wrapper of the EHR port, and never into the answer's JSON.
 */
const FILTERED_UPSTREAM = Symbol('filtered upstream');

/** Marks `items` as an answer the EHR withheld records from; `items` itself, for chaining. */
export function markFilteredUpstream<T extends readonly unknown[]>(items: T): T {
  Object.defineProperty(items, FILTERED_UPSTREAM, { value: true, enumerable: false });
  return items;
}

/** Whether the EHR said it withheld records from this answer. */
export const filteredUpstream = (items: readonly unknown[]): boolean => (items as { [FILTERED_UPSTREAM]?: boolean })[FILTERED_UPSTREAM] === true;

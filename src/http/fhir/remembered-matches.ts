/**
 * What a search selects of one patient's gathered resources, and in which order, remembered
 * (issue 56 item 4), as the COS door remembers its selection of kept records
 * (src/domain/read-policy/remembered-selection.ts). The gathered resources of kept records are the
 * same frozen array on every request (gathered-resources.ts), and matching the query against each
 * resource and sorting by date read every resource's dates again on every request.
 *
 * An entry is looked up by that array and a key naming everything else the selection depends on
 * (the query, the reads whose resources are the type's own, the category restrictions of the
 * caller's grants: `selectionKey`); it is handed out frozen, so no caller can change what the next
 * one gets. An array that is not frozen (resources gathered anew) is selected anew each time.
 */
import type { DateComparison } from '../../domain/fhir/fhir-dates.js';
import type { ReferenceValue, TokenValue } from '../../domain/fhir/resource-search.js';
import type { Grant } from '../../domain/fhir/smart-scopes.js';
import type { FhirResource } from '../../reads/as-fhir.js';

/** Selections kept per array: a patient's usual searches of a type (none, a date range, a category) and a few more. */
const KEPT_PER_ARRAY = 8;

export interface Selection {
  /** The resources that match, in the gathered order. */
  readonly matches: readonly FhirResource[];
  /** `matches` in the API's order (resource-search.ts sortMatches), made once. */
  sorted(sort: (matches: readonly FhirResource[]) => FhirResource[]): readonly FhirResource[];
}

class KeptSelection implements Selection {
  private inOrder: readonly FhirResource[] | undefined;

  constructor(readonly matches: readonly FhirResource[]) {}

  sorted(sort: (matches: readonly FhirResource[]) => FhirResource[]): readonly FhirResource[] {
    this.inOrder ??= Object.freeze(sort(this.matches));
    return this.inOrder;
  }
}

/** Everything besides the resources a selection depends on, as one text. */
export interface SelectionBasis {
  type: string;
  ids?: ReadonlySet<string>;
  dates: readonly DateComparison[];
  tokens: ReadonlyMap<string, readonly (readonly TokenValue[])[]>;
  references: ReadonlyMap<string, readonly (readonly ReferenceValue[])[]>;
  /** The reads whose resources are the type's own. */
  own: readonly string[];
  /** The grants whose category restrictions apply (none: no restriction). */
  typeGrants: readonly Grant[];
  /**
   * A referenced type's: the reads the caller's access reaches, which decide what types it opens (accessOpens),
   * so a proxy's parties are never another caller's of the same records (hostile review helper-100's look).
   */
  reached?: readonly string[];
}

export function selectionKey(basis: SelectionBasis): string {
  return JSON.stringify([
    basis.type, basis.ids === undefined ? null : [...basis.ids], basis.dates.map((d) => [d.prefix, String(d.range.start), String(d.range.end)]),
    [...basis.tokens], [...basis.references], basis.own,
    // grantsRecord reads a grant's category and read alone; a referenced type's selection, each grant's type too.
    basis.typeGrants.map((g) => [g.type, g.category === undefined ? null : [g.category.system ?? null, g.category.code], g.read ?? null]),
    basis.reached ?? null,
  ]);
}

export class RememberedMatches {
  private readonly byResources = new WeakMap<readonly FhirResource[], Map<string, KeptSelection>>();

  /** `select()`'s matches of `resources` for `key`, and their order; remembered when `resources` is frozen. */
  of(resources: readonly FhirResource[], key: string, select: () => FhirResource[]): Selection {
    if (!Object.isFrozen(resources)) return new KeptSelection(select());
    let kept = this.byResources.get(resources);
    const found = kept?.get(key);
    if (found !== undefined) return found;
    const made = new KeptSelection(Object.freeze(select()));
    if (kept === undefined) this.byResources.set(resources, kept = new Map());
    else if (kept.size >= KEPT_PER_ARRAY) kept.delete(kept.keys().next().value as string);
    kept.set(key, made);
    return made;
  }
}

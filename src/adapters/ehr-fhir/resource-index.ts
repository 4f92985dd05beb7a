/**
 * The resources one read has at hand (a search's matches, its includes, and what was fetched by
 * `_id`), looked up by reference: by `fullUrl`, else by `Type/id` (docs/upstream-fhir.md#search-and-paging).
 * A resource is checked against its schema when the mapping first reads it, so an include the
 * mapping never follows is never judged. A reference that cannot be resolved gives nothing: the
 * members it would fill are left out.
 */
import { checkedResource, isResourceType, type ResourceOf, type ResourceType } from './schemas/index.js';
import type { Reference } from './schemas/datatypes.js';

const TYPE_AND_ID = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9.-]{1,64})(?:\/_history\/[A-Za-z0-9.-]{1,64})?$/;

/** `Type/id` of a literal reference (relative, or absolute with that tail); undefined for any other form. */
export function referenceKey(reference: string | undefined): string | undefined {
  if (reference === undefined || reference.startsWith('#')) return undefined;
  const m = TYPE_AND_ID.exec(reference);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The type a reference names, from `Reference.type` or its `Type/id`. */
export const referenceType = (ref: Reference | undefined): string | undefined =>
  ref?.type ?? referenceKey(ref?.reference)?.split('/')[0];

interface Held {
  raw: { resourceType: string; id?: string };
  checked?: unknown;
}

export class ResourceIndex {
  private readonly byKey = new Map<string, Held>();
  private readonly byFullUrl = new Map<string, Held>();

  /** Adds a resource, under its `fullUrl` too when the bundle gave one. The first of a key is kept. */
  add(raw: { resourceType: string; id?: string }, fullUrl?: string): void {
    const held: Held = { raw };
    if (raw.id !== undefined && !this.byKey.has(`${raw.resourceType}/${raw.id}`)) this.byKey.set(`${raw.resourceType}/${raw.id}`, held);
    if (fullUrl !== undefined && !this.byFullUrl.has(fullUrl)) this.byFullUrl.set(fullUrl, held);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Every resource held, unchecked (for the checks that every patient-bound one is the patient's). */
  all(): { resourceType: string; id?: string }[] {
    return [...new Set([...this.byKey.values(), ...this.byFullUrl.values()])].map((h) => h.raw);
  }

  /** Every resource held of `type`, checked (a diagnosis's Procedures, found by what they name). */
  ofType<T extends ResourceType>(type: T): ResourceOf<T>[] {
    return [...new Set(this.byKey.values())].filter((h) => h.raw.resourceType === type).map((h) => {
      h.checked ??= checkedResource(type, h.raw);
      return h.checked as ResourceOf<T>;
    });
  }

  /** The resource `ref` names, when it is held and of one of `types`; checked. */
  get<T extends ResourceType>(ref: Reference | undefined, ...types: T[]): ResourceOf<T> | undefined {
    const reference = ref?.reference;
    if (reference === undefined) return undefined;
    const key = referenceKey(reference);
    const held = this.byFullUrl.get(reference) ?? (key === undefined ? undefined : this.byKey.get(key));
    if (held === undefined) return undefined;
    const type = held.raw.resourceType;
    if (!isResourceType(type) || !(types as string[]).includes(type)) return undefined;
    held.checked ??= checkedResource(type, held.raw);
    return held.checked as ResourceOf<T>;
  }
}

/**
 * A resource contained in `container` that a `#id` reference names, checked; FHIR lets a
 * MedicationRequest hold its Medication so.
 */
export function containedOf<T extends ResourceType>(
  container: { contained?: { resourceType: string }[] }, ref: Reference | undefined, type: T,
): ResourceOf<T> | undefined {
  const reference = ref?.reference;
  if (reference === undefined || !reference.startsWith('#')) return undefined;
  const found = container.contained?.find((r) => r.resourceType === type && (r as { id?: unknown }).id === reference.slice(1));
  return found === undefined ? undefined : checkedResource(type, found);
}

/**
 * The resources one read has at hand (a search's matches, its includes, and what was fetched by
 * `_id`), looked up by reference: by `fullUrl`, else by `Type/id` (docs/upstream-fhir.md#search-and-paging).
 * Every entry given is kept and can be checked on its own (`entries`): a second entry under a
 * `Type/id` or a `fullUrl` already held makes the answer malformed, so the resource a reference
 * finds is never another than the one that was checked. Only an include (or a fetched resource)
 * repeated as it was is the same resource again: a server sends with each page what that page's
 * matches name. A reference resolves only to this server's resources: relative, or absolute under
 * EHR_BASE_URL; another server's `Patient/x` is not this server's. A resource is checked against its
 * schema when the mapping first reads it, so an include the mapping never follows is never judged.
 * A reference that cannot be resolved gives nothing: the members it would fill are left out.
 */
import { fhirFault } from './fault.js';
import { writtenNumber } from './fhir-json.js';
import { checkedResource, isResourceType, type ResourceOf, type ResourceType } from './schemas/index.js';
import type { Reference } from '../../domain/fhir/resources/datatypes.js';

const TYPE_AND_ID = /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9.-]{1,64})(?:\/_history\/[A-Za-z0-9.-]{1,64})?$/;
const LITERAL = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9.-]{1,64})(?:\/_history\/[A-Za-z0-9.-]{1,64})?$/;

/**
 * `Type/id` at the tail of a literal reference, on whichever server (for telling what type a
 * reference names); undefined for any other form. Which resource it names: `ResourceIndex.keyOf`.
 */
export function referenceKey(reference: string | undefined): string | undefined {
  if (reference === undefined || reference.startsWith('#')) return undefined;
  const m = TYPE_AND_ID.exec(reference);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The type a reference names, from `Reference.type` or its `Type/id`. */
export const referenceType = (ref: Reference | undefined): string | undefined =>
  ref?.type ?? referenceKey(ref?.reference)?.split('/')[0];

/**
 * `Type/id` of a reference to a resource of the server at `baseUrl` (EHR_BASE_URL): relative, or
 * absolute under that base; undefined for another server's, a contained `#id`, a URN or anything else.
 */
export function serverKey(baseUrl: string, reference: string | undefined): string | undefined {
  if (reference === undefined) return undefined;
  const base = `${baseUrl.replace(/\/+$/, '')}/`;
  const m = LITERAL.exec(reference.startsWith(base) ? reference.slice(base.length) : reference);
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** Whether an entry is a match of the read's own searches (never repeated) or an include or a fetched resource. */
export type EntryMode = 'match' | 'include';

interface Held {
  raw: { resourceType: string; id?: string };
  mode: EntryMode;
  checked?: unknown;
}

/** The JSON of a resource with each number as it was written (`4.0` is not `4`), to tell a repeat from another resource. */
const written = (raw: object): string =>
  JSON.stringify(raw, function (this: object, key, value: unknown) {
    return typeof value === 'number' ? `#${writtenNumber(this, key) ?? ''}` : value;
  });

const repeats = (held: Held, next: Held): boolean =>
  held.mode === 'include' && next.mode === 'include' && (held.raw === next.raw || written(held.raw) === written(next.raw));

export class ResourceIndex {
  private readonly held: Held[] = [];
  private readonly byKey = new Map<string, Held>();
  private readonly byFullUrl = new Map<string, Held>();

  /** `baseUrl`: EHR_BASE_URL, the server whose resources references resolve to. */
  constructor(private readonly baseUrl: string) {}

  /**
   * Adds one entry, under its `Type/id` and its `fullUrl`. A `fullUrl` that names another `Type/id`
   * than its resource's, or a second entry under a key already held (but an include repeated as it
   * was), makes the answer malformed.
   */
  add(raw: { resourceType: string; id?: string }, fullUrl?: string, mode: EntryMode = 'include'): void {
    const key = raw.id === undefined ? undefined : `${raw.resourceType}/${raw.id}`;
    const named = referenceKey(fullUrl);
    if (named !== undefined && key !== undefined && named !== key) throw fhirFault(`a ${raw.resourceType} whose fullUrl names another resource`);
    const held: Held = { raw, mode };
    const before = [key === undefined ? undefined : this.byKey.get(key), fullUrl === undefined ? undefined : this.byFullUrl.get(fullUrl)];
    if (before.some((h) => h !== undefined && !repeats(h, held))) throw fhirFault(`two entries for one ${raw.resourceType}`);
    this.held.push(held);
    if (key !== undefined && !this.byKey.has(key)) this.byKey.set(key, held);
    if (fullUrl !== undefined && !this.byFullUrl.has(fullUrl)) this.byFullUrl.set(fullUrl, held);
  }

  /** `Type/id` of a reference to a resource of this server; undefined for another server's or any other form. */
  keyOf(reference: string | undefined): string | undefined {
    return serverKey(this.baseUrl, reference);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Every entry given, unchecked and each on its own (for the checks that every patient-bound one is the patient's). */
  entries(): { resourceType: string; id?: string }[] {
    return this.held.map((h) => h.raw);
  }

  /** Every resource held of `type`, once each, checked (a diagnosis's Procedures, found by what they name). */
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
    const key = this.keyOf(reference);
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

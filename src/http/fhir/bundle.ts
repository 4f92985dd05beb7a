/**
 * The Bundles the API answers: the searchset (docs/fhir-api.md#bundles: `total` counted after the
 * release policy, absolute `fullUrl`s and links from PUBLIC_BASE_URL, matches then includes) and the
 * patient summary's document (docs/fhir-api.md#patient-summary), each with the `SUBSETTED` tag when
 * the policy withheld anything.
 */
import { SUBSETTED } from '../../domain/fhir/subsetted.js';
import type { FhirResource } from '../../reads/as-fhir.js';

export interface BundlePage {
  /** Absent where the matches are not counted (the access log, paged by its own cursor). */
  total?: number;
  matches: readonly FhirResource[];
  includes: readonly FhirResource[];
  self: string;
  next?: string;
  subsetted: boolean;
}

/** `fullUrl` of a resource: the API's canonical base, never the address the request came to. */
export const fullUrlOf = (base: string, r: FhirResource): string => `${base}/fhir/${r.resourceType}/${r.id}`;

export function searchset(base: string, page: BundlePage): Record<string, unknown> {
  const entry = (r: FhirResource, mode: 'match' | 'include') => ({ fullUrl: fullUrlOf(base, r), resource: r, search: { mode } });
  const entries = [...page.matches.map((r) => entry(r, 'match')), ...page.includes.map((r) => entry(r, 'include'))];
  return {
    resourceType: 'Bundle',
    ...(page.subsetted ? { meta: { tag: [SUBSETTED] } } : {}),
    type: 'searchset',
    ...(page.total === undefined ? {} : { total: page.total }),
    link: [{ relation: 'self', url: page.self }, ...(page.next === undefined ? [] : [{ relation: 'next', url: page.next }])],
    ...(entries.length === 0 ? {} : { entry: entries }),
  };
}

export interface DocumentContent {
  /** Unique to this document: the request's id, as the access log names the request. */
  id: string;
  /** When it was assembled, an instant. */
  timestamp: string;
  /** The Composition first, then every resource it and they reference. */
  resources: readonly FhirResource[];
  subsetted: boolean;
}

/** A `document` Bundle (FHIR R4 bdl-9, bdl-10, bdl-11: identifier, timestamp, the Composition first). */
export function documentBundle(base: string, content: DocumentContent): Record<string, unknown> {
  return {
    resourceType: 'Bundle',
    ...(content.subsetted ? { meta: { tag: [SUBSETTED] } } : {}),
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${content.id}` },
    type: 'document',
    timestamp: content.timestamp,
    entry: content.resources.map((r) => ({ fullUrl: fullUrlOf(base, r), resource: r })),
  };
}

/** A search link: the API's canonical path with the parameters given, encoded. */
export function searchLink(base: string, type: string, params: readonly [string, string][]): string {
  const query = new URLSearchParams(params as [string, string][]).toString();
  return `${base}/fhir/${type}${query === '' ? '' : `?${query}`}`;
}

/**
 * A searchset Bundle written from the kept JSON of its resources (issue 56 item 4), as the COS door
 * writes a journal from the remembered JSON of its extracts (serialization/sliced-json.ts): each
 * entry (`fullUrl`, the resource, `search.mode`) is serialised once for as long as its resource
 * lives, and a Bundle is its head, the entries' kept bytes and its tail, never stringified whole.
 * `JSON.stringify` of the 50 Compositions of a page of the 100-note journal was the largest single
 * cost of the FHIR search (BENCHMARKS.md part 10).
 *
 * Byte for byte what `JSON.stringify(searchset(base, page))` writes (test/http/fhir/searchset-bytes.test.ts):
 * the head is that very call over the page without its entries (`entry` is the Bundle's last member,
 * and absent when empty), and an entry's bytes are `JSON.stringify` of the entry searchset makes.
 * Only a kept resource's entry is remembered: one written from a read's kept records (written-forms.ts
 * freezes it, all the way down), which nothing can change. A page holding any other is written as before.
 */
import type { FhirResource } from '../../reads/as-fhir.js';
import { JsonAnswer } from '../serialization/json-answer.js';
import { sharedBytes } from '../serialization/pieces-stream.js';
import { fullUrlOf, searchset, type BundlePage } from './bundle.js';

type Mode = 'match' | 'include';

/** A kept resource's entries, for the base they were written with. */
interface KeptEntry {
  base: string;
  match?: Buffer;
  include?: Buffer;
}

const COMMA = sharedBytes(',');
const ENTRIES_END = sharedBytes(']}');

/** Whether a resource is one written from kept records: frozen (written-forms.ts freezes those whole), so its JSON never goes stale. */
export const isKept = (r: FhirResource): boolean => Object.isFrozen(r);

/** The entries of kept resources as bytes, remembered as long as the resource lives. One per API instance. */
export class KeptEntries {
  private readonly known = new WeakMap<FhirResource, KeptEntry>();

  /** `JSON.stringify` of `{ fullUrl, resource: r, search: { mode } }` as UTF-8, for a kept `r`. */
  of(base: string, r: FhirResource, mode: Mode): Buffer {
    let kept = this.known.get(r);
    if (kept?.base !== base) this.known.set(r, kept = { base });
    const known = kept[mode];
    if (known !== undefined) return known;
    const bytes = sharedBytes(JSON.stringify({ fullUrl: fullUrlOf(base, r), resource: r, search: { mode } }));
    kept[mode] = bytes;
    return bytes;
  }
}

/**
 * The searchset of `page` as bytes when every resource on it is kept; otherwise the Bundle as an
 * object, for the caller to serialise as before.
 */
export function searchsetBody(base: string, page: BundlePage, entries: KeptEntries): JsonAnswer | Record<string, unknown> {
  const count = page.matches.length + page.includes.length;
  if (count === 0 || !page.matches.every(isKept) || !page.includes.every(isKept)) return searchset(base, page);
  const head = JSON.stringify(searchset(base, { ...page, matches: [], includes: [] }));
  const pieces: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"entry":[`)];
  const add = (r: FhirResource, mode: Mode): void => {
    if (pieces.length > 1) pieces.push(COMMA);
    pieces.push(entries.of(base, r, mode));
  };
  for (const r of page.matches) add(r, 'match');
  for (const r of page.includes) add(r, 'include');
  pieces.push(ENTRIES_END);
  return new JsonAnswer(pieces, pieces.reduce((n, p) => n + p.length, 0));
}

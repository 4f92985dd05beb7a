/**
 * What a proxy grant can open (docs/proxies.md#what-a-grant-opens): the reads of patient records, each
 * by its scope's name (`user/LabResult-read` is `LabResult`), or `*` for every read now and later. The
 * list is derived from the operation table, so a read added later is a category by itself; the
 * access log, the writes and proxy management are never one.
 */
import { OPERATIONS, READ_NAMES, type ReadName } from '../operations/table.js';

const STEM = /^user\/([A-Za-z]+)-read$/;

function stemOf(read: ReadName): string {
  const m = STEM.exec(OPERATIONS[read].scope.name);
  if (!m?.[1]) throw new Error(`read ${read} has a scope that names no category: ${OPERATIONS[read].scope.name}`);
  return m[1];
}

// Made once: every read a proxy makes asks it.
const CATEGORY: ReadonlyMap<ReadName, string> = new Map(READ_NAMES.map((read) => [read, stemOf(read)]));

/** The category of a read: its scope's name without `user/` and `-read`. */
export const categoryOf = (read: ReadName): string => CATEGORY.get(read) as string;

/** Every category, once, in the operation table's order (two reads of one scope, the Patient layouts, are one). */
export const PROXY_CATEGORIES: readonly string[] = [...new Set(READ_NAMES.map(categoryOf))];

/** What `categories` may hold besides the categories: every read, now and later. */
export const EVERY_CATEGORY = '*';

export const isCategory = (name: string): boolean => name === EVERY_CATEGORY || PROXY_CATEGORIES.includes(name);

/** The reads a category names. */
export const readsOfCategory = (category: string): ReadName[] => READ_NAMES.filter((read) => categoryOf(read) === category);

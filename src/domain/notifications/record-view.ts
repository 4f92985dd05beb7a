/**
 * What a subscriber may see of a record topic, as digests (docs/notifications.md#finding-changes): the
 * focus resources of the topic's type the subscriber's released records make, each by `Type/id` with a
 * digest of it and of the resources it references among them (a lab report's results, a note's
 * values). A change is a difference between two views of one subscriber: a focus that appeared, one
 * whose digest moved, one that went. What the release policy withholds is in no view, so a note held
 * by a signing delay appears (and is told) the first time it is released, and a withheld record's
 * change or end is never told.
 */
import type { FhirResource } from '../../reads/as-fhir.js';
import { keyOf } from '../fhir/resource-search.js';
import type { Change } from './subscription.js';

/** `Type/id` → digest, in the order the records came (oldest first). */
export type RecordView = Readonly<Record<string, string>>;

/** A digest of a text (SHA-256 in the service); given, so that the domain holds no crypto. */
export type Digest = (text: string) => string;

/** The references a resource holds (`Type/id`), anywhere in it. */
function referencesOf(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) referencesOf(v, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'reference' && typeof v === 'string') into.add(v);
      else referencesOf(v, into);
    }
  }
  return into;
}

/**
 * The view of `type` in `resources`: each focus, digested with what it references among them (one level)
 * that the subscriber `sees` (NotificationDeps.shows): a journal note's care contact (the Encounter its form
 * writes) is no part of what a proxy granted notes alone sees, nor a report's results of what an app with a
 * DiagnosticReport scope alone does, so their change is none (hostile review helper-99 F2, helper-100 F1:
 * told of an admission, of a corrected result the app may not read).
 */
export function viewOf(resources: readonly FhirResource[], type: string, digest: Digest, sees: (r: FhirResource) => boolean = () => true): Record<string, string> {
  const byRef = new Map(resources.map((r) => [keyOf(r), r]));
  const view: Record<string, string> = {};
  for (const r of resources) {
    if (r.resourceType !== type) continue;
    const ref = keyOf(r);
    const parts = [JSON.stringify(r)];
    for (const other of [...referencesOf(r, new Set())].sort()) {
      const referenced = byRef.get(other);
      if (referenced !== undefined && other !== ref && sees(referenced)) parts.push(JSON.stringify(referenced));
    }
    view[ref] = digest(parts.join('\n'));
  }
  return view;
}

export interface ViewChange {
  focus: string;
  change: Change;
}

/** Marks a kept digest of a focus withheld now but still among the EHR's records (viewToKeep). */
const WITHHELD = 'withheld:';
const lastSeen = (digest: string): string => (digest.startsWith(WITHHELD) ? digest.slice(WITHHELD.length) : digest);

/**
 * What changed from `before` to `after`: new and changed foci in `after`'s order, then those gone in
 * `before`'s. A focus that left the view but is still among the EHR's records (`present`: withheld from
 * this subscriber now, by a secrecy level added or a signing undone) is dropped without an event: it
 * is not gone, and saying anything of it would tell of a record they may no longer see. Kept under its
 * last seen digest (viewToKeep), it is no change when released again as it was, and an update when
 * released changed; gone while withheld, it is never told.
 */
export function changesBetween(before: RecordView, after: RecordView, present: ReadonlySet<string>): ViewChange[] {
  const changes: ViewChange[] = [];
  for (const [focus, digest] of Object.entries(after)) {
    const was = before[focus];
    if (was === undefined) changes.push({ focus, change: 'created' });
    else if (lastSeen(was) !== digest) changes.push({ focus, change: 'updated' });
  }
  for (const [focus, was] of Object.entries(before)) {
    if (!Object.hasOwn(after, focus) && !present.has(focus) && !was.startsWith(WITHHELD)) changes.push({ focus, change: 'deleted' });
  }
  return changes;
}

/**
 * The view to keep after `after`: its foci, and each focus of `before` withheld now (still among the EHR's
 * records, or already withheld and gone since) under its last seen digest, marked withheld: a note held back
 * for a while (signed again) and released unchanged was told as created, telling that something unreleased
 * had been there (hostile review helper-101, F2), and so was one held back, gone and back again (helper-102,
 * F1). What was gone while withheld stays kept, never told, until it comes back.
 */
export function viewToKeep(before: RecordView, after: RecordView, present: ReadonlySet<string>): RecordView {
  const kept: Record<string, string> = { ...after };
  for (const [focus, was] of Object.entries(before)) {
    if (!Object.hasOwn(after, focus) && (present.has(focus) || was.startsWith(WITHHELD))) kept[focus] = `${WITHHELD}${lastSeen(was)}`;
  }
  return kept;
}

/** What a kept digest is once its version was passed over untold (markedUntold): no real digest is it. */
const UNTOLD = 'untold';

/**
 * `view` with each of `foci` marked withheld and never told: events about them were passed over at
 * delivery, their records withheld since they were numbered (send-notifications.ts). Released again,
 * even as they were, each is told as updated (hostile review helper-109, F4: it was never told). A
 * focus a poll found released in another version since `was` (and numbered that) is left as the poll
 * kept it: marked, its change would be told twice (helper-111, F2). A poll that found it withheld, or
 * released as it was, numbered nothing, and the mark stays (helper-112, F1).
 */
export function markedUntold(view: RecordView, foci: readonly string[], was: RecordView): RecordView {
  const kept: Record<string, string> = { ...view };
  for (const focus of foci) {
    const now = view[focus];
    const numberedSince = now !== undefined && !now.startsWith(WITHHELD) && (was[focus] === undefined || lastSeen(was[focus]) !== now);
    if (!numberedSince) kept[focus] = `${WITHHELD}${UNTOLD}`;
  }
  return kept;
}

/** The foci of `type` among resources: what the EHR holds, released or not. */
export const fociOf = (resources: readonly FhirResource[], type: string): Set<string> =>
  new Set(resources.filter((r) => r.resourceType === type).map(keyOf));

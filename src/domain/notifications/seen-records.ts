/**
 * What a subscription's person may see of its topic's records now (docs/notifications.md#checked-at-sending):
 * per read, the view of the focus resources the release policy gives them (record-view.ts), and every
 * focus the EHR holds whether released or not. The poll compares it with what they were shown, a new
 * subscription keeps it as its baseline, and a delivery and `$events` keep only the events still in it.
 */
import { DomainError } from '../errors.js';
import { ReadUnavailableError } from '../read-availability/unavailable-read.js';
import type { EhrReads } from '../../ports/ehr-records.port.js';
import type { ReadItem, ReadName } from '../operations/table.js';
import type { NotificationDeps } from './notification-deps.js';
import { fociOf, viewOf, type RecordView } from './record-view.js';
import type { RightHolds } from './right-to-read.js';
import type { StoredSubscription, SubscriptionEvent } from './subscription.js';
import { feedOfTopic, TOPICS } from './topics.js';

/** What was seen of one read: the view its subscriber may see, and every focus the EHR still holds. */
export interface ReadSeen {
  view: RecordView;
  present: ReadonlySet<string>;
}

type SeenDeps = Pick<NotificationDeps, 'reader' | 'write' | 'digest' | 'shows'>;

function seenOfRead<R extends ReadName>(deps: SeenDeps, s: StoredSubscription, right: RightHolds, read: R, raw: ReadItem<R>[]): ReadSeen {
  const type = TOPICS[s.topic].type;
  const released = deps.reader.releaseFetched(read, right.access, raw, {}).records;
  return { view: viewOf(deps.write(read, released, s.patient), type, deps.digest, deps.shows(s, right, read)), present: fociOf(deps.write(read, raw, s.patient), type) };
}

/**
 * What `s`'s person may see of each read `right` reaches, from the records `fetched` holds of it;
 * undefined when a read's own document refuses them (a protected identity it marks, for a delegate).
 */
export function seenRecords(deps: SeenDeps, s: StoredSubscription, right: RightHolds, fetched: ReadonlyMap<ReadName, readonly unknown[]>): Map<ReadName, ReadSeen> | undefined {
  const seen = new Map<ReadName, ReadSeen>();
  try {
    for (const read of right.reads) {
      const records = fetched.get(read);
      // A read not served now (issue 57 item 4) was not fetched: its records are not "gone", and its view stays as it was.
      if (records !== undefined) seen.set(read, seenOfRead(deps, s, right, read, records as ReadItem<typeof read>[]));
    }
  } catch (err) {
    if (err instanceof DomainError && err.code === 'ACCESS_DENIED') return undefined;
    throw err;
  }
  return seen;
}

/** Kept events as their person may be told of them now (eventsNow). */
export interface EventsNow {
  told: SubscriptionEvent[];
  /** Per read, the foci of events not told whose records the EHR still holds, withheld from them now. */
  withheld: ReadonlyMap<ReadName, readonly string[]>;
}

/**
 * Of `s`'s kept `events`, those its person may be told of now, `right` holding: of a record topic, an
 * event whose record they may see now (a deletion while the record is still gone), read again from the
 * EHR; a feed's as they are. Numbered while released, a record withheld since (made secret, signed
 * again under a signing delay) is told of neither by a delivery, a retry included, nor by `$events`.
 */
export async function eventsNow(deps: SeenDeps, s: StoredSubscription, right: RightHolds, events: readonly SubscriptionEvent[]): Promise<EventsNow> {
  const withheld = new Map<ReadName, string[]>();
  if (feedOfTopic(s.topic) !== undefined) return { told: [...events], withheld };
  const reads = right.reads.filter((read) => events.some((e) => e.read === read));
  const seen = reads.length === 0 ? new Map<ReadName, ReadSeen>() : seenRecords(deps, s, right, await fetchReads(right, reads));
  if (seen === undefined) return { told: [], withheld };
  const told = events.filter((e) => {
    const now = e.read === undefined ? undefined : seen.get(e.read);
    if (now === undefined) return false;
    if (e.change === 'deleted') return !now.present.has(e.focus);
    if (Object.hasOwn(now.view, e.focus)) return true;
    if (now.present.has(e.focus)) withheld.set(e.read as ReadName, [...(withheld.get(e.read as ReadName) ?? []), e.focus]);
    return false;
  });
  return { told, withheld };
}

/** The events of `eventsNow` its person may be told of now. */
export const stillTold = async (deps: SeenDeps, s: StoredSubscription, right: RightHolds, events: readonly SubscriptionEvent[]): Promise<SubscriptionEvent[]> =>
  (await eventsNow(deps, s, right, events)).told;

/** The records of each read `right` reaches, read through its access's view of the EHR (the whole record, no time range). */
export function fetchReads(right: RightHolds, reads: readonly ReadName[] = right.reads): Promise<Map<ReadName, readonly unknown[]>> {
  return fetchServed(right.access.ehr.reads, right.access.patientId, reads);
}

/**
 * The records of each of `reads` for `patient`, whole; a read this region does not serve
 * (ReadUnavailableError) is left out, so the others' notifications go on (issue 57 item 4).
 */
export async function fetchServed(ehrReads: EhrReads, patient: string, reads: readonly ReadName[]): Promise<Map<ReadName, readonly unknown[]>> {
  const fetched = new Map<ReadName, readonly unknown[]>();
  for (const read of reads) {
    try {
      fetched.set(read, await ehrReads[read](patient, {}));
    } catch (err) {
      if (!(err instanceof ReadUnavailableError)) throw err;
    }
  }
  return fetched;
}

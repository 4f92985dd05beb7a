/**
 * What the notification use cases share (docs/notifications.md): the store, the check at sending, the
 * one read use case's release rules, the FHIR forms that name each record's resource, and what the
 * domain cannot make itself (time, ids, digests). Made once by the composition root.
 */
import type { AuditTrail } from '../../ports/audit-trail.port.js';
import type { Clock } from '../../ports/clock.port.js';
import type { SubscriptionStore } from '../../ports/subscription-store.port.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import type { ReadItem, ReadName } from '../operations/table.js';
import type { ReadPatientData } from '../use-cases/read-patient-data.js';
import { endedRecord } from './engine-audit.js';
import { claimHeld, due, ended, endToRetry, UNSERVED_RETRY_MS } from './lifecycle.js';
import type { Digest } from './record-view.js';
import type { RightHolds, RightToRead } from './right-to-read.js';
import { isLive, type EndReason, type StoredSubscription } from './subscription.js';

/**
 * What of a read's written records `s`'s subscriber may see, as the FHIR door would show them to the app:
 * a type their access opens (a proxy's grant its categories only) and, where the app's scopes are known
 * (RightHolds.scopes), one they grant, category included (src/http/fhir/subscription-caller.ts).
 */
export type SubscriberShows = (s: StoredSubscription, right: RightHolds, read: ReadName) => (r: FhirResource) => boolean;

/** A read's records as the FHIR API serves them for one patient (the read's FHIR form, src/reads/<read>/as-fhir.ts). */
export type ResourceWriter = <R extends ReadName>(read: R, records: readonly ReadItem<R>[], patientId: string) => readonly FhirResource[];

export interface NotificationDeps {
  store: SubscriptionStore;
  right: RightToRead;
  reader: ReadPatientData;
  write: ResourceWriter;
  /** What of `read`'s written records the subscriber may see beside a focus (SubscriberShows). */
  shows: SubscriberShows;
  audit: AuditTrail;
  clock: Clock;
  digest: Digest;
  /** A new UUID per call (request ids of the engine's own audit records, Bundle ids). */
  newId: () => string;
}

/**
 * The record of a subscription's end could not be written, so it was not ended: it stays as it was,
 * and a request that had to end it is answered as any access the service cannot record (503).
 */
export class EndNotRecordedError extends Error {
  override name = 'EndNotRecordedError';
}

/**
 * How long a claimed end keeps every other caller from ending the subscription: longer than an audit
 * record takes to be written, short enough that one whose claimer stopped on the way ends soon after.
 */
export const ENDING_CLAIM_MS = 30_000;

/**
 * Ends a live subscription for `reason`, audited first in the patient's log under its app. The end is
 * claimed under the store's lock before the record is written, so of callers ending it at once, on any
 * instance, one writes the record and the end, and the others leave it as it is. An end begun before and
 * not finished is finished as it was begun, its reason kept: its record may stand already. With the audit
 * store down the claim is given back and it stays live: a read may end it at once, a turn UNSERVED_RETRY_MS on.
 */
export async function endSubscription(deps: NotificationDeps, s: StoredSubscription, reason: EndReason): Promise<void> {
  const nowMs = deps.clock.now();
  const claim = deps.newId();
  // Due again only when the claim lapses: no turn serves it meanwhile (hostile review helper-115, F2).
  const claimed = await deps.store.update(s.id, (current) => (isLive(current) && (current.ending === undefined || !claimHeld(current.ending, nowMs))
    ? { subscription: due({ ...current, ending: { claim, untilMs: nowMs + ENDING_CLAIM_MS, reason: current.ending?.reason ?? reason, atMs: nowMs } }, nowMs) }
    : undefined));
  const ending = claimed?.subscription.ending;
  if (claimed === undefined || ending === undefined) return;
  try {
    await deps.audit.append(endedRecord(claimed.subscription, { nowMs, requestId: deps.newId() }));
  } catch (err) {
    // Given back at once, so that a read may try again now and a turn UNSERVED_RETRY_MS on, as any work that could not
    // be done: not as its other work says, which put the end off by a delivery's backoff (hostile review helper-117,
    // F1) or, with nothing else to do, for ever (helper-118, F4). If the store is down too, the claim lapses by itself.
    const atMs = deps.clock.now();
    await deps.store.update(s.id, (current) => (current.ending?.claim === claim ? { subscription: endToRetry(current, atMs, atMs + UNSERVED_RETRY_MS) } : undefined))
      .catch(() => undefined);
    throw new EndNotRecordedError('the end of a subscription could not be recorded in the audit trail', { cause: err });
  }
  // A claim another caller took over after ours lapsed is theirs to end, with their record.
  await deps.store.update(s.id, (current) => (isLive(current) && (current.ending === undefined || current.ending.claim === claim)
    ? { subscription: ended(current, ending.reason, nowMs) }
    : undefined));
}

/**
 * A poll of one subscribed patient (docs/notifications.md#finding-changes): the records of every read
 * its live record subscriptions follow, read once through one view of the EHR, then for each
 * subscription the check at sending and the view of what its person may see now, compared with the
 * view it was last shown. What differs is numbered for that subscription alone, in one step with its
 * new view, so two instances never number one change twice and a subscriber never gets another's.
 */
import type { EhrCalls, EhrReads, RecordReader } from '../../ports/ehr-records.port.js';
import type { PollBudget } from '../../ports/poll-budget.port.js';
import type { ReadItem, ReadName } from '../operations/table.js';
import { isBounded } from '../time/time-range.js';
import { eachRead } from '../use-cases/read-sources.js';
import { numbered } from './lifecycle.js';
import { endSubscription, type NotificationDeps } from './notification-deps.js';
import { changesBetween, viewToKeep, type RecordView } from './record-view.js';
import { fetchServed, seenRecords, type ReadSeen } from './seen-records.js';
import { isLive, type NewEvent, type StoredSubscription } from './subscription.js';
import { readsOfTopic } from './topics.js';

/** The live subscriptions of a patient that follow records, and the reads a poll of them makes. */
export interface PollPlan {
  subscriptions: StoredSubscription[];
  reads: ReadName[];
  /**
   * EHR reads the poll makes, each once (readOnce): the patient document, and its v2 mirror where a subscriber is not the
   * patient (who may read them is decided on them: protected-identity.ts), and one per read.
   */
  cost: number;
}

/** A view of the EHR whose reads are made once each (the whole record, no time range) for the poll's patient. */
function readOnce(view: EhrCalls): EhrCalls {
  const made = new Map<ReadName, Promise<unknown>>();
  const reads: EhrReads = eachRead(view.reads, <R extends ReadName>(read: R, reader: RecordReader<R>): RecordReader<R> => (patientId, range) => {
    if (isBounded(range)) return reader(patientId, range);
    let pending = made.get(read) as Promise<ReadItem<R>[]> | undefined;
    if (pending === undefined) made.set(read, pending = reader(patientId, range));
    return pending;
  });
  return { ...view, reads };
}

export interface PollSettings {
  /** SUBSCRIPTION_POLL_SECONDS in milliseconds. */
  pollMs: number;
  /** How long one poll's lease of a patient lasts (longer than a poll takes). */
  leaseMs: number;
  /** This instance, as the store's leases name it. */
  owner: string;
  /** Waits `ms` (a timer in the service, the test's clock in a test). */
  wait: (ms: number) => Promise<void>;
  /** Told of the EHR reads each poll makes (the metrics). */
  observeReads?: (reads: number) => void;
}

/** After a poll that failed (the EHR or a store did not answer), the patient is tried again this soon, or at the poll interval if sooner. */
export const RETRY_FAILED_POLL_MS = 30_000;

export class FindChanges {
  constructor(private readonly deps: NotificationDeps & { ehr: { forRequest(): EhrCalls }; budget: PollBudget }) {}

  /**
   * One poll, if a patient is due and no other instance polls them: its reads reserved in the EHR
   * budget shared by every instance and waited for, then made. Resolves false when none was due.
   * Throws what the poll threw, once the patient's next poll is set.
   */
  async turn(settings: PollSettings): Promise<boolean> {
    const { store, clock, budget } = this.deps;
    const [due] = await store.claimPolls(clock.now(), settings.owner, settings.leaseMs, 1);
    if (due === undefined) return false;
    let next = clock.now() + RETRY_FAILED_POLL_MS;
    try {
      const plan = await this.plan(due.patient);
      if (plan.cost > 0) {
        await settings.wait(await budget.reserve(plan.cost, clock.now()));
        settings.observeReads?.(plan.cost);
        await this.poll(due.patient, plan);
      }
      next = clock.now() + settings.pollMs;
    } finally {
      await store.releasePoll(due.patient, settings.owner, Math.min(next, clock.now() + settings.pollMs));
    }
    return true;
  }

  /** What a poll of `patient` would read now; no reads when nobody follows their records. */
  async plan(patient: string): Promise<PollPlan> {
    const subscriptions = (await this.deps.store.liveFor(patient)).filter((s) => readsOfTopic(s.topic).length > 0);
    const reads = [...new Set(subscriptions.flatMap((s) => readsOfTopic(s.topic)))];
    const delegated = subscriptions.some((s) => s.subscriber.personId !== patient);
    const decisions: ReadName[] = delegated ? ['getPatient', 'getPatientV2'] : ['getPatient'];
    return { subscriptions, reads, cost: reads.length === 0 ? 0 : new Set<ReadName>([...decisions, ...reads]).size };
  }

  /**
   * Polls `patient` as `plan` says. Throws when the EHR or a store cannot answer: nothing is numbered
   * for anyone then, and the next poll looks again. A subscriber whose right is gone is ended.
   */
  async poll(patient: string, plan: PollPlan): Promise<void> {
    if (plan.reads.length === 0) return;
    const view = readOnce(this.deps.ehr.forRequest());
    const fetched = await fetchServed(view.reads, patient, plan.reads);
    for (const s of plan.subscriptions) {
      const right = await this.deps.right.check(s, view);
      const seen = right.kind === 'holds' ? seenRecords(this.deps, s, right, fetched) : undefined;
      if (right.kind === 'lost' || seen === undefined) await endSubscription(this.deps, s, right.kind === 'lost' ? right.reason : 'right-lost');
      else await this.compare(s, seen);
    }
  }

  /** Numbers what `s`'s person sees differently now, and keeps the new views with the events, as one step. */
  private async compare(s: StoredSubscription, seen: ReadonlyMap<ReadName, ReadSeen>): Promise<void> {
    const nowMs = this.deps.clock.now();
    await this.deps.store.update(s.id, (current, views) => {
      if (!isLive(current)) return undefined;
      const events: NewEvent[] = [];
      const next: Record<string, RecordView> = { ...views };
      let moved = false;
      for (const [read, { view, present }] of seen) {
        const before = views[read];
        // A read newly within reach (a grant widened to its category) is a baseline, as a new subscription's
        // reads are: what it holds existed before (hostile review helper-101, F1: each told as created).
        if (before === undefined) {
          next[read] = view;
          moved = true;
          continue;
        }
        for (const c of changesBetween(before, view, present)) events.push({ atMs: nowMs, focus: c.focus, change: c.change, read });
        const kept = viewToKeep(before, view, present);
        moved ||= !sameView(before, kept);
        next[read] = kept;
      }
      if (!moved) return undefined;
      return { ...numbered(current, events, nowMs), views: next };
    }, true);
  }
}

function sameView(a: RecordView, b: RecordView): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * THREATS 67 in the domain (docs/notifications.md#the-ehr-budget): 1,000 subscribed patients on a
 * counting EHR stub, polled by two instances sharing one budget, on the test's clock. The EHR never sees
 * more than the budget (and its one-second burst) in any window; the budget is used, not wasted; where
 * a round of polls needs longer than the poll interval, every patient is still polled in turn and the
 * lag grows, measured, instead of the reads.
 */
import { describe, expect, it } from 'vitest';
import { MemoryPollBudget } from '../../../src/adapters/subscriptions/memory-poll-budget.js';
import { MemorySubscriptionStore } from '../../../src/adapters/subscriptions/memory-subscription-store.js';
import { PatientAccessPolicy } from '../../../src/domain/access/patient-access.js';
import { FindChanges } from '../../../src/domain/notifications/find-changes.js';
import { ManageSubscriptions } from '../../../src/domain/notifications/manage-subscriptions.js';
import type { NotificationDeps } from '../../../src/domain/notifications/notification-deps.js';
import { RightToRead } from '../../../src/domain/notifications/right-to-read.js';
import { TOPIC_NAMES, type TopicName } from '../../../src/domain/notifications/topics.js';
import { ReadPatientData } from '../../../src/domain/use-cases/read-patient-data.js';
import type { EhrCalls } from '../../../src/ports/ehr-records.port.js';
import { patientRecord } from '../../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../../fakes/fake-ehr.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';
import { at, channelOf, GUARDIAN, note, notes, subscriber, writeAsResources, ZONE } from './engine-world.js';

const PATIENTS = 1000;
const READS_PER_SECOND = 50;
/** Shorter than a round of 1,000 polls of three reads each (both patient documents, for a delegate, and the notes) takes at 50 a second (60 s): the budget, not the interval, sets the pace. */
const POLL_MS = 20_000;
const RUN_MS = 150_000;

/** Synthetic patient ids of this test only (the domain takes any patient id; none is a person's number). */
const patientIds = Array.from({ length: PATIENTS }, (_, i) => `budget-patient-${String(i).padStart(4, '0')}`);

function countingWorld() {
  const clock = new FixedClock(at('20261126100000'));
  const ehr = new FakeEhr();
  for (const p of patientIds) ehr.withPatient(p, { getPatient: [patientRecord(p)], getJournalNotes: notes(note('n-1', '20261001090000', '20261001100000')) });
  /** When each EHR read was made, by the test's clock. */
  const readsAt: number[] = [];
  const counting: EhrCalls = Object.assign(Object.create(ehr) as EhrCalls, {
    reads: Object.fromEntries(Object.entries(ehr.reads).map(([name, read]) => [name, (...args: unknown[]) => {
      readsAt.push(clock.now());
      return (read as (...a: unknown[]) => unknown)(...args);
    }])),
  });
  const store = new MemorySubscriptionStore();
  // One person holds a power of attorney for every patient: the person a subscription is made for must be a person.
  const registry = new FakeRegistry();
  for (const p of patientIds) registry.grant(GUARDIAN, { patient: p, type: 'power-of-attorney', validFrom: '20170101' });
  const access = new PatientAccessPolicy(ehr, registry, clock, ZONE);
  const deps: NotificationDeps = {
    store, right: new RightToRead(access, undefined, { policy: undefined, clock, zone: ZONE }), reader: new ReadPatientData(ZONE, { policy: undefined, clock }), write: writeAsResources, shows: () => () => true,
    audit: new MemoryAuditTrail(), clock, newId: () => crypto.randomUUID(), digest: (text) => text,
  };
  const manage = new ManageSubscriptions(deps, { topics: new Set<TopicName>(TOPIC_NAMES), pollMs: POLL_MS, newSubscriptionId: () => crypto.randomUUID().replaceAll('-', '') });
  const budget = new MemoryPollBudget(READS_PER_SECOND);
  const instances = ['one', 'two'].map((owner) => ({ owner, find: new FindChanges({ ...deps, ehr: { forRequest: () => counting }, budget }) }));
  return { clock, ehr, store, manage, instances, readsAt };
}

describe('polling 1,000 subscribed patients within the EHR budget (THREATS 67)', () => {
  it('never exceeds the budget in any window, uses it, polls every patient in turn, and lets the lag grow instead', async () => {
    const w = countingWorld();
    for (const p of patientIds) await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: p, channel: channelOf() }, async () => undefined);
    w.readsAt.length = 0;
    const startMs = w.clock.now();
    const lags: number[] = [];
    // Two instances take turns on one budget; a wait moves the test's clock, as a timer would move time.
    let turn = 0;
    while (w.clock.now() - startMs < RUN_MS) {
      const { owner, find } = w.instances[turn++ % 2] as (typeof w.instances)[number];
      const polled = await find.turn({ pollMs: POLL_MS, leaseMs: 60_000, owner, wait: async (ms) => w.clock.advance(ms) });
      if (!polled) w.clock.advance(250);
      if (turn % 500 === 0) lags.push(w.clock.now() - (await w.store.oldestDuePoll(w.clock.now()) ?? w.clock.now()));
    }

    // In every window of ten seconds: at most ten seconds' worth, one second's burst and one poll more.
    const windowMs = 10_000;
    let worst = 0;
    for (let i = 0, j = 0; i < w.readsAt.length; i++) {
      while ((w.readsAt[j] as number) <= (w.readsAt[i] as number) - windowMs) j++;
      worst = Math.max(worst, i - j + 1);
    }
    expect(worst).toBeLessThanOrEqual(READS_PER_SECOND * (windowMs / 1000 + 1) + 2);
    // Used: from the first poll due on, nearly all the budget went to reads.
    const busyMs = RUN_MS - POLL_MS;
    expect(w.readsAt.length).toBeGreaterThanOrEqual(0.9 * READS_PER_SECOND * (busyMs / 1000));
    // Every patient polled, none twice before all were once: the most and least polled differ by one round.
    const polls = new Map<string, number>();
    for (const call of w.ehr.calls.filter((c) => c.startsWith('read getJournalNotes '))) polls.set(call.split(' ')[2] ?? '', (polls.get(call.split(' ')[2] ?? '') ?? 0) + 1);
    const counts = patientIds.map((p) => polls.get(p) ?? 0);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    // The lag, what the metric shows, grows while the budget holds, to what a round takes beyond the interval.
    const roundMs = (PATIENTS * 2 / READS_PER_SECOND) * 1000;
    expect(lags.at(-1)).toBeGreaterThan(lags[0] ?? 0);
    expect(lags.at(-1)).toBeGreaterThan(0.9 * (roundMs - POLL_MS));
  }, 60_000);
});

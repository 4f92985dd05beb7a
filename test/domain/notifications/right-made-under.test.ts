/**
 * docs/notifications.md#checked-at-sending: a subscription is tied to the right it was made under. Made
 * under a proxy grant, it ends when that grant ends, even when the patient gives the same person a new
 * grant before the next check; made under a registry row of one kind, it ends when another kind decides.
 * What decides is the right itself, never the timing of a poll.
 */
import { describe, expect, it, vi } from 'vitest';
import type { PatientAccess } from '../../../src/domain/access/patient-access.js';
import type { Relationship } from '../../../src/domain/access/relationship.js';
import { ManageSubscriptions } from '../../../src/domain/notifications/manage-subscriptions.js';
import { ENDING_CLAIM_MS, EndNotRecordedError, endSubscription } from '../../../src/domain/notifications/notification-deps.js';
import { keepsRight } from '../../../src/domain/notifications/right-to-read.js';
import { UNSERVED_RETRY_MS } from '../../../src/domain/notifications/lifecycle.js';
import { TOPIC_NAMES, type TopicName } from '../../../src/domain/notifications/topics.js';
import { bookings } from '../../fakes/builders.js';
import { CHILD, channelOf, claimEnd, GUARDIAN, guardianWithEventWaiting, STRANGER, subscriber, world } from './engine-world.js';

const noop = async (): Promise<void> => undefined;

/** STRANGER's active grant to GUARDIAN, of `categories`, under the grant id `grantId`. */
const grantOf = (grantId: string, categories: string[]): Relationship => ({
  patient: STRANGER, type: 'proxy', validFrom: '', proxy: { grantId, reach: new Set(categories), fromMs: 0 },
});

/** A world where STRANGER shares video meetings with GUARDIAN, and has one booking. */
function sharing() {
  const w = world('no release policy');
  w.registry.grant(GUARDIAN, grantOf('grant-video', ['VideoMeeting']));
  w.ehr.withPatient(STRANGER, { ...w.ehr.patients.get(STRANGER), getAppointments: bookings(['b-1', '2026-12-01T09:00:00Z']) });
  const rowsBut = (...grants: Relationship[]): void => {
    w.registry.rows.set(GUARDIAN, [...(w.registry.rows.get(GUARDIAN) ?? []).filter((r) => r.type !== 'proxy'), ...grants]);
  };
  const addBooking = (): void => {
    w.ehr.withPatient(STRANGER, { ...w.ehr.patients.get(STRANGER), getAppointments: bookings(['b-1', '2026-12-01T09:00:00Z'], ['b-2', '2026-12-02T09:00:00Z']) });
  };
  return { w, rowsBut, addBooking };
}

describe('a subscription is tied to the right it was made under', () => {
  // Hostile review helper-107, F1: the grant of video meetings revoked and one of bookings given within one
  // poll; the subscription made under the first stayed active and told a booking only the second shares.
  it('made under a proxy grant, it ends when that grant ends, though a new grant is given before the next check', async () => {
    const { w, rowsBut, addBooking } = sharing();
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'appointment', patient: STRANGER, channel: channelOf() }, noop);
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake']);
    rowsBut(grantOf('grant-bookings', ['Appointment']));
    await w.tick();
    addBooking();
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake']);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect((await w.manage.events(await w.manage.current(await w.manage.get(subscriber(GUARDIAN), s.id)), 1, 10)).events).toEqual([]);
  });

  it('made under a proxy grant, it holds while that grant does: a second grant beside it widens what it follows', async () => {
    const { w, rowsBut, addBooking } = sharing();
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'appointment', patient: STRANGER, channel: channelOf() }, noop);
    await w.tick();
    rowsBut(grantOf('grant-video', ['VideoMeeting']), grantOf('grant-bookings', ['Appointment']));
    await w.tick();
    addBooking();
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1']);
    expect(JSON.stringify(w.channel.sent[1]?.bundle)).toContain('http://svc/fhir/Appointment/b-2');
    expect((await w.store.byId(s.id))?.status).toBe('active');
  });

  it('made as a guardian, it ends when another right to the child decides in its place', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    w.registry.rows.set(GUARDIAN, [{ patient: CHILD, type: 'power-of-attorney', validFrom: '20170101' }]);
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake']);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
  });

  it('kept from before the right was recorded (schema version 1), it holds for the patient alone', () => {
    const access = (basis: PatientAccess['basis']): PatientAccess => ({ basis } as PatientAccess);
    expect(['self', 'guardian', 'power-of-attorney', 'partner', 'proxy'].map((b) => keepsRight(undefined, access(b as PatientAccess['basis']))))
      .toEqual([true, false, false, false, false]);
  });

  it('made by the patient, it holds as before', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(CHILD), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    await w.tick();
    expect((await w.store.byId(s.id))?.madeUnder).toEqual({ basis: 'self' });
    expect((await w.store.byId(s.id))?.status).toBe('active');
  });

  // Hostile review helper-109, F3: reads of one subscription at once, its right gone, each ended it and wrote
  // its own "ended by the service" record in the patient's log. Failed before: five records.
  it('read by many at once after its right is gone, it is ended once, with one record', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    w.registry.revokeAll(GUARDIAN);
    const read = await Promise.all(Array.from({ length: 5 }, () => w.manage.current(s)));
    expect(read.map((r) => r.status)).toEqual(Array(5).fill('off'));
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service')).toHaveLength(1);
    // A poll after it finds nothing more to end.
    await w.tick();
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service')).toHaveLength(1);
  });

  // Hostile review helper-113, F2: two instances (a read on one, a delivery turn on another) ending one
  // subscription at the same moment each wrote an "ended" record. Failed before: two records.
  it('ended by two instances at once, it is ended once, with one record', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await w.send.turn();
    await w.send.settled();
    const other = new ManageSubscriptions(w.deps, { topics: new Set<TopicName>(TOPIC_NAMES), pollMs: 60_000, newSubscriptionId: () => 'unused' });
    w.registry.revokeAll(GUARDIAN);
    const read = await Promise.all([w.manage.current(s), other.current(s)]);
    expect(read.map((r) => r.status)).toEqual(['off', 'off']);
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service')).toHaveLength(1);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect((await w.store.byId(s.id))?.ending).toBeUndefined();
  });

  it('ended twice at the same moment (a read and a delivery turn), the first to claim the end writes the one record', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await Promise.all([endSubscription(w.deps, s, 'right-lost'), endSubscription(w.deps, s, 'ended')]);
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service')).toHaveLength(1);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
  });

  // A delivery turn that found the end claimed by another instance left it due at once: with events to
  // deliver, every turn checked its right again (an EHR read) until the claim's end. Failed before: due at once.
  it('one whose end another instance claimed is not served again until that claim lapses', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    const untilMs = await claimEnd(w, s.id, 'another instance') + ENDING_CLAIM_MS;
    w.registry.revokeAll(GUARDIAN);
    await w.send.turn();
    await w.send.settled();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active', eventCount: 1, deliveredThrough: 0, dueMs: untilMs });
    expect(w.channel.kinds()).toEqual(['handshake']);
    w.clock.advance(ENDING_CLAIM_MS);
    await w.send.turn();
    await w.send.settled();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect((await w.store.byId(s.id))?.dueMs).toBeUndefined();
  });

  // Hostile review helper-115, F2: the claim left the subscription due as it was, so one past its `end` was
  // leased by every turn while another instance held its end. Failed before: leased at each of five turns.
  it('one whose end is claimed is not leased until the claim lapses, though its end has passed', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf(), endMs: w.clock.now() + 1000 }, noop);
    await w.send.turn();
    await w.send.settled();
    w.audit.mode = 'hang';
    w.clock.advance(2000);
    void endSubscription(w.deps, s, 'ended');
    await new Promise((resolve) => setImmediate(resolve));
    const claimDue = w.store.claimDue.bind(w.store);
    let leased = 0;
    w.store.claimDue = async (...args) => {
      const got = await claimDue(...args);
      leased += got.length;
      return got;
    };
    for (let turn = 0; turn < 5; turn++) {
      w.clock.advance(1000);
      await w.send.turn();
      await w.send.settled();
    }
    expect(leased).toBe(0);
    expect((await w.store.byId(s.id))?.dueMs).toBe((await w.store.byId(s.id))?.ending?.untilMs);
  });

  // Hostile review helper-115, F4 and F5: a claim given back kept the claim's due time, so the next turn waited
  // for it to lapse; and a read meanwhile showed the reader's reason and time, not the claimer's.
  it('a claim given back is due again when its end is tried again; a read during another claim shows the claimer\'s end', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    w.registry.revokeAll(GUARDIAN);
    w.audit.mode = 'fail';
    await expect(endSubscription(w.deps, s, 'right-lost')).rejects.toThrow(EndNotRecordedError);
    expect((await w.store.byId(s.id))?.dueMs).toBe(w.clock.now() + UNSERVED_RETRY_MS);
    w.audit.mode = 'hang';
    const claimedAt = w.clock.now();
    void endSubscription(w.deps, s, 'app-revoked');
    await new Promise((resolve) => setImmediate(resolve));
    w.clock.advance(5000);
    const other = new ManageSubscriptions(w.deps, { topics: new Set<TopicName>(TOPIC_NAMES), pollMs: 60_000, newSubscriptionId: () => 'unused' });
    // The end given back is finished as it was begun: its reason is kept by the claim that takes it over.
    expect(await other.current(s)).toMatchObject({ status: 'off', endReason: 'right-lost', changedMs: claimedAt });
  });

  // Hostile review helper-118, F4 (and helper-116 F3, helper-117 F1): a claim given back after an unrecordable end
  // was due as its other work said: never, for one with nothing else to do, so it was never ended; or at once,
  // undoing the turns' pause. Failed before: no due time after the read.
  it('a claim given back is due again when an unrecordable end is tried again, 30 s on', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    w.grants.revoked.add('grant-1');
    w.audit.mode = 'fail';
    await expect(w.manage.current(s)).rejects.toThrow(EndNotRecordedError);
    expect((await w.store.byId(s.id))?.dueMs).toBe(w.clock.now() + UNSERVED_RETRY_MS);
    expect(await w.manage.get(subscriber(CHILD), s.id)).toMatchObject({ status: 'active' });
    // Its turn then looks again; a read ends it at once.
    w.audit.mode = 'ok';
    expect(await w.manage.current(s)).toMatchObject({ status: 'off', endReason: 'app-revoked' });
    expect((await w.store.byId(s.id))?.dueMs).toBeUndefined();
  });

  it('an end whose audit record cannot be written leaves it live for the next caller to end', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    w.registry.revokeAll(GUARDIAN);
    w.audit.mode = 'fail';
    await expect(endSubscription(w.deps, s, 'right-lost')).rejects.toThrow(EndNotRecordedError);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'requested', ending: { reason: 'right-lost', untilMs: w.clock.now(), retryAtMs: w.clock.now() + UNSERVED_RETRY_MS } });
    w.audit.mode = 'ok';
    expect(await w.manage.current(s)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service')).toHaveLength(1);
  });

  it('an end begun by an instance that stopped is taken over once its claim has lapsed', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    w.registry.revokeAll(GUARDIAN);
    w.audit.mode = 'hang';
    void endSubscription(w.deps, s, 'right-lost');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await w.store.byId(s.id))?.ending).toBeDefined();
    w.audit.mode = 'ok';
    await endSubscription(w.deps, s, 'right-lost');
    expect(w.audit.records.filter((r) => r.delegation === 'service')).toHaveLength(0);
    w.clock.advance(ENDING_CLAIM_MS);
    await endSubscription(w.deps, s, 'right-lost');
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service')).toHaveLength(1);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
  });

  // Hostile review helper-110, F3: a handshake refused after the subscription was ended (its right gone, or
  // deleted by its person) wrote a second "ended by the service" record. Failed before: two records, one for the deleted.
  it('a refused handshake of one already ended or deleted writes no record of its own', async () => {
    const w = world('no release policy');
    const refuse: (() => void)[] = [];
    w.channel.answer = () => new Promise((resolve) => void refuse.push(() => resolve({ kind: 'refused', status: 500 })));
    const ended = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    const deleted = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf('https://hooks.example/b') }, noop);
    await w.send.turn();
    // Both handshakes sent and waiting for their answers before the right ends: the check at sending decides the
    // basis again after its EHR read (helper-137, F1), so they reach the channel a few turns later than the turn itself.
    await vi.waitFor(() => expect(refuse).toHaveLength(2));
    w.registry.revokeAll(GUARDIAN);
    await w.manage.current(ended);
    await w.manage.remove(subscriber(GUARDIAN), deleted.id, noop);
    expect(refuse).toHaveLength(2);
    for (const r of refuse) r();
    await w.send.settled();
    expect(w.audit.records.filter((r) => r.operation === 'unsubscribeJournalNote' && r.delegation === 'service').map((r) => r.patientId)).toEqual([CHILD]);
    expect(await w.store.byId(ended.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
  });

  // Hostile review helper-112, a note: read past its `end`, it said `active` until its next turn.
  it('read past its end, it is ended then, as its turn would end it', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf(), endMs: w.clock.now() + 1000 }, noop);
    w.clock.advance(2000);
    expect(await w.manage.current(s)).toMatchObject({ status: 'off', endReason: 'ended' });
  });
});

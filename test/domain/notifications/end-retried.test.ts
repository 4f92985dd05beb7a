/**
 * docs/notifications.md#checked-at-sending: an end that was begun and not finished (its claimer stopped on
 * the way, or its audit record could not be written) is work of its own. A turn takes it up when its claim
 * lapses or its retry comes, whatever else the subscription has to do, and checks the right again first.
 */
import { describe, expect, it } from 'vitest';
import { UNSERVED_RETRY_MS } from '../../../src/domain/notifications/lifecycle.js';
import { ENDING_CLAIM_MS, EndNotRecordedError, endSubscription } from '../../../src/domain/notifications/notification-deps.js';
import { CHILD, channelOf, claimEnd, GUARDIAN, guardianWithEventWaiting, note, notes, signNewNote, subscriber, world } from './engine-world.js';

const noop = async (): Promise<void> => undefined;
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One delivery turn, waited for. */
async function turn(w: ReturnType<typeof world>): Promise<void> {
  await w.send.turn();
  await w.send.settled();
}

const endRecords = (w: ReturnType<typeof world>): number => w.audit.records.filter((r) => r.delegation === 'service' && r.operation.startsWith('unsubscribe')).length;

describe('an end begun and not finished is taken up by a turn', () => {
  // Hostile review helper-119, F2: a claim whose claimer stopped, on a subscription with nothing else to do, had no
  // due time, so no turn ended it; only a read, a poll or a feed entry did. Failed before: still active, no record.
  it('one with no work whose claimer stopped is ended by the turn after the claim lapses', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active' });
    expect((await w.store.byId(s.id))?.dueMs).toBeUndefined();
    w.grants.revoked.add('grant-1');
    w.audit.mode = 'hang';
    void endSubscription(w.deps, s, 'app-revoked');
    await settle();
    expect((await w.store.byId(s.id))?.dueMs).toBe(w.clock.now() + ENDING_CLAIM_MS);
    w.audit.mode = 'ok';
    w.clock.advance(ENDING_CLAIM_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'app-revoked' });
    expect(endRecords(w)).toBe(1);
  });

  // Hostile review helper-119, F1: a delivery under way when a read gave an unrecordable end back counted its next
  // work from its events alone, so the retry 30 s on was lost and, with nothing left to send, no turn ended it.
  // Failed before: no due time after the delivery; still active after the retry's time.
  it('a delivery under way when a read gives its end back keeps the end\'s retry', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    let answer: () => void = () => undefined;
    w.channel.answer = () => new Promise((resolve) => { answer = () => resolve({ kind: 'delivered', status: 200 }); });
    void w.send.turn();
    await settle();
    await settle();
    expect(w.channel.kinds().at(-1)).toBe('event-notification 1');
    w.registry.revokeAll(GUARDIAN);
    w.audit.mode = 'fail';
    await expect(w.manage.current(s)).rejects.toThrow(EndNotRecordedError);
    const retryMs = w.clock.now() + UNSERVED_RETRY_MS;
    answer();
    await w.send.settled();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active', deliveredThrough: 1, dueMs: retryMs });
    w.audit.mode = 'ok';
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(endRecords(w)).toBe(1);
  });

  // Hostile review helper-121, F3: an audit store may keep a record it answered as failed (the PostgreSQL trail
  // gives up at 2.5 s on a row that may yet commit), so an end given back may have its record: it is finished as
  // begun, the right held again or not. Failed before: dropped, active, the end's record standing alone.
  it('an end given back is finished as it was begun when it is retried, though the right holds again', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    const rows = [...(w.registry.rows.get(GUARDIAN) ?? [])];
    w.registry.revokeAll(GUARDIAN);
    const append = w.audit.append.bind(w.audit);
    w.audit.append = async (record) => {
      await append(record);
      w.audit.append = append;
      throw new Error('timed out');
    };
    await expect(w.manage.current(s)).rejects.toThrow(EndNotRecordedError);
    w.registry.rows.set(GUARDIAN, rows);
    w.clock.advance(UNSERVED_RETRY_MS);
    signNewNote(w);
    await w.tick();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(w.channel.kinds()).toEqual(['handshake']);
    expect(endRecords(w)).toBe(2);
  });

  it('an end given back while the audit store is still down is tried again 30 s on, not at every turn', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    w.registry.revokeAll(GUARDIAN);
    let tries = 0;
    w.audit.refuse = (r) => r.operation.startsWith('unsubscribe') && ++tries > 0;
    await expect(w.manage.current(s)).rejects.toThrow(EndNotRecordedError);
    expect(tries).toBe(1);
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(tries).toBe(2);
    for (let i = 0; i < 5; i++) {
      w.clock.advance(1000);
      await turn(w);
    }
    expect(tries).toBe(2);
    w.audit.refuse = undefined;
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(endRecords(w)).toBe(1);
  });

  // Hostile review helper-120, F1: a turn decided every end left again by the right alone. An end whose claimer
  // stopped after writing its record was dropped once the right held again, the record standing for an end that
  // never came; and an endpoint's failure, whose record could not be written, was dropped and the endpoint sent to
  // again. Failed before: still active after the turn, and a second handshake.
  it('an end whose record may stand is finished, the right held again or not', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    // Its claimer wrote the record and stopped before the end (its right is not looked at again).
    await claimEnd(w, s.id, 'stopped');
    w.clock.advance(ENDING_CLAIM_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(w.channel.kinds()).toEqual(['handshake']);
    expect(endRecords(w)).toBe(1);
  });

  it('an end for a refused handshake, given back unrecorded, is finished at its retry without a second handshake', async () => {
    const w = world('no release policy');
    w.channel.answer = async () => ({ kind: 'refused', status: 500 });
    w.audit.refuse = (r) => r.operation.startsWith('unsubscribe');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'requested', ending: { reason: 'handshake-failed', retryAtMs: w.clock.now() + UNSERVED_RETRY_MS } });
    w.audit.refuse = undefined;
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'error', endReason: 'handshake-failed' });
    expect(w.channel.kinds()).toEqual(['handshake']);
    expect(endRecords(w)).toBe(1);
  });

  it('an end taken over from a claim that lapsed and then given back is finished, not decided again', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    await claimEnd(w, s.id, 'stopped');
    w.clock.advance(ENDING_CLAIM_MS);
    w.audit.mode = 'fail';
    await expect(endSubscription(w.deps, s, 'right-lost')).rejects.toThrow(EndNotRecordedError);
    w.audit.mode = 'ok';
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(w.channel.kinds()).toEqual(['handshake']);
  });

  // Hostile review helper-120, F3: with the EHR not answering, a read returned the subscription as kept before it
  // looked at the claim, so it said `active` while another instance was writing its end. Failed before: active.
  it('a read while another instance holds its end shows that end, though the EHR cannot answer', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    const atMs = await claimEnd(w, s.id, 'another instance');
    w.deps.right.check = async () => {
      throw new Error('EHR down');
    };
    w.clock.advance(1000);
    const held = await w.store.byId(s.id);
    expect(await w.manage.current(held ?? s)).toMatchObject({ status: 'off', endReason: 'right-lost', changedMs: atMs });
  });

  // Hostile review helper-121, F1: a turn taking up a lapsed claim whose own claim could not be kept (the store timed
  // out once) was put off 30 s as an end given back unrecorded, then decided again and dropped, the stopped claimer's
  // record standing alone. Failed before: active after the retry, event 1 sent.
  it('an end whose record may stand is finished after its turn could not claim it once', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    await claimEnd(w, s.id, 'stopped');
    w.clock.advance(ENDING_CLAIM_MS);
    const update = w.store.update.bind(w.store);
    w.store.update = async () => {
      w.store.update = update;
      throw new Error('statement timeout');
    };
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active' });
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    expect(w.channel.kinds()).toEqual(['handshake']);
  });

  // Hostile review helper-121, F4: its `end` passing, a poll or a read finished an end begun for another reason with
  // their own, so an app was never told its endpoint had failed. Failed before: off, ended.
  it('an end begun is finished with its own reason, though the subscription\'s end passed meanwhile', async () => {
    const w = world('no release policy');
    w.channel.answer = async () => ({ kind: 'refused', status: 500 });
    w.audit.refuse = (r) => r.operation.startsWith('unsubscribe');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf(), endMs: w.clock.now() + 10_000 }, noop);
    await turn(w);
    w.audit.refuse = undefined;
    w.clock.advance(UNSERVED_RETRY_MS);
    await turn(w);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'error', endReason: 'handshake-failed' });
  });

  // Hostile review helper-121, F5: a turn under way went on to its next notification after another instance claimed
  // the end. Failed before: event 2 sent.
  it('a turn under way sends nothing more once another instance claims the end', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), maxCount: 1 } }, noop);
    await w.tick();
    w.ehr.withPatient(CHILD, { ...w.ehr.patients.get(CHILD), getJournalNotes: notes(note('n-old', '20261001090000', '20261001100000'), note('n-a', '20261126100500', '20261126100500'), note('n-b', '20261126100600', '20261126100600')) });
    w.clock.advance(60_000);
    await w.poll();
    w.channel.answer = async () => {
      await claimEnd(w, s.id, 'another instance');
      return { kind: 'delivered', status: 200 };
    };
    await turn(w);
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1']);
  });

  // Hostile review helper-122, F1: within one notification, a turn sent it after a read had found the right lost and
  // begun (or finished) the end while the turn's reads and record were made. Failed before: event 1 sent after the
  // read answered `off`.
  it('a notification is not sent when its end was begun while its record was written', async () => {
    const w = world('no release policy');
    const s = await guardianWithEventWaiting(w);
    const append = w.audit.append.bind(w.audit);
    let recorded: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { recorded = resolve; });
    w.audit.append = async (record) => {
      if (record.operation.startsWith('notify')) await held;
      return append(record);
    };
    const turned = turn(w);
    await settle();
    await settle();
    w.registry.revokeAll(GUARDIAN);
    expect(await w.manage.current(s)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    recorded();
    await turned;
    expect(w.channel.kinds()).toEqual(['handshake']);
  });

  // Hostile review helper-123, F1: a heartbeat whose right check was under way when a read found the right lost and
  // ended the subscription went all the same, telling the receiver it was active. Failed before: a heartbeat sent.
  it('a heartbeat is not sent when its end was begun while its right was checked', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), heartbeatSeconds: 60 } }, noop);
    await turn(w);
    w.clock.advance(60_000);
    const check = w.deps.right.check.bind(w.deps.right);
    let checked: () => void = () => undefined;
    const held = new Promise<void>((resolve) => { checked = resolve; });
    w.deps.right.check = async (sub) => {
      const right = await check(sub);
      await held;
      return right;
    };
    const turned = turn(w);
    await settle();
    await settle();
    w.deps.right.check = check;
    w.registry.revokeAll(GUARDIAN);
    expect(await w.manage.current(s)).toMatchObject({ status: 'off', endReason: 'right-lost' });
    checked();
    await turned;
    expect(w.channel.kinds()).toEqual(['handshake']);
  });

  // Hostile review helper-124, F1: the look before the POST came after the lease was asked, so a slow read of the
  // subscription let a heartbeat start that could outlast the lease. Failed before: the heartbeat sent.
  it('a heartbeat whose look before the POST leaves too little of the lease waits for a later turn', async () => {
    const w = world('no release policy');
    await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), heartbeatSeconds: 60 } }, noop);
    await turn(w);
    w.clock.advance(60_000);
    const byId = w.store.byId.bind(w.store);
    w.store.byId = async (id) => {
      w.clock.advance(55_000);
      return byId(id);
    };
    await turn(w);
    expect(w.channel.kinds()).toEqual(['handshake']);
  });
});


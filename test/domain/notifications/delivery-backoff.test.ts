/**
 * docs/notifications.md#delivery: a failing endpoint is retried with backoff (5 s, doubling to 5 min)
 * until the retry time has passed since the first failure in a row; a heartbeat as well as events.
 */
import { describe, expect, it } from 'vitest';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { FIRST_BACKOFF_MS, UNSERVED_RETRY_MS } from '../../../src/domain/notifications/lifecycle.js';
import { CHILD, channelOf, GUARDIAN, note, notes, POLL_MS, RETRY_MS, subscriber, world } from './engine-world.js';

const noop = async (): Promise<void> => undefined;

/**
 * Makes each claim that leases something take `ms` of the world's clock after its lease was stamped, as a
 * slow store would; returns the lease instants and a way back to the plain claim.
 */
function slowClaims(w: ReturnType<typeof world>, ms: number): { leasedAt: number[]; restore: () => void } {
  const claimDue = w.store.claimDue.bind(w.store);
  const leasedAt: number[] = [];
  w.store.claimDue = async (nowMs, ...rest) => {
    leasedAt.push(nowMs);
    const got = await claimDue(nowMs, ...rest);
    if (got.length > 0) w.clock.advance(ms);
    return got;
  };
  return { leasedAt, restore: () => void (w.store.claimDue = claimDue) };
}

/** A world whose guardian's subscription (one event a notification) has `count` events numbered and none sent. */
async function eventsToSend(count = 3): Promise<ReturnType<typeof world>> {
  const w = world('no release policy');
  await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), maxCount: 1 } }, noop);
  await w.tick();
  const many = Array.from({ length: count }, (_, i) => note(`n-${i}`, '20261124090000', '20261124090000'));
  w.ehr.withPatient(CHILD, { ...w.ehr.patients.get(CHILD), getJournalNotes: notes(note('n-old', '20261001090000', '20261001100000'), ...many) });
  w.clock.advance(POLL_MS);
  await w.poll();
  return w;
}
const CLOSED = '20261001100000';

/** `turns` delivery turns, `stepMs` apart. */
async function sendTurns(w: ReturnType<typeof world>, turns: number, stepMs: number): Promise<void> {
  for (let i = 0; i < turns; i++) {
    w.clock.advance(stepMs);
    await w.send.turn();
    await w.send.settled();
  }
}

describe('delivery backs off', () => {
  // Hostile review helper-109, F1: a failing heartbeat was sent again ten times a turn, every turn, each after
  // an EHR read, outside the budget. Failed before: 160 heartbeats in 16 s.
  it('a failing heartbeat is retried after its backoff, not at once', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), heartbeatSeconds: 10 } }, noop);
    await w.tick();
    w.channel.answer = async () => ({ kind: 'refused', status: 500 });
    // The heartbeat falls due after 10 s and fails; the retries wait 5, 10 s …
    await sendTurns(w, 16, 1000);
    const beats = w.channel.kinds().filter((k) => k === 'heartbeat').length;
    expect(beats).toBeGreaterThanOrEqual(2);
    expect(beats).toBeLessThanOrEqual(3);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active', failures: beats });
    expect((await w.store.byId(s.id))?.dueMs).toBeGreaterThan(w.clock.now());
    // Taken again: the heartbeats go every 10 s, no more.
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    await sendTurns(w, 30, 1000);
    const after = w.channel.kinds().filter((k) => k === 'heartbeat').length - beats;
    expect(after).toBeGreaterThanOrEqual(3);
    expect(after).toBeLessThanOrEqual(4);
  });

  // Hostile review helper-126, F2: the next attempt was set a whole backoff on, however little of the retry time
  // was left, so the last POST went up to one backoff (5 minutes) after it, the subscription `active` meanwhile.
  it('retries no later than the retry time after the first failure: the last attempt falls at its end, then `error`', async () => {
    const w = await eventsToSend(1);
    const attempts: number[] = [];
    w.channel.answer = async () => {
      attempts.push(w.clock.now());
      return { kind: 'refused', status: 500 };
    };
    await sendTurns(w, (RETRY_MS + 10 * 60_000) / 10_000, 10_000);
    const [first] = attempts;
    const last = attempts.at(-1) ?? 0;
    expect(first).toBeDefined();
    expect(last - (first ?? 0)).toBeLessThanOrEqual(RETRY_MS + 10_000);
    expect(last - (first ?? 0)).toBeGreaterThanOrEqual(RETRY_MS);
    const [s] = await w.store.ofSubscriber(GUARDIAN, 'patient-app');
    expect(s).toMatchObject({ status: 'error', endReason: 'delivery-failed', changedMs: last });
  });

  // Hostile review helper-109, F2: events passed over (their records withheld since) left the failure streak
  // open with nothing to retry; one failure past the retry time later ended the subscription at once.
  it('a failure after events were passed over, with nothing left to retry, starts a new streak', async () => {
    const w = world();
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    const set = (...extracts: ReturnType<typeof note>[]): void => void w.ehr.withPatient(CHILD, { ...w.ehr.patients.get(CHILD), getJournalNotes: notes(...extracts) });
    w.channel.answer = async () => ({ kind: 'refused', status: 500 });
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'));
    await w.tick();
    // Signed again: withheld by the signing delay; the retry passes event 1 over.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100', 'Rättad'));
    w.clock.advance(FIRST_BACKOFF_MS);
    await w.tick();
    expect(await w.store.byId(s.id)).toMatchObject({ eventCount: 1, deliveredThrough: 1 });
    // Well past the retry time, one failure of a new event is retried, not the end.
    w.clock.advance(RETRY_MS + 60_000);
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100', 'Rättad'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active', eventCount: 2, deliveredThrough: 1, failures: 1 });
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(FIRST_BACKOFF_MS);
    await w.tick();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active', deliveredThrough: 2, failures: 0 });
  });

  // Hostile review helper-110, F1: an EHR that could not answer the check before a delivery had the
  // subscription served again every turn (27 failed reads in 30 s), outside the budget. Failed before: 16 reads in 16 turns.
  it('a subscription the EHR cannot be read for is served again after a pause, not every turn', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), heartbeatSeconds: 10 } }, noop);
    await w.tick();
    w.ehr.failure = new EhrError('bad-response', 'the patient document could not be read');
    const before = w.ehr.calls.length;
    await sendTurns(w, 16, 1000);
    expect(w.ehr.calls.length - before).toBeLessThanOrEqual(1);
    expect((await w.store.byId(s.id))?.dueMs).toBeGreaterThan(w.clock.now());
    // Read again: served at its next turn after the pause.
    w.ehr.failure = undefined;
    await sendTurns(w, UNSERVED_RETRY_MS / 1000, 1000);
    expect(w.channel.kinds()).toContain('heartbeat');
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active' });
  });

  // Hostile review helper-111, F1: each new entry of the access log made a feed subscription due at once,
  // undoing the pause, so anyone's refused requests had the engine read a failing document every second.
  // Failed before: 16 reads in 16 s.
  it('the pause holds for a feed subscription while new entries come in', async () => {
    const w = world('no release policy');
    await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    w.ehr.failure = new EhrError('bad-response', 'the patient document could not be read');
    const before = w.ehr.calls.length;
    for (let i = 0; i < 16; i++) {
      w.clock.advance(1000);
      w.auditFeed.records.push({ outcome: 'allowed', status: 200, patientId: CHILD, timeMs: w.clock.now(), requestId: `aaaaaaaa-${i}`, operation: 'getJournalNotes', actorPersonId: GUARDIAN });
      await w.feeds.turn();
      await w.send.turn();
      await w.send.settled();
    }
    expect(w.ehr.calls.length - before).toBeLessThanOrEqual(1);
    w.ehr.failure = undefined;
    await sendTurns(w, UNSERVED_RETRY_MS / 1000, 1000);
    expect(w.channel.kinds()).toEqual(['handshake', `event-notification ${Array.from({ length: 16 }, (_, i) => i + 1).join(',')}`]);
  });

  // Hostile review helper-112, F3: one serve sent up to ten notifications of up to 30 s each, past its lease, so
  // another instance could take the subscription and send the same events again. Failed before: 6 in one serve.
  it('a serve starts no notification that could outlast its lease', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: { ...channelOf(), maxCount: 1 } }, noop);
    await w.tick();
    const many = Array.from({ length: 6 }, (_, i) => note(`n-${i}`, '20261124090000', '20261124090000'));
    w.ehr.withPatient(CHILD, { ...w.ehr.patients.get(CHILD), getJournalNotes: notes(note('n-old', '20261001090000', '20261001100000'), ...many) });
    // Each notification takes 20 s of the 60 s lease, its timeout 10 s.
    w.channel.answer = async () => {
      w.clock.advance(20_000);
      return { kind: 'delivered', status: 200 };
    };
    await w.tick();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1', 'event-notification 2', 'event-notification 3']);
    expect((await w.store.byId(s.id))?.deliveredThrough).toBe(3);
    await w.send.turn();
    await w.send.settled();
    expect((await w.store.byId(s.id))?.deliveredThrough).toBe(6);
  });

  // Hostile review helper-113, F1: the lease was checked before the EHR reads that precede a send, so slow
  // reads let a notification start that outlasted the lease. Failed before: event 2 in the same serve.
  it('the lease is checked again after the reads before a send, not only before them', async () => {
    const w = await eventsToSend();
    const reads = w.ehr.reads as { -readonly [R in keyof typeof w.ehr.reads]: (typeof w.ehr.reads)[R] };
    const read = reads.getJournalNotes;
    // Each read before a send takes 25 s, each send 20 s, of the 60 s lease; the timeout is 10 s.
    reads.getJournalNotes = async (...args: Parameters<typeof read>) => {
      w.clock.advance(25_000);
      return read(...args);
    };
    w.channel.answer = async () => {
      w.clock.advance(20_000);
      return { kind: 'delivered', status: 200 };
    };
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1']);
    expect(w.audit.records.filter((r) => r.operation === 'notifyJournalNote')).toHaveLength(1);
  });

  // Hostile review helper-114, F3: the audit record was written after the lease's last check, so a slow audit
  // store let a POST start that outlasted the lease (0.8-1.7 s past it, measured). Failed before: events 1 and 2.
  it('the time its audit record may take is counted into the lease before a send, and the lease asked again after it', async () => {
    const w = await eventsToSend();
    const append = w.audit.append.bind(w.audit);
    // Of the 60 s lease a send takes 48 s (timeout 10 s): 2 s are left, too few for the audit's allowance.
    w.channel.answer = async () => {
      w.clock.advance(48_000);
      return { kind: 'delivered', status: 200 };
    };
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1']);
    expect(w.audit.records.filter((r) => r.operation === 'notifyJournalNote')).toHaveLength(1);
    // An audit slower than its allowance (51 s): asked again after it, the lease is too short for the POST.
    w.audit.append = async (record) => {
      if (record.operation === 'notifyJournalNote') w.clock.advance(51_000);
      return append(record);
    };
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1']);
    // Its record stays (it cannot be taken back); the next turn sends events 2 and 3, each with a record of its own.
    w.audit.append = append;
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1', 'event-notification 2', 'event-notification 3']);
    expect(w.audit.records.filter((r) => r.operation === 'notifyJournalNote')).toHaveLength(4);
  });

  // Hostile review helper-115, F1: the lease was counted from when the serve began, not from when it was taken,
  // so the time the claim took (a pooled connection's wait, the statement) was not counted. Failed before: a POST
  // whose deadline fell 2 s past the lease.
  it('the lease is counted from when it was taken, the claim\'s own time included', async () => {
    const w = await eventsToSend(8);
    const { leasedAt } = slowClaims(w, 7_000);
    const started: number[] = [];
    w.channel.answer = async () => {
      started.push(w.clock.now());
      w.clock.advance(9_000);
      return { kind: 'delivered', status: 200 };
    };
    await w.send.turn();
    await w.send.settled();
    const leaseEnd = (leasedAt[0] ?? Number.NaN) + 60_000;
    expect(started.length).toBeGreaterThan(0);
    expect(started.filter((at) => at + 10_000 > leaseEnd)).toEqual([]);
  });

  // Hostile review helper-116, a note: a turn under way when the subscription's `end` passed went on sending,
  // though no notification goes after its end. Failed before: event 3, sent 40 s in, past the end at 30 s.
  it('a turn sends nothing once the subscription\'s end has passed, and the next ends it', async () => {
    const w = await eventsToSend(3);
    const [s] = await w.store.ofSubscriber(GUARDIAN, 'patient-app');
    if (s === undefined) throw new Error('no subscription');
    await w.store.update(s.id, (current) => ({ subscription: { ...current, endMs: w.clock.now() + 30_000 } }));
    w.channel.answer = async () => {
      w.clock.advance(20_000);
      return { kind: 'delivered', status: 200 };
    };
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1', 'event-notification 2']);
    await w.send.turn();
    await w.send.settled();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'ended', deliveredThrough: 2 });
  });

  // Hostile review helper-117, F2: the record was written, then its end passed during it, and nothing was sent
  // then or ever: the log said the app was told. Failed before: a notifyJournalNote record with nothing sent.
  it('writes no record of a notification its end leaves no time for; once recorded, one goes', async () => {
    const w = await eventsToSend(2);
    const [s] = await w.store.ofSubscriber(GUARDIAN, 'patient-app');
    if (s === undefined) throw new Error('no subscription');
    const append = w.audit.append.bind(w.audit);
    w.audit.append = async (record) => {
      if (record.operation === 'notifyJournalNote') w.clock.advance(2_500);
      return append(record);
    };
    await w.store.update(s.id, (current) => ({ subscription: { ...current, endMs: w.clock.now() + 4_000 } }));
    await w.send.turn();
    await w.send.settled();
    // Event 1: recorded with 4 s left, sent though its end passed during its 2.5 s record; event 2: 1.5 s left, none.
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1']);
    expect(w.audit.records.filter((r) => r.operation === 'notifyJournalNote')).toHaveLength(1);
    // No turn is due for event 2 before the end; at the end, the turn ends it.
    expect((await w.store.byId(s.id))?.dueMs).toBe((await w.store.byId(s.id))?.endMs);
    w.clock.advance(2_000);
    await w.send.turn();
    await w.send.settled();
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'off', endReason: 'ended', deliveredThrough: 1 });
  });

  // Hostile review helper-117, F5: with room in the lease for a POST but not for its record, one turn read the EHR
  // ten times and sent nothing. Failed before: ten reads.
  it('a lease with no room for the record and the POST reads nothing', async () => {
    const w = await eventsToSend(1);
    const reads = w.ehr.reads as { -readonly [R in keyof typeof w.ehr.reads]: (typeof w.ehr.reads)[R] };
    const read = reads.getJournalNotes;
    let count = 0;
    reads.getJournalNotes = async (...args: Parameters<typeof read>) => {
      count++;
      return read(...args);
    };
    slowClaims(w, 48_000);
    await w.send.turn();
    await w.send.settled();
    expect(count).toBe(0);
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual([]);
  });

  // Hostile review helper-118, F1: in its last 3 s, a due heartbeat had it leased every turn with nothing done.
  it('in its last seconds a heartbeat goes, and events it has no time for wait for the end, not each turn', async () => {
    const w = await eventsToSend(1);
    const [s] = await w.store.ofSubscriber(GUARDIAN, 'patient-app');
    if (s === undefined) throw new Error('no subscription');
    const endMs = w.clock.now() + 2_500;
    await w.store.update(s.id, (current) => ({ subscription: { ...current, endMs, channel: { ...current.channel, heartbeatSeconds: 10 }, lastSentMs: w.clock.now() - 20_000 } }));
    await w.send.turn();
    await w.send.settled();
    expect((await w.store.byId(s.id))?.dueMs).toBe(endMs);
    // Without events, a due heartbeat needs no record: it goes.
    await w.store.update(s.id, (current) => ({ subscription: { ...current, deliveredThrough: current.eventCount, dueMs: w.clock.now() } }));
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().at(-1)).toBe('heartbeat');
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual([]);
  });

  it('a handshake that could outlast the lease waits for a later turn', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
    const slow = slowClaims(w, 55_000);
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds()).toEqual([]);
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'requested' });
    slow.restore();
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds()).toEqual(['handshake']);
  });
});

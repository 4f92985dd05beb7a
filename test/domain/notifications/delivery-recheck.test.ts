/**
 * docs/notifications.md#checked-at-sending: an event goes out only while its person may still see its
 * record. Numbered while released, a record withheld before its delivery (a note signed again, held back
 * by the signing delay; retries of a failing endpoint) is not told; the events beside it still are.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_BACKOFF_MS } from '../../../src/domain/notifications/lifecycle.js';
import { CHILD, channelOf, GUARDIAN, note, notes, POLL_MS, subscriber, world } from './engine-world.js';

const noop = async (): Promise<void> => undefined;
const CLOSED = '20261001100000';

/** The guardian's journal subscription, past its handshake, whose receiver now fails every delivery; `set` gives the child's notes. */
async function failingReceiver() {
  const w = world();
  const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, noop);
  await w.tick();
  const set = (...extracts: ReturnType<typeof note>[]): void => void w.ehr.withPatient(CHILD, { ...w.ehr.patients.get(CHILD), getJournalNotes: notes(...extracts) });
  w.channel.answer = async () => ({ kind: 'refused', status: 500 });
  return { w, s, set };
}

describe('delivery checks each event\'s record again', () => {
  // Hostile review helper-108, F1: a retried delivery named a DiagnosticReport made secret since it was
  // numbered, which $events and the read already withheld. Failed before: event 1 was sent.
  it('an event whose record was withheld after it was numbered is not sent; the next event is, its number telling the gap', async () => {
    const { w, s, set } = await failingReceiver();
    // Signed two days ago: released at once, numbered as event 1, and its delivery fails.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'));
    await w.tick();
    expect(await w.store.byId(s.id)).toMatchObject({ eventCount: 1, deliveredThrough: 0, failures: 1 });
    // Amended and signed again just now: the signing delay of one day holds it back again.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100', 'Rättad'));
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(60_000);
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1']);
    // … it was the failed attempt; nothing more went about n-a.
    expect(w.channel.sent.slice(2)).toEqual([]);
    // Nothing left to retry: the failure streak ends with it (delivery-backoff.test.ts).
    expect(await w.store.byId(s.id)).toMatchObject({ status: 'active', eventCount: 1, deliveredThrough: 1, failures: 0 });

    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100', 'Rättad'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1', 'event-notification 2']);
    expect(JSON.stringify(w.channel.sent[2]?.bundle)).toContain('Composition/n-b');
    expect(JSON.stringify(w.channel.sent[2]?.bundle)).not.toContain('n-a');
  });

  it('of a batch, only the events whose records are withheld now are left out', async () => {
    const { w, s, set } = await failingReceiver();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100', 'Rättad'), note('n-b', '20261124090000', '20261124090000'));
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(60_000);
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1,2', 'event-notification 2']);
    expect(JSON.stringify(w.channel.sent[2]?.bundle)).not.toContain('n-a');
    expect(await w.store.byId(s.id)).toMatchObject({ deliveredThrough: 2, failures: 0 });
  });

  // Hostile review helper-109, F4: passed over while withheld, then released again as it was, the record was
  // never told, its kept view saying it had been. Failed before: nothing after the failed attempt.
  it('a record passed over and released again as it was is told then, as updated', async () => {
    const { w, s, set } = await failingReceiver();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'));
    await w.tick();
    // Signed again just now: withheld, and event 1 is passed over.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100'));
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(60_000);
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1']);
    // Released as it was first signed (the signing undone): what was passed over is told now.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'));
    await w.tick();
    expect(w.channel.kinds()).toEqual(['handshake', 'event-notification 1', 'event-notification 2']);
    expect((await w.store.events(s.id, 2, 2, 1)).map((e) => [e.focus, e.change])).toEqual([['Composition/n-a', 'updated']]);
  });

  // Hostile review helper-110, F2: the mark was kept though the notification passing it over was refused; told
  // at the retry, the record was told again as updated at the next poll. Failed before: event 3, B updated.
  it('a record left out of a notification the endpoint refused, and told at the retry, is not told again', async () => {
    const { w, s, set } = await failingReceiver();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    // n-b signed again: withheld; the retry sends event 1 alone, and it is refused.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'), note('n-b', '20261124090000', '20261126100100'));
    w.clock.advance(FIRST_BACKOFF_MS);
    await w.tick();
    // Its signing undone: released as it was, and the endpoint takes the retry with both.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'), note('n-b', '20261124090000', '20261124090000'));
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(60_000);
    await w.tick();
    await w.tick();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1,2', 'event-notification 1', 'event-notification 1,2']);
    expect(await w.store.byId(s.id)).toMatchObject({ eventCount: 2, deliveredThrough: 2 });
  });

  // Hostile review helper-111, F2: while the notification leaving a withheld record out was being sent, a poll
  // found it released and changed and numbered that; the mark kept after the send replaced what the poll had
  // kept, and the next poll told the same change again. Failed before: event 4, n-a updated twice.
  it('a poll during the notification that leaves a record out keeps what it found: the change is told once', async () => {
    const { w, s, set } = await failingReceiver();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'));
    await w.tick();
    // n-a signed again: withheld; n-b new. The retry sends event 2 alone, and it is refused.
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1', 'event-notification 2']);
    // At the next retry, while it is being sent, n-a is released changed and a poll numbers that.
    w.channel.answer = async () => {
      set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000', 'Rättad'), note('n-b', '20261124090000', '20261124090000'));
      w.clock.advance(POLL_MS);
      await w.poll();
      return { kind: 'delivered', status: 200 };
    };
    w.clock.advance(2 * FIRST_BACKOFF_MS);
    await w.tick();
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    await w.tick();
    await w.tick();
    const events = await w.store.events(s.id, 1, 9, 9);
    expect(events.map((e) => [e.number, e.focus, e.change])).toEqual([
      [1, 'Composition/n-a', 'created'], [2, 'Composition/n-b', 'created'], [3, 'Composition/n-a', 'updated'],
    ]);
  });

  // Hostile review helper-112, F1: a poll during the send that saw the record still withheld moved its kept
  // digest to "withheld", and the mark was then not kept: released unchanged, it was never told.
  // Failed before: no event 3.
  it('a poll during the send that sees the record still withheld does not stop the mark: its release is told', async () => {
    const { w, s, set } = await failingReceiver();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100'), note('n-b', '20261124090000', '20261124090000'));
    // The retry comes before any poll has seen n-a withheld; the first that does runs while it is sent.
    w.channel.answer = async () => {
      w.clock.advance(POLL_MS);
      await w.poll();
      return { kind: 'delivered', status: 200 };
    };
    w.clock.advance(FIRST_BACKOFF_MS);
    await w.send.turn();
    await w.send.settled();
    expect(w.channel.kinds().filter((k) => k.startsWith('event'))).toEqual(['event-notification 1,2', 'event-notification 2']);
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'), note('n-b', '20261124090000', '20261124090000'));
    await w.tick();
    expect((await w.store.events(s.id, 3, 9, 9)).map((e) => [e.number, e.focus, e.change])).toEqual([[3, 'Composition/n-a', 'updated']]);
  });

  // Hostile review helper-112, F2: a poll between the delivery's read of the records and its read of the kept
  // views numbered the release; the mark was kept over it, and the next poll told it again. Failed before: event 4.
  it('a poll between the delivery\'s read of the records and its mark keeps what it found: the change is told once', async () => {
    const { w, s, set } = await failingReceiver();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000'));
    await w.tick();
    set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261126100100'));
    const reads = w.ehr.reads as { -readonly [R in keyof typeof w.ehr.reads]: (typeof w.ehr.reads)[R] };
    const read = reads.getJournalNotes;
    let polling = false;
    reads.getJournalNotes = async (...args: Parameters<typeof read>) => {
      const records = await read(...args);
      if (!polling) {
        polling = true;
        // Just after the delivery has read the record withheld, it is released changed, and a poll numbers that.
        set(note('n-old', '20261001090000', CLOSED), note('n-a', '20261124090000', '20261124090000', 'Rättad'));
        w.clock.advance(POLL_MS);
        await w.poll();
      }
      return records;
    };
    w.channel.answer = async () => ({ kind: 'delivered', status: 200 });
    w.clock.advance(FIRST_BACKOFF_MS);
    await w.send.turn();
    await w.send.settled();
    reads.getJournalNotes = read;
    await w.tick();
    await w.tick();
    expect((await w.store.events(s.id, 1, 9, 9)).map((e) => [e.number, e.focus, e.change])).toEqual([[1, 'Composition/n-a', 'created'], [2, 'Composition/n-a', 'updated']]);
  });
});

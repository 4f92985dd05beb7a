/**
 * Hostile review helper-155, F1 and F2: anyone signed in could send requests the service refuses naming a
 * patient who follows their own access log. Each refusal was an entry of the feed and an event of the
 * subscription, kept for SUBSCRIPTION_EVENT_DAYS: one person's 50,000 refusals grew the store by 20.8 MB
 * (about 700 MB a day at the rate limit). And the feed read one page of 500 records a turn, so the
 * service's busier moments left the `access` topic further behind without end.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_PAGES_PER_TURN, FEED_PAGE, FollowFeeds, REFUSALS_TOLD_ONCE_MS } from '../../../src/domain/notifications/follow-feeds.js';
import { CHILD, channelOf, GUARDIAN, STRANGER, subscriber, world } from './engine-world.js';

const noop = async (): Promise<void> => undefined;

describe('the access feed under a flood', () => {
  it('tells one person\'s repeated refusals of one operation once a while, each other refusal and every access as before', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    const at = w.clock.now();
    const refused = (n: number, operation: string, timeMs = at) => ({
      outcome: 'denied' as const, status: 403, patientId: CHILD, timeMs, requestId: `${String(n).padStart(8, '0')}-r`, operation, actorPersonId: STRANGER,
    });
    w.auditFeed.records.push(...Array.from({ length: 50 }, (_, n) => refused(n, 'getLabResults', at + n * 1000)));
    w.auditFeed.records.push(refused(50, 'getJournalNotes'));
    // Another person's refusal, and an allowed read, are told as before, however many.
    w.auditFeed.records.push({ ...refused(51, 'getLabResults'), actorPersonId: GUARDIAN });
    for (const n of [52, 53]) w.auditFeed.records.push({ outcome: 'allowed', status: 200, patientId: CHILD, timeMs: at, requestId: `${n}000000-a`, operation: 'getLabResults', actorPersonId: GUARDIAN });
    await w.tick();
    expect((await w.store.events(s.id, 1, 99, 99)).map((e) => e.focus.slice(-9))).toEqual(['-00000000', '-00000050', '-00000051', '-52000000', '-53000000']);
    // Once the while is over, the same refusal is told again.
    w.auditFeed.records.push(refused(54, 'getLabResults', at + REFUSALS_TOLD_ONCE_MS));
    await w.tick();
    expect((await w.store.events(s.id, 6, 99, 99)).map((e) => e.focus.slice(-9))).toEqual(['-00000054']);
  });

  it('reads every record the trail holds in one turn, page after page, up to a bound', async () => {
    const w = world('no release policy');
    await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    const behind = FEED_PAGE * 3 + 1;
    w.auditFeed.records.push(...Array.from({ length: behind }, (_, n) => ({
      outcome: 'allowed' as const, status: 200, patientId: CHILD, timeMs: w.clock.now(), requestId: `${String(n).padStart(8, '0')}-a`, operation: 'getLabResults', actorPersonId: GUARDIAN,
    })));
    await w.feeds.turn();
    expect((await w.store.feedAfter(CHILD, 'access', 0, behind + 10)).length).toBe(behind);
    expect(await w.feeds.lagSeconds()).toBe(0);
  });

  it('says how long the feed has been behind the trail, or unable to read it, on every instance alike, and writes nothing while idle', async () => {
    const w = world('no release policy');
    const writes: string[] = [];
    const setCursor = w.store.setCursor.bind(w.store);
    w.store.setCursor = async (name, value) => { if (name !== 'audit-feed') writes.push(`${name}=${value}`); return setCursor(name, value); };
    expect(await w.feeds.lagSeconds()).toBe(0);
    for (let n = 0; n < 5; n++) await w.feeds.turn();
    // helper-159, F2: an idle feed wrote the file store whole every 10 s.
    expect([await w.feeds.lagSeconds(), writes]).toEqual([0, []]);
    const behind = FEED_PAGE * AUDIT_PAGES_PER_TURN * 2 + 1;
    w.auditFeed.records.push(...Array.from({ length: behind }, (_, n) => ({
      outcome: 'allowed' as const, status: 200, patientId: CHILD, timeMs: w.clock.now(), requestId: `${String(n).padStart(8, '0')}-a`, operation: 'getLabResults', actorPersonId: GUARDIAN,
    })));
    await w.feeds.turn();
    w.clock.advance(30_000);
    await w.feeds.turn();
    expect(await w.feeds.lagSeconds()).toBe(30);
    await w.feeds.turn();
    expect(await w.feeds.lagSeconds()).toBe(0);
    // helper-157, F3: a trail that cannot be read is no caught-up feed.
    const after = w.auditFeed.after.bind(w.auditFeed);
    w.auditFeed.after = async () => { throw new Error('the trail cannot be read'); };
    await expect(w.feeds.turn()).rejects.toThrow('the trail cannot be read');
    w.clock.advance(600_000);
    expect(await w.feeds.lagSeconds()).toBe(600);
    // helper-158, F1: another instance holding the turn changes nothing of what either tells.
    const other = new FollowFeeds(w.store, { audit: w.auditFeed, auditEventId: () => 'x' }, w.clock);
    const inTurn = w.store.inTurn.bind(w.store);
    w.store.inTurn = async () => undefined;
    await w.feeds.turn();
    expect([await w.feeds.lagSeconds(), await other.lagSeconds()]).toEqual([600, 600]);
    // helper-159, F1: the store that cannot be read either: told from what the instance knew, still growing.
    const cursor = w.store.cursor.bind(w.store);
    w.store.cursor = async () => { throw new Error('the store is down'); };
    w.clock.advance(600_000);
    expect(await w.feeds.lagSeconds()).toBe(1200);
    w.store.cursor = cursor;
    w.store.inTurn = inTurn;
    w.auditFeed.after = after;
    await other.turn();
    expect([await w.feeds.lagSeconds(), await other.lagSeconds()]).toEqual([0, 0]);
  });

  // helper-157, F2: the trails answer short pages while more waits (the PostgreSQL feed scans four rows a record
  // asked, the file feed 2 MiB, and pass over records naming nobody); a short page was taken for the end.
  it('goes on while the trail\'s position moves, whatever a page holds', async () => {
    const w = world('no release policy');
    await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    const rows = Array.from({ length: 5_000 }, (_, n) => (n % 5 === 0 ? {
      outcome: 'allowed' as const, status: 200, patientId: CHILD, timeMs: w.clock.now(), requestId: `${String(n).padStart(8, '0')}-a`, operation: 'getLabResults', actorPersonId: GUARDIAN,
    } : undefined));
    const base = w.auditFeed.records.length;
    w.auditFeed.after = async (position, limit) => {
      const from = position === undefined ? 0 : Number(position);
      const scanned = rows.slice(Math.max(0, from - base), Math.max(0, from - base) + limit * 4);
      return { records: scanned.filter((r) => r !== undefined), position: String(from + scanned.length) };
    };
    await w.feeds.turn();
    expect((await w.store.feedAfter(CHILD, 'access', 0, 9_999)).length).toBe(1_000);
  });

  // helper-157, F1 and F4; helper-158, F2.
  it('tells a refusal whose page failed when the page is read again, and an app\'s repeated refusals once, never hiding another app\'s', async () => {
    const w = world('no release policy');
    const s = await w.manage.create(subscriber(CHILD), { topic: 'access', patient: CHILD, channel: channelOf() }, noop);
    await w.tick();
    const refused = (n: number, actorPersonId?: string, clientId?: string) => ({
      outcome: 'denied' as const, status: 403, patientId: CHILD, timeMs: w.clock.now() + n, requestId: `${String(n).padStart(8, '0')}-r`, operation: 'getLabResults',
      ...(actorPersonId === undefined ? {} : { actorPersonId }), ...(clientId === undefined ? {} : { clientId }),
    });
    w.auditFeed.records.push(refused(1, STRANGER));
    const appendFeed = w.store.appendFeed.bind(w.store);
    w.store.appendFeed = async () => { throw new Error('the store failed'); };
    await expect(w.feeds.turn()).rejects.toThrow('the store failed');
    w.store.appendFeed = appendFeed;
    w.auditFeed.records.push(refused(2, undefined, 'kiosk-a'), refused(3, undefined, 'kiosk-a'), refused(4, undefined, 'kiosk-b'), refused(5), refused(6));
    await w.tick();
    expect((await w.store.events(s.id, 1, 99, 99)).map((e) => e.focus.slice(-9))).toEqual(['-00000001', '-00000002', '-00000004', '-00000005', '-00000006']);
  });
});

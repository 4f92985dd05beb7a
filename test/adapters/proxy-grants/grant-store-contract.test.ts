/**
 * The grant store's contract (src/ports/proxy-grants.port.ts), one table over the memory, file and
 * PostgreSQL stores: what is kept comes back exactly (to the millisecond), a limit holds when two
 * instances grant at once, a change is a compare-and-set with its event, `due` and `inTurn` as the
 * lapse sweep needs them, events in order, and a restart keeps everything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GrantEvent, ProxyGrantStore, StoredGrant } from '../../../src/ports/proxy-grants.port.js';
import { databaseAvailable } from '../../support/database.js';
import { ANTON, GOSTA, grantOf, MARTA, STORE_KINDS, TOLVAN, type StorePair } from './grant-stores.js';

const available = await databaseAvailable();

class Refused extends Error {}

/** Admits while the grantor has fewer than `max` grants. */
const atMost = (max: number) => (given: readonly StoredGrant[]): void => {
  if (given.length >= max) throw new Refused(`at most ${max}`);
};

const accept = (g: StoredGrant, atMs: number): [string, ['pending'], { state: 'active'; changedMs: number; granteeName: string }, GrantEvent] =>
  [g.id, ['pending'], { state: 'active', changedMs: atMs, granteeName: 'Märta Ström' },
    { grantId: g.id, kind: 'accepted', atMs, by: 'grantee', grantor: g.grantor, grantee: g.grantee }];

// A store over PostgreSQL is skipped, saying why, only where no server answers and CI is not set (test/support/database.ts).
describe.each(STORE_KINDS)('the $name grant store', (kind) => {
  describe.skipIf(kind.needsDatabase && !available)('keeps the port\'s contract', () => {
  let pair: StorePair | undefined;
  const open = async (): Promise<StorePair> => {
    pair = await kind.open();
    return pair;
  };
  afterEach(async () => {
    await pair?.cleanup();
    pair = undefined;
  });
  it('keeps a grant exactly as given, to the millisecond, and its granted event', async () => {
    const { a, b } = await open();
    const full = grantOf(TOLVAN, MARTA, { grantorName: 'Tolvan Tolvansson', validToMs: 1_766_000_000_999, purpose: 'Hjälp med provsvar', categories: ['*'] });
    const bare = grantOf(TOLVAN, ANTON, { createdMs: full.createdMs + 1, changedMs: full.createdMs + 1 });
    await a.create(full, () => undefined);
    await a.create(bare, () => undefined);
    expect(await b.byId(full.id)).toEqual(full);
    expect(await b.byId(bare.id)).toEqual(bare);
    expect(Object.keys((await b.byId(bare.id)) as object).sort()).toEqual(Object.keys(bare).sort());
    expect(await b.byId('0'.repeat(32))).toBeUndefined();
    expect(await b.involving(TOLVAN)).toEqual([full, bare]);
    expect(await b.involving(MARTA)).toEqual([full]);
    expect(await b.involving(GOSTA)).toEqual([]);
    expect((await b.events(0, 10)).map((e) => [e.kind, e.grantId, e.by, e.atMs])).toEqual([
      ['granted', full.id, 'grantor', full.createdMs], ['granted', bare.id, 'grantor', bare.createdMs]]);
  });

  it('admit sees the grantor\'s grants oldest first; its refusal keeps nothing and reaches the caller as thrown', async () => {
    const { a } = await open();
    const first = grantOf(TOLVAN, MARTA);
    const second = grantOf(TOLVAN, ANTON, { createdMs: first.createdMs + 5 });
    await a.create(second, () => undefined);
    await a.create(grantOf(GOSTA, MARTA), () => undefined);
    let seen: readonly StoredGrant[] = [];
    await a.create(first, (given) => {
      seen = given;
    });
    expect(seen.map((g) => g.id)).toEqual([second.id]);
    const refused = new Refused('no');
    const third = grantOf(TOLVAN, GOSTA);
    await expect(a.create(third, () => {
      throw refused;
    })).rejects.toBe(refused);
    expect(await a.byId(third.id)).toBeUndefined();
    expect(await a.events(0, 10)).toHaveLength(3);
  });

  it('two instances granting for one grantor at once with PROXY_MAX_GRANTS 1: exactly one grant is kept', async () => {
    const { a, b } = await open();
    const attempts = Array.from({ length: 8 }, (_, i) => grantOf(TOLVAN, [MARTA, ANTON, GOSTA][i % 3] as string));
    const results = await Promise.allSettled(attempts.map((g, i) => (i % 2 === 0 ? a : b).create(g, atMost(1))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(Refused);
    expect(await a.involving(TOLVAN)).toHaveLength(1);
    expect(await b.events(0, 100)).toHaveLength(1);
  });

  it('a change is a compare-and-set: of two at once exactly one is made, with one event; from a state not expected, nothing', async () => {
    const { a, b } = await open();
    const g = grantOf(TOLVAN, MARTA);
    await a.create(g, () => undefined);
    const [x, y] = await Promise.all([a.change(...accept(g, g.createdMs + 10)), b.change(...accept(g, g.createdMs + 20))]);
    expect([x, y].filter((r) => r !== undefined)).toHaveLength(1);
    const changed = (x ?? y) as StoredGrant;
    expect(changed).toMatchObject({ state: 'active', granteeName: 'Märta Ström' });
    expect(await b.byId(g.id)).toEqual(changed);
    const revoke: GrantEvent = { grantId: g.id, kind: 'revoked', atMs: g.createdMs + 30, by: 'support', grantor: TOLVAN, grantee: MARTA };
    expect(await a.change(g.id, ['pending'], { state: 'revoked', changedMs: g.createdMs + 30, endedBy: 'support' }, revoke)).toBeUndefined();
    expect(await a.change('f'.repeat(32), ['pending', 'active'], { state: 'revoked', changedMs: 1 }, revoke)).toBeUndefined();
    expect((await a.events(0, 10)).map((e) => e.kind)).toEqual(['granted', 'accepted']);
    const revoked = await b.change(g.id, ['pending', 'active'], { state: 'revoked', changedMs: g.createdMs + 30, endedBy: 'support' }, revoke);
    expect(revoked).toEqual({ ...changed, state: 'revoked', changedMs: g.createdMs + 30, endedBy: 'support' });
    expect(await a.byId(g.id)).toEqual(revoked);
  });

  it('activeReceivedBy answers the active grants the person received, and no other', async () => {
    const { a, b } = await open();
    const active = grantOf(TOLVAN, MARTA);
    const pending = grantOf(GOSTA, MARTA);
    const toAnton = grantOf(TOLVAN, ANTON);
    for (const g of [active, pending, toAnton]) await a.create(g, () => undefined);
    await a.change(...accept(active, active.createdMs + 1));
    await a.change(...accept(toAnton, toAnton.createdMs + 1));
    expect((await b.activeReceivedBy(MARTA)).map((g) => g.id)).toEqual([active.id]);
    expect((await b.activeReceivedBy(TOLVAN))).toEqual([]);
    await b.change(active.id, ['active'], { state: 'revoked', changedMs: active.createdMs + 2, endedBy: 'grantor' },
      { grantId: active.id, kind: 'revoked', atMs: active.createdMs + 2, by: 'grantor', grantor: TOLVAN, grantee: MARTA });
    expect(await a.activeReceivedBy(MARTA)).toEqual([]);
  });

  it('due: pending grants created by the bound, open grants whose validTo (inclusive) is past', async () => {
    const { a, b } = await open();
    const now = 1_764_200_000_500;
    const oldPending = grantOf(TOLVAN, MARTA, { createdMs: now - 1000 });
    const newPending = grantOf(TOLVAN, ANTON, { createdMs: now - 10 });
    const endsNow = grantOf(GOSTA, MARTA, { createdMs: now - 20, validToMs: now });
    const ended = grantOf(GOSTA, ANTON, { createdMs: now - 30, validToMs: now - 1 });
    const revoked = grantOf(MARTA, TOLVAN, { createdMs: now - 2000 });
    for (const g of [oldPending, newPending, endsNow, ended, revoked]) await a.create(g, () => undefined);
    await a.change(...accept(endsNow, now - 15));
    await a.change(...accept(ended, now - 15));
    await a.change(revoked.id, ['pending'], { state: 'revoked', changedMs: now - 5, endedBy: 'grantor' },
      { grantId: revoked.id, kind: 'revoked', atMs: now - 5, by: 'grantor', grantor: MARTA, grantee: TOLVAN });
    expect((await b.due(now, now - 1000)).map((g) => g.id).sort()).toEqual([oldPending.id, ended.id].sort());
    expect((await b.due(now + 1, now - 999)).map((g) => g.id).sort()).toEqual([oldPending.id, endsNow.id, ended.id].sort());
  });

  it('inTurn: while one instance holds the turn another is told no at once; afterwards it gets it', async () => {
    const { a, b } = await open();
    let inner: unknown = 'not asked';
    const outer = await a.inTurn(async () => {
      inner = await b.inTurn(async () => 'ran');
      return 'outer';
    });
    expect(outer).toBe('outer');
    expect(inner).toBeUndefined();
    expect(await b.inTurn(async () => 'ran')).toBe('ran');
    await expect(a.inTurn(async () => {
      throw new Refused('work failed');
    })).rejects.toBeInstanceOf(Refused);
    expect(await b.inTurn(async () => 'again')).toBe('again');
  });

  it('events are kept in order, numbered upwards, read after a number and at most a limit', async () => {
    const { a, b } = await open();
    const g = grantOf(TOLVAN, MARTA);
    await a.create(g, () => undefined);
    await b.change(...accept(g, g.createdMs + 1));
    await a.change(g.id, ['active'], { state: 'expired', changedMs: g.createdMs + 2 },
      { grantId: g.id, kind: 'expired', atMs: g.createdMs + 2, by: 'service', grantor: TOLVAN, grantee: MARTA });
    const all = await b.events(0, 10);
    expect(all.map((e) => [e.kind, e.by, e.atMs])).toEqual([['granted', 'grantor', g.createdMs], ['accepted', 'grantee', g.createdMs + 1], ['expired', 'service', g.createdMs + 2]]);
    const seqs = all.map((e) => e.seq as number);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(3);
    expect(await a.events(seqs[0] as number, 1)).toEqual([all[1]]);
    expect(await a.events(seqs[2] as number, 10)).toEqual([]);
  });

  it('a restart keeps every grant and event (file and PostgreSQL)', async () => {
    const p = await open();
    if (p.reopen === undefined) return;
    const g = grantOf(TOLVAN, MARTA, { validToMs: 1_766_000_000_001 });
    await p.a.create(g, () => undefined);
    const changed = await p.b.change(...accept(g, g.createdMs + 7));
    const events = await p.a.events(0, 10);
    await p.a.close();
    await p.b.close();
    const again: ProxyGrantStore = await p.reopen();
    expect(await again.byId(g.id)).toEqual(changed);
    expect(await again.activeReceivedBy(MARTA)).toEqual([changed]);
    expect(await again.events(0, 10)).toEqual(events);
  });
});
});

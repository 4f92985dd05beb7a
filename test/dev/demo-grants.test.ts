/**
 * The demo's proxy grants (src/dev/demo-grants): at the first start Märta has one active grant (from
 * Gösta) and one invitation (from Anton), nothing given by her, so Märta → Tolvan is free for the
 * browser test; a restart adds nothing, and a grant she has since ended is never brought back.
 */
import { describe, expect, it } from 'vitest';
import { MemoryGrantStore } from '../../src/adapters/proxy-grants/memory-grant-store.js';
import { seedDemoGrants } from '../../src/dev/demo-grants/seed.js';
import { DEMO_ACTOR_ID } from '../../src/dev/demo-data/people.js';
import { isCategory } from '../../src/domain/proxies/categories.js';

const clock = { now: () => Date.UTC(2026, 10, 26, 9, 0, 0) };

describe('the demo grants', () => {
  it('gives Märta one active grant and one invitation, and nothing she gave', async () => {
    const store = new MemoryGrantStore();
    expect(await seedDemoGrants(store, clock)).toBe(2);
    const grants = await store.involving(DEMO_ACTOR_ID);
    expect(grants.map((g) => [g.grantor, g.grantee, g.state])).toEqual([
      ['194608632396', DEMO_ACTOR_ID, 'active'], ['200404122384', DEMO_ACTOR_ID, 'pending'],
    ]);
    expect(grants.every((g) => g.categories.every(isCategory))).toBe(true);
    expect((await store.involving('191212121212'))).toEqual([]);
    expect((await store.activeReceivedBy(DEMO_ACTOR_ID)).map((g) => g.grantor)).toEqual(['194608632396']);
    expect((await store.events(0, 10)).map((e) => e.kind)).toEqual(['granted', 'accepted', 'granted']);
  });

  it('adds nothing on a restart, and never brings back a grant that was ended', async () => {
    const store = new MemoryGrantStore();
    await seedDemoGrants(store, clock);
    const [active] = await store.activeReceivedBy(DEMO_ACTOR_ID);
    await store.change(active?.id ?? '', ['active'], { state: 'revoked', changedMs: clock.now(), endedBy: 'grantee' },
      { grantId: active?.id ?? '', kind: 'revoked', atMs: clock.now(), by: 'grantee', grantor: active?.grantor ?? '', grantee: DEMO_ACTOR_ID });
    expect(await seedDemoGrants(store, clock)).toBe(0);
    expect((await store.involving(DEMO_ACTOR_ID)).map((g) => g.state)).toEqual(['revoked', 'pending']);
  });
});

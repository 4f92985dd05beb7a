/**
 * A live subscription that a build before kept with an end begun and no due time (hostile review helper-119 F2,
 * helper-120 F2) is made due when its claim lapsed, so that a turn takes the end up; every other keeps its due time.
 * PostgreSQL: the notifications schema's version 4 (docs/operations.md#the-notifications-schema); the file: on opening.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSubscriptionStore } from '../../../src/adapters/subscriptions/file-subscription-store.js';
import { migrateNotifications } from '../../../src/adapters/subscriptions/postgres-subscription-schema.js';
import { emptyState } from '../../../src/adapters/subscriptions/subscription-table.js';
import { adminPool, databaseAvailable } from '../../support/database.js';
import { LILLA, POSTGRES, subscriptionOf, TOLVAN, type StorePair } from './subscription-stores.js';

const available = await databaseAvailable();

const ending = { claim: '00000000-0000-4000-8000-000000000001', untilMs: 1_800_000_030_000, reason: 'right-lost' as const, atMs: 1_800_000_000_000 };

describe.skipIf(!available)('the notifications schema, version 4', () => {
  let pair: (StorePair & { schema: string }) | undefined;
  afterEach(async () => {
    await pair?.cleanup();
    pair = undefined;
  });

  it('makes an end left without a due time due when its claim lapsed, and leaves every other row as it was', async () => {
    pair = await POSTGRES.openWith();
    const { a, schema } = pair;
    const stranded = subscriptionOf(TOLVAN, LILLA, 'access');
    const due = { ...subscriptionOf(TOLVAN, TOLVAN, 'access'), dueMs: 1_800_000_000_000 };
    const { dueMs: _e, ...ended } = { ...subscriptionOf(LILLA, LILLA, 'access'), status: 'off' as const, endReason: 'right-lost' as const };
    for (const s of [stranded, due, ended]) await a.create(s, {}, () => undefined, s.createdMs);
    const { dueMs: _d, ...noDue } = stranded;
    await a.update(stranded.id, () => ({ subscription: { ...noDue, ending } }));
    await a.update(ended.id, () => ({ subscription: { ...ended, ending } }));
    expect((await a.byId(stranded.id))?.dueMs).toBeUndefined();
    // As a version 3 schema left it: the migration runs again.
    const admin = adminPool();
    try {
      await admin.query(`DELETE FROM "${schema}".schema_migrations WHERE version = 4`);
      expect(await migrateNotifications(admin, schema)).toEqual({ from: 3, to: 4 });
    } finally {
      await admin.end();
    }
    expect((await a.byId(stranded.id))?.dueMs).toBe(ending.untilMs);
    expect((await a.byId(due.id))?.dueMs).toBe(due.dueMs);
    expect((await a.byId(ended.id))?.dueMs).toBeUndefined();
  });
});

describe('the file subscription store, opened', () => {
  it('makes an end left without a due time due when its claim lapsed, and leaves every other subscription as it was', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-subscriptions-'));
    try {
      const { dueMs: _s, ...stranded } = { ...subscriptionOf(TOLVAN, LILLA, 'access'), ending };
      const due = { ...subscriptionOf(TOLVAN, TOLVAN, 'access'), dueMs: 1_800_000_000_000 };
      const { dueMs: _e, ...ended } = { ...subscriptionOf(LILLA, LILLA, 'access'), status: 'off' as const, endReason: 'right-lost' as const, ending };
      const subscriptions = Object.fromEntries([stranded, due, ended].map((s) => [s.id, s]));
      await writeFile(path.join(dir, 'subscriptions.json'), JSON.stringify({ ...emptyState(), subscriptions }), { mode: 0o600 });
      const store = await FileSubscriptionStore.open(dir);
      try {
        expect((await store.byId(stranded.id))?.dueMs).toBe(ending.untilMs);
        expect((await store.byId(due.id))?.dueMs).toBe(due.dueMs);
        expect((await store.byId(ended.id))?.dueMs).toBeUndefined();
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

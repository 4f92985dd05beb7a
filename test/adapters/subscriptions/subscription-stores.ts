/**
 * The subscription stores the contract (subscription-store-contract.test.ts) runs over, each as a pair
 * of instances sharing what they keep (two processes' stores over one file or one database; one
 * object for the memory store), and how to make one again as after a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StoredSubscription } from '../../../src/domain/notifications/subscription.js';
import type { TopicName } from '../../../src/domain/notifications/topics.js';
import { MemorySubscriptionStore } from '../../../src/adapters/subscriptions/memory-subscription-store.js';
import { FileSubscriptionStore } from '../../../src/adapters/subscriptions/file-subscription-store.js';
import { PostgresSubscriptionStore, type PostgresSubscriptionStoreOptions } from '../../../src/adapters/subscriptions/postgres-subscription-store.js';
import type { SubscriptionStore } from '../../../src/ports/subscription-store.port.js';
import { databaseUrl, storesOnFreshSchema } from '../../support/database.js';

export interface StorePair {
  a: SubscriptionStore;
  b: SubscriptionStore;
  /** The store as a new process would open it; undefined where nothing outlives the process (memory). */
  reopen?: () => Promise<SubscriptionStore>;
  cleanup(): Promise<void>;
}

export interface StoreKind {
  name: string;
  needsDatabase: boolean;
  /** Whether two instances share leases, turns and poll times (two processes over PostgreSQL do; one process's file store keeps them itself). */
  sharesLeases: boolean;
  open(): Promise<StorePair>;
}

export const MEMORY: StoreKind = {
  name: 'memory', needsDatabase: false, sharesLeases: true,
  open: async () => {
    const store = new MemorySubscriptionStore();
    return { a: store, b: store, cleanup: async () => store.close() };
  },
};

export const FILE: StoreKind = {
  name: 'file', needsDatabase: false, sharesLeases: true,
  open: async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-subscriptions-'));
    const store = await FileSubscriptionStore.open(dir);
    const opened: SubscriptionStore[] = [store];
    return {
      a: store, b: store,
      reopen: async () => {
        const again = await FileSubscriptionStore.open(dir);
        opened.push(again);
        return again;
      },
      cleanup: async () => {
        for (const s of opened) await s.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

/** Two instances' stores over one fresh schema (two pools, as two processes have); `reopen` is a third, as after a restart. */
export const POSTGRES: StoreKind & { openWith(options?: Partial<PostgresSubscriptionStoreOptions>): Promise<StorePair & { schema: string }> } = {
  name: 'postgresql', needsDatabase: true, sharesLeases: true,
  open: () => POSTGRES.openWith(),
  openWith: (options = {}) => storesOnFreshSchema('notifications_test', (schema) => PostgresSubscriptionStore.open({ connectionString: databaseUrl(), schema, ...options })),
};

export const TOLVAN = '191212121212';
export const MARTA = '198112189876';
export const LILLA = '201701012393';

let serial = 0;

/** A subscription of `personId` through `clientId` to `topic` of `patient`, with every optional member set where `full`. */
export function subscriptionOf(personId: string, patient: string, topic: TopicName, over: Partial<StoredSubscription> = {}, clientId = 'patient-app'): StoredSubscription {
  const n = serial++;
  const createdMs = 1_795_000_000_000 + n * 1000;
  return {
    id: `${n.toString(16).padStart(8, '0')}${'a'.repeat(24)}`,
    subscriber: { issuer: 'https://issuer.example', subject: `sub-${personId}`, personId, clientId },
    patient, topic,
    channel: { endpoint: 'https://hooks.example/notify', headers: ['Authorization: Bearer secret-of-the-app'], payload: 'id-only', timeoutSeconds: 10 },
    status: 'requested', createdMs, changedMs: createdMs, eventCount: 0, deliveredThrough: 0, failures: 0, dueMs: createdMs,
    ...over,
  };
}

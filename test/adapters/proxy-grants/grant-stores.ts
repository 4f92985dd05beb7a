/**
 * The three grant stores as the port's contract test drives them: two instances over one place
 * (two pools on one schema, two processes' stores on one DATA_DIR; the memory store is one process),
 * and a restart where the store keeps anything.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileGrantStore } from '../../../src/adapters/proxy-grants/file-grant-store.js';
import { MemoryGrantStore } from '../../../src/adapters/proxy-grants/memory-grant-store.js';
import { PostgresGrantStore } from '../../../src/adapters/proxy-grants/postgres-grant-store.js';
import type { ProxyGrantStore, StoredGrant } from '../../../src/ports/proxy-grants.port.js';
import { newGrantId } from '../../../src/adapters/proxy-grants/new-grant-id.js';
import { databaseUrl, storesOnFreshSchema } from '../../support/database.js';

export interface StorePair {
  /** One instance, and another over the same grants. */
  a: ProxyGrantStore;
  b: ProxyGrantStore;
  /** A new instance after `a` and `b` closed (a restart); undefined for a store that keeps nothing. */
  reopen: (() => Promise<ProxyGrantStore>) | undefined;
  cleanup(): Promise<void>;
}

export interface StoreKind {
  name: string;
  needsDatabase: boolean;
  open(): Promise<StorePair>;
}

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'memory', needsDatabase: false,
    open: async () => {
      const a = new MemoryGrantStore();
      return { a, b: a, reopen: undefined, cleanup: () => a.close() };
    },
  },
  {
    name: 'file', needsDatabase: false,
    open: async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'pdas-grants-'));
      const opened: ProxyGrantStore[] = [await FileGrantStore.open(dir), await FileGrantStore.open(dir)];
      return {
        a: opened[0] as ProxyGrantStore, b: opened[1] as ProxyGrantStore,
        reopen: async () => {
          const s = await FileGrantStore.open(dir);
          opened.push(s);
          return s;
        },
        cleanup: async () => {
          await Promise.all(opened.map((s) => s.close()));
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgresql', needsDatabase: true,
    open: () => storesOnFreshSchema('proxy_test', (schema) => PostgresGrantStore.open({ connectionString: databaseUrl(), schema })),
  },
];

/** Synthetic identity numbers (the demo people's, src/dev/demo-data/people.ts). */
export const TOLVAN = '191212121212';
export const MARTA = '198112189876';
export const ANTON = '200404122384';
export const GOSTA = '194608632396';

/** A grant as the use case makes one; times with milliseconds, so a store that rounds them shows. */
export function grantOf(grantor: string, grantee: string, over: Partial<StoredGrant> = {}): StoredGrant {
  return {
    id: newGrantId(), state: 'pending', grantor, grantee, categories: ['LabResult', 'JournalNote'],
    validFromMs: 1_764_150_000_123, createdMs: 1_764_150_000_123, changedMs: 1_764_150_000_123, ...over,
  };
}

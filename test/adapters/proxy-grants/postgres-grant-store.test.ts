/**
 * What is the PostgreSQL store's alone: a database that does not answer is ProxyGrantsUnavailableError
 * (503, nothing granted or opened) on every method, the start goes on without it, and the hot path's
 * query is the one the partial index on active grants serves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGrantStore } from '../../../src/start/proxy-grants.js';
import { PostgresGrantStore } from '../../../src/adapters/proxy-grants/postgres-grant-store.js';
import { ProxyGrantsUnavailableError } from '../../../src/ports/proxy-grants.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema, urlVia } from '../../support/database.js';
import { grantOf, MARTA, TOLVAN } from './grant-stores.js';

const available = await databaseAvailable();

describe('the PostgreSQL grant store with the database down', () => {
  it('opens all the same, and answers ProxyGrantsUnavailableError from every method', async () => {
    const store = await PostgresGrantStore.open({ connectionString: urlVia(1), connectTimeoutMs: 500 });
    try {
      const g = grantOf(TOLVAN, MARTA);
      const event = { grantId: g.id, kind: 'accepted' as const, atMs: 1, by: 'grantee' as const, grantor: TOLVAN, grantee: MARTA };
      for (const call of [
        () => store.create(g, () => undefined), () => store.byId(g.id), () => store.involving(TOLVAN), () => store.activeReceivedBy(MARTA),
        () => store.change(g.id, ['pending'], { state: 'active', changedMs: 1 }, event), () => store.due(1, 1), () => store.events(0, 1),
        () => store.inTurn(async () => 'ran'),
      ]) {
        await expect(call()).rejects.toBeInstanceOf(ProxyGrantsUnavailableError);
      }
    } finally {
      await store.close();
    }
  });
});

describe('the store the service opens (docs/contract.md §11 "Kept")', () => {
  it('is PostgreSQL when DATABASE_URL is set, else the file in DATA_DIR', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-grant-select-'));
    try {
      const shared = await openGrantStore({ databaseUrl: urlVia(1), dataDir });
      const file = await openGrantStore({ databaseUrl: undefined, dataDir });
      expect([shared.kind, file.kind]).toEqual(['postgresql', 'file']);
      await Promise.all([shared.close(), file.close()]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!available)('the PostgreSQL grant store\'s hot path', () => {
  const schema = freshSchema('proxy_index');
  const admin = adminPool();
  afterAll(async () => {
    await dropSchema(admin, schema);
    await admin.end();
  });

  it('activeReceivedBy is served by the partial index on active grants by grantee', async () => {
    const store = await PostgresGrantStore.open({ connectionString: databaseUrl(), schema });
    await store.close();
    const client = await admin.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM "${schema}".grants WHERE grantee = '${MARTA}' AND state = 'active' ORDER BY created, id`);
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('grants_active_grantee');
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

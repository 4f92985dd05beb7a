/**
 * The service's pools (bounded-client.ts outlivingConnections): a connection the server ends while a unit of
 * work waits on it (a failover, an administrator's pg_terminate_backend) fails that work, and only that work.
 * Hostile review helper-121, outside its scope: the driver's `error` event on a checked-out connection had no
 * listener, so it ended the process. Failed before: an uncaught 'error' event, in the audit store's pool (which
 * the notifications and proxy-grant stores use too) and in the sign-in state's.
 */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { auditPool } from '../../../src/adapters/audit-postgres/audit-pool.js';
import { pooledTransaction, withBoundedClient } from '../../../src/adapters/audit-postgres/bounded-client.js';
import { signInPool } from '../../../src/adapters/auth-server/region-auth-server.js';
import { databaseAvailable, databaseUrl } from '../../support/database.js';

const available = await databaseAvailable();

const pools: [string, () => pg.Pool][] = [
  ['the audit store\'s', () => auditPool({ connectionString: databaseUrl(), poolMax: 2 })],
  ['the sign-in state\'s', () => signInPool(databaseUrl())],
];

describe.skipIf(!available).each(pools)('%s pool, whose connection the server ends under a unit of work', (_name, makePool) => {
  it.each([
    ['a transaction', (pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>) => pooledTransaction(pool, work)],
    ['a bounded unit of work', (pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>) => withBoundedClient(pool, 20_000, work)],
  ])('fails %s and leaves the process and the pool to go on', async (_kind, run) => {
    const pool = makePool();
    const admin = makePool();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      let pid: number | undefined;
      const work = run(pool, async (client) => {
        pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
        await client.query('SELECT pg_sleep(4)');
      });
      const failed = expect(work).rejects.toThrow();
      while (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await failed;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
      expect(await pooledTransaction(pool, async (client) => (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one)).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
      await admin.end();
      await pool.end();
    }
  });
});

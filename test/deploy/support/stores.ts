/**
 * The shared stores of one run: a PostgreSQL database of its own (the service always writes to
 * schema `audit`, so a fresh database, not a fresh schema, keeps runs apart), dropped afterwards, and
 * the run's rate-limit counters in Redis (under subscription names no other run uses), deleted
 * afterwards. The admin URLs are DATABASE_URL and REDIS_URL when set, else the local servers.
 */
import pg from 'pg';
import { redisClient, redisKeys } from '../../../scripts/soak/infra.js';
import { databaseUrl } from '../../support/database.js';
import { redisUrl } from '../../support/redis.js';

export { auditRows, databaseUrlFor, type AuditRow } from '../../../scripts/soak/infra.js';
export { databaseUrl as adminDatabaseUrl, redisUrl };

const NAME = /^pdas_deploy_[a-f0-9]{8}$/;

async function asAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createDatabase(name: string): Promise<void> {
  if (!NAME.test(name)) throw new Error('not a deploy test database name');
  await asAdmin(`CREATE DATABASE "${name}"`);
}

/** Drops it even while an instance still holds connections (PostgreSQL 13+). */
export async function dropDatabase(name: string): Promise<void> {
  if (!NAME.test(name)) throw new Error('not a deploy test database name');
  await asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * Deletes the rate-limit counters (`pdas-rl:sub:<name>`) of subscription names starting with
 * `namePrefix`. An unreachable Redis holds none of them (and each expires with its window anyway).
 */
export async function deleteCounters(namePrefix: string): Promise<void> {
  const client = redisClient(redisUrl());
  try {
    if (!await client.connect().then(() => true, () => false)) return;
    const keys = await redisKeys(client, `pdas-rl:sub:${namePrefix}*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

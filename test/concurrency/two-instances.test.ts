import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresAuditTrail } from '../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { createRateLimitRedis, type RateLimitRedis } from '../../src/adapters/rate-limit-redis/create-rate-limit-redis.js';
import { countingRedisStore } from '../../src/adapters/rate-limit-redis/counting-store.js';
import { StaticSubscriptionKeys } from '../../src/adapters/subscription-keys/static-subscription-keys.js';
import { RedisCoordinator } from '../../src/adapters/write-coordination/redis-coordinator.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/http/logging.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';
import { adminPool, databaseUrl, dropSchema, freshSchema, databaseAvailable } from '../support/database.js';
import { redisUrl, skipWithoutRedis, uniqueNameSpace } from '../support/redis.js';
import { TestIssuer } from '../support/test-issuer.js';
import { accessLogOver, TEST_HTTP_CONFIG, useCasesOver, verifierFor } from '../support/app-wiring.js';

const ZONE = 'Europe/Stockholm';
const KEY = 'two-instances-key-0123456789';
const ADULT = '191212121212';
const MIN = 60_000;
const skip = !(await databaseAvailable()) || (await skipWithoutRedis());

/** Two service instances sharing what production instances share: Redis, PostgreSQL and the EHR's state. */
describe.skipIf(skip)('two instances sharing Redis, PostgreSQL and one EHR folder', () => {
  let dir: string;
  let issuer: TestIssuer;
  let pool: pg.Pool;
  const schema = freshSchema('concurrency');
  const apps: FastifyInstance[] = [];
  const closers: Array<() => Promise<void>> = [];
  const clock = new FixedClock(Date.now());

  async function instance(): Promise<FastifyInstance> {
    const ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'state.json')), ZONE, () => undefined);
    const audit = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
    const redis: RateLimitRedis = createRateLimitRedis({ url: redisUrl(), onWarning: () => undefined });
    const coordinator = new RedisCoordinator(redis.client, { lockTtlMs: 15_000, waitMs: 20_000, onUnavailable: () => undefined });
    closers.push(() => audit.close(), () => redis.close());
    const app = await buildApp({
      config: { ...TEST_HTTP_CONFIG, rateLimitMax: 100_000 },
      clock, logger: createLogger('silent'), ehr, auditTrail: audit, tokenVerifier: verifierFor(issuer, clock),
      subscriptionKeys: new StaticSubscriptionKeys(new Map([['test', KEY]])), ...useCasesOver(ehr, clock, coordinator), readAccessLog: accessLogOver(new MemoryAuditTrail(), clock),
      rateLimitStore: countingRedisStore(redis.client, uniqueNameSpace('two-instances'), () => undefined),
    });
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-two-'));
    await generateDemoData(path.join(dir, 'ehr'), { now: clock.now(), zone: ZONE });
    issuer = await TestIssuer.start();
    pool = adminPool();
    apps.push(await instance(), await instance());
  }, 30_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const close of closers) await close();
    await dropSchema(pool, schema);
    await pool.end();
    await issuer.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('changes state once under 200 identical arrivals and 200 identical payments, with one audit row per request', async () => {
    const token = await issuer.sign({ patient: ADULT, scope: 'user/Appointment-read user/Appointment-write user/Payment-write' });
    const headers = { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` };
    const listed = await apps[0]?.inject({ method: 'GET', url: '/patients/appointments/', headers });
    const booking = (listed?.json() as Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>)
      .flatMap((r) => r.Booking)
      .find((b) => Math.abs(Date.parse(b.TypedStartDateTime) - clock.now() - 45 * MIN) < 10 * MIN);
    expect(booking).toBeDefined();
    const id = booking?.ContactId ?? '';

    const fire = (n: number, request: (app: FastifyInstance, requestId: string) => Promise<{ json(): unknown }>) =>
      Promise.all(Array.from({ length: n }, (_, i) => request(apps[i % 2] as FastifyInstance, `req-${n}-${i}-${Math.random()}`)));

    const arrivals = await fire(200, (app, requestId) => app.inject({
      method: 'PUT', url: `/patients/appointments/?id=${id}`, payload: { status: 'arrived' }, headers: { ...headers, 'x-request-id': requestId },
    }));
    const arrivalCodes = arrivals.map((r) => (r.json() as { ResultCode: string }).ResultCode);
    expect(arrivalCodes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(arrivalCodes.filter((c) => c === 'INFO')).toHaveLength(199);

    const payments = await fire(200, (app, requestId) => app.inject({
      method: 'POST', url: '/patients/paymentnotice/', headers: { ...headers, 'x-request-id': requestId },
      payload: { status: 'PAID', contactId: id, paymentType: Number(requestId.split('-')[2]) % 3 ? 'CARD' : 'CASH' },
    }));
    const paymentCodes = payments.map((r) => (r.json() as Array<{ ResultCode: string }>)[0]?.ResultCode);
    expect(paymentCodes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(paymentCodes.filter((c) => c === 'INFO')).toHaveLength(199);

    const state = JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8')) as { arrivals: object; payments: object };
    expect(Object.keys(state.arrivals)).toEqual([`${ADULT}/${id}`]);
    expect(Object.keys(state.payments)).toEqual([`${ADULT}/${id}`]);

    // One outcome row per request, and the attempt row each write stored before the EHR was asked (issue 12 item 2).
    const rows = await pool.query<{ operation: string; phase: string; n: string; ids: string }>(
      `SELECT operation, phase, count(*) AS n, count(DISTINCT service_request_id) AS ids FROM "${schema}".access_log
        WHERE operation IN ('changeAppointment', 'registerPayment') GROUP BY operation, phase ORDER BY operation, phase`);
    expect(rows.rows.map((r) => [r.operation, r.phase, Number(r.n), Number(r.ids)])).toEqual([
      ['changeAppointment', 'attempt', 200, 200], ['changeAppointment', 'outcome', 200, 200],
      ['registerPayment', 'attempt', 200, 200], ['registerPayment', 'outcome', 200, 200],
    ]);
  }, 60_000);
});

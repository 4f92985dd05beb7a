import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { healthRoutes } from '../../src/http/routes/health-routes.js';
import { FixedClock } from '../fakes/fixed-clock.js';

/** A dependency whose answers the test decides, counting every call the service makes to it. */
class CountedCheck {
  calls = 0;
  up = true;
  private pending: Array<() => void> = [];
  /** While held, calls wait until `release`: a slow EHR. */
  held = false;

  readonly check = (): Promise<boolean> => {
    this.calls += 1;
    const answer = this.up;
    if (!this.held) return Promise.resolve(answer);
    return new Promise((resolve) => this.pending.push(() => resolve(answer)));
  };

  release(): void {
    this.held = false;
    for (const resolve of this.pending.splice(0)) resolve();
  }
}

describe('issue 20 item 5a (threat 47): /health/ready answers from a check at most a second old', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  async function start(): Promise<{ clock: FixedClock; ehr: CountedCheck; audit: CountedCheck; redis: CountedCheck; ready: () => Promise<{ status: number; body: unknown }> }> {
    const clock = new FixedClock(1_000_000);
    const [ehr, audit, redis] = [new CountedCheck(), new CountedCheck(), new CountedCheck()];
    app = Fastify();
    await app.register(healthRoutes, { checks: { ehr: ehr.check, audit: audit.check, redis: redis.check }, clock });
    await app.ready();
    const made = app;
    const ready = async (): Promise<{ status: number; body: unknown }> => {
      const res = await made.inject({ method: 'GET', url: '/health/ready' });
      return { status: res.statusCode, body: res.json() };
    };
    return { clock, ehr, audit, redis, ready };
  }

  it('issue 20 item 5a: 200 requests within a second make one call to each dependency; the next second one more', async () => {
    const { clock, ehr, audit, redis, ready } = await start();
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push(await ready());
    answers.push(...await Promise.all(Array.from({ length: 100 }, () => ready())));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(answers[0]?.body).toEqual({ status: 'ready', checks: { ehr: 'up', audit: 'up', redis: 'up' }, unavailableReads: {} });
    expect([ehr.calls, audit.calls, redis.calls]).toEqual([1, 1, 1]);
    clock.advance(999);
    await ready();
    expect(ehr.calls).toBe(1);
    // A second after the check began, its answer is too old: the next request checks again, and sees the EHR down.
    ehr.up = false;
    clock.advance(1);
    expect(await ready()).toEqual({ status: 503, body: { status: 'not ready', checks: { ehr: 'down', audit: 'up', redis: 'up' }, unavailableReads: {} } });
    expect([ehr.calls, audit.calls, redis.calls]).toEqual([2, 2, 2]);
    // A failed check is cached like a good one: a flood while the EHR is down does not reach it either.
    for (let i = 0; i < 50; i++) expect((await ready()).status).toBe(503);
    expect(ehr.calls).toBe(2);
  });

  it('issue 20 item 5a: concurrent requests while a slow check is in flight share it', async () => {
    const { clock, ehr, ready } = await start();
    ehr.held = true;
    const waiting = Array.from({ length: 50 }, () => ready());
    // Even once its second has passed, a check still in flight is waited for, not doubled.
    clock.advance(5000);
    waiting.push(...Array.from({ length: 50 }, () => ready()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ehr.calls).toBe(1);
    ehr.release();
    const answers = await Promise.all(waiting);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(ehr.calls).toBe(1);
  });
});

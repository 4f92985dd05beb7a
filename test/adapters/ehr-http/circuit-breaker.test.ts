import { describe, expect, it } from 'vitest';
import { CircuitBreaker, CircuitOpenError, type BreakerChange } from '../../../src/adapters/ehr-http/circuit-breaker.js';
import { EhrError } from '../../../src/domain/ehr-error.js';

const counts = (err: unknown): boolean => err instanceof EhrError && err.failure !== 'patient-not-found';
const fail = (failure: EhrError['failure'] = 'bad-response') => (): Promise<never> => Promise.reject(new EhrError(failure, 'x'));
const ok = (): Promise<string> => Promise.resolve('ok');

function setup(failureThreshold = 3, openMs = 10_000) {
  let now = 1_000_000;
  const changes: BreakerChange[] = [];
  const breaker = new CircuitBreaker({ failureThreshold, openMs }, () => now, (c) => changes.push(c));
  let calls = 0;
  const run = <T>(call: () => Promise<T>): Promise<T> => breaker.run(() => {
    calls += 1;
    return call();
  }, counts);
  return { breaker, changes, run, calls: () => calls, advance: (ms: number) => { now += ms; } };
}

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures and then fails fast without calling', async () => {
    const b = setup(3);
    for (let i = 0; i < 3; i++) await expect(b.run(fail())).rejects.toMatchObject({ failure: 'bad-response' });
    expect(b.breaker.current).toBe('open');
    expect(b.changes).toEqual([{ type: 'breaker-open', detail: '3 consecutive failures' }]);
    const err = await b.run(ok).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CircuitOpenError);
    expect(err).toMatchObject({ failure: 'unavailable', retryAfterSeconds: 10 });
    expect(b.calls()).toBe(3);
  });

  it('tells how many seconds are left, rounded up, never 0', async () => {
    const b = setup(1, 10_000);
    await expect(b.run(fail('timeout'))).rejects.toMatchObject({ failure: 'timeout' });
    b.advance(2_500);
    await expect(b.run(ok)).rejects.toMatchObject({ retryAfterSeconds: 8 });
    b.advance(7_400);
    await expect(b.run(ok)).rejects.toMatchObject({ retryAfterSeconds: 1 });
  });

  it('needs consecutive failures: a success in between starts the count again', async () => {
    const b = setup(3);
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    await expect(b.run(ok)).resolves.toBe('ok');
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    expect(b.breaker.current).toBe('closed');
  });

  it('does not count answers about the request, such as an unknown patient', async () => {
    const b = setup(2);
    for (let i = 0; i < 5; i++) await expect(b.run(fail('patient-not-found'))).rejects.toMatchObject({ failure: 'patient-not-found' });
    expect(b.breaker.current).toBe('closed');
  });

  it('lets exactly one probe through after openMs; its success closes the breaker', async () => {
    const b = setup(1, 10_000);
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    b.advance(10_000);
    let release: (v: string) => void = () => undefined;
    const probe = b.run(() => new Promise<string>((resolve) => { release = resolve; }));
    await expect(b.run(ok)).rejects.toMatchObject({ failure: 'unavailable', retryAfterSeconds: 1 });
    expect(b.breaker.current).toBe('half-open');
    release('probed');
    await expect(probe).resolves.toBe('probed');
    expect(b.breaker.current).toBe('closed');
    await expect(b.run(ok)).resolves.toBe('ok');
    expect(b.changes.map((c) => c.type)).toEqual(['breaker-open', 'breaker-closed']);
    expect(b.calls()).toBe(3);
  });

  it('re-opens for another full period when the probe fails', async () => {
    const b = setup(1, 10_000);
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    b.advance(10_001);
    await expect(b.run(fail())).rejects.toMatchObject({ failure: 'bad-response' });
    expect(b.breaker.current).toBe('open');
    await expect(b.run(ok)).rejects.toMatchObject({ failure: 'unavailable', retryAfterSeconds: 10 });
    expect(b.changes).toEqual([
      { type: 'breaker-open', detail: '1 consecutive failure' }, { type: 'breaker-open', detail: 'probe failed' },
    ]);
  });

  it('is not closed or extended by a slow call that started before it opened', async () => {
    const b = setup(1, 10_000);
    let release: (v: string) => void = () => undefined;
    const slow = b.run(() => new Promise<string>((resolve) => { release = resolve; }));
    await expect(b.run(fail())).rejects.toBeInstanceOf(EhrError);
    release('late');
    await expect(slow).resolves.toBe('late');
    expect(b.breaker.current).toBe('open');
  });

  it('refuses settings that would never open or never close', () => {
    expect(() => new CircuitBreaker({ failureThreshold: 0, openMs: 1000 })).toThrow(RangeError);
    expect(() => new CircuitBreaker({ failureThreshold: 1.5, openMs: 1000 })).toThrow(RangeError);
    expect(() => new CircuitBreaker({ failureThreshold: 3, openMs: 0 })).toThrow(RangeError);
  });

  it('changes nothing for an error that says nothing about the EHR: no failure counted, none forgiven, a probe left to the next call', async () => {
    const changes: BreakerChange[] = [];
    let now = 1_000_000;
    const breaker = new CircuitBreaker({ failureThreshold: 2, openMs: 10_000 }, () => now, (c) => changes.push(c));
    const unsure = (err: unknown): boolean | undefined => (err instanceof EhrError && err.failure === 'timeout' ? undefined : counts(err));
    await expect(breaker.run(fail('bad-response'), unsure)).rejects.toMatchObject({ failure: 'bad-response' });
    for (let i = 0; i < 5; i++) await expect(breaker.run(fail('timeout'), unsure)).rejects.toMatchObject({ failure: 'timeout' });
    expect(breaker.current).toBe('closed');
    // The first failure still counts: one more opens it.
    await expect(breaker.run(fail('bad-response'), unsure)).rejects.toMatchObject({ failure: 'bad-response' });
    expect(changes).toEqual([{ type: 'breaker-open', detail: '2 consecutive failures' }]);
    now += 10_000;
    await expect(breaker.run(fail('timeout'), unsure)).rejects.toMatchObject({ failure: 'timeout' });
    expect(breaker.current).toBe('half-open');
    await expect(breaker.run(ok, unsure)).resolves.toBe('ok');
    expect(breaker.current).toBe('closed');
  });
});

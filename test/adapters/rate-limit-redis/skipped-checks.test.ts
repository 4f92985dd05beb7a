import { describe, expect, it } from 'vitest';
import { SkippedChecks, causeOf } from '../../../src/adapters/rate-limit-redis/skipped-checks.js';

function checks(intervalMs = 10_000) {
  let now = 1_000_000;
  const warnings: string[] = [];
  const infos: string[] = [];
  const counter = new SkippedChecks({ intervalMs, now: () => now, warn: (m) => warnings.push(m), info: (m) => infos.push(m) });
  return { counter, warnings, infos, advance: (ms: number) => { now += ms; } };
}

describe('skipped rate-limit checks', () => {
  it('counts every skipped check but warns once per interval, with the number since the previous warning', () => {
    const { counter, warnings, advance } = checks();
    counter.skipped('ECONNREFUSED');
    expect(warnings).toEqual(['Redis for rate limits is unavailable (ECONNREFUSED): limits are not enforced; skipped checks: 1 since the previous warning, 1 in all']);
    for (let i = 0; i < 500; i++) {
      advance(10);
      counter.skipped('not connected');
    }
    // 5 s later: 500 more skipped, still the one line.
    expect(counter.count).toBe(501);
    expect(warnings).toHaveLength(1);
    advance(4_999);
    counter.skipped('not connected');
    expect(warnings).toHaveLength(1);
    advance(1);
    counter.skipped('Command timed out');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('Redis for rate limits is unavailable (Command timed out): limits are not enforced; skipped checks: 502 since the previous warning, 503 in all');
    expect(counter.count).toBe(503);
  });

  it('warns about a failed connection without counting a skipped check', () => {
    const { counter, warnings, advance } = checks();
    counter.failed('ECONNREFUSED');
    counter.failed('ECONNREFUSED');
    advance(10_000);
    counter.failed('ETIMEDOUT');
    expect(counter.count).toBe(0);
    expect(warnings).toEqual([
      'Redis for rate limits is unavailable (ECONNREFUSED): limits are not enforced; skipped checks: 0 since the previous warning, 0 in all',
      'Redis for rate limits is unavailable (ETIMEDOUT): limits are not enforced; skipped checks: 0 since the previous warning, 0 in all',
    ]);
  });

  it('reports recovery once, with what the last interval left unsaid, and warns at once about the next outage', () => {
    const { counter, warnings, infos, advance } = checks();
    counter.recovered();
    expect(infos).toEqual([]);
    counter.skipped('ECONNREFUSED');
    counter.skipped('ECONNREFUSED');
    counter.skipped('ECONNREFUSED');
    advance(1000);
    counter.recovered();
    counter.recovered();
    expect(infos).toEqual(['Redis for rate limits is reachable again: limits are enforced; skipped checks: 2 since the previous warning, 3 in all']);
    advance(1000);
    counter.skipped('ECONNRESET');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe('Redis for rate limits is unavailable (ECONNRESET): limits are not enforced; skipped checks: 1 since the previous warning, 4 in all');
  });
});

describe('cause of a Redis failure in a log line', () => {
  it('prefers the error code, names a refused command plainly, and says nothing about other values', () => {
    expect(causeOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(causeOf(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe('not connected');
    expect(causeOf(new Error('Command timed out'))).toBe('Command timed out');
    expect(causeOf('a string with a secret')).toBe('unknown error');
    expect(causeOf(undefined)).toBe('unknown error');
  });

  it('keeps the cause on one short printable line', () => {
    expect(causeOf(new Error('line one\nline two\u0000'))).toBe('line one?line two?');
    expect(causeOf(new Error('x'.repeat(500)))).toHaveLength(120);
  });
});

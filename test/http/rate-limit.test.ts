import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, startTestApp, type TestApp } from '../support/test-app.js';

describe('rate limit per subscription key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimitMax: 3 });
  });
  afterAll(() => t.close());

  it('answers the request over the limit with 429, Retry-After and the documented text, in the route shape', async () => {
    const token = await t.personToken('191212121212');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.call({ method: 'GET', url: '/patients/appointments/', token })).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const over = await t.call({ method: 'GET', url: '/patients/appointments/', token });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.json()).toEqual({ statusCode: 429, message: expect.stringMatching(/^Rate limit is exceeded\. Try again in \d+ seconds\.$/) });
    const contacts = await t.call({ method: 'GET', url: '/patients/contacts/', token });
    expect(contacts.statusCode).toBe(429);
    expect(contacts.json()).toMatchObject({ status: 429, error: expect.stringMatching(/^Rate limit is exceeded/) });
  });

  it('counts per key, not per forwarded address', async () => {
    const token = await t.personToken('191212121212');
    const spoofed = await t.call({ method: 'GET', url: '/patients/appointments/', token, headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(spoofed.statusCode).toBe(429);
    const other = await t.call({ method: 'GET', url: '/patients/appointments/', token, key: OTHER_KEY });
    expect(other.statusCode).toBe(200);
  });

  it('answers an unknown key with 401, not 429', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/appointments/', key: 'unknown-key-unknown-key' });
    expect(res.statusCode).toBe(401);
  });
});

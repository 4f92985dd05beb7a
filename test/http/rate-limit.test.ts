import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../src/adapters/audit-file/file-audit-trail.js';
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

const MESSAGE = /^Rate limit is exceeded\. Try again in (\d+) seconds\.$/;

describe('issue 12 item 4: requests without a valid key, limited per source address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimitNoKeyMax: 3, rateLimitMax: 100 });
  });
  afterAll(() => t.close());

  it('issue 12 item 4: answers the fourth keyless request of a window from one address with 429; keyed callers and other addresses keep their own allowance', async () => {
    const token = await t.personToken('191212121212');
    const statuses = [
      (await t.call({ method: 'GET', url: '/patients/appointments/', token, key: null })).statusCode,
      (await t.call({ method: 'GET', url: '/patients/journalnotes/', token, key: 'wrong-key-wrong-key-wrong' })).statusCode,
      (await t.call({ method: 'GET', url: '/patients/medications/', key: null })).statusCode,
    ];
    expect(statuses).toEqual([401, 401, 401]);
    const over = await t.call({ method: 'GET', url: '/patients/appointments/', token, key: null });
    expect(over.statusCode).toBe(429);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(over.json()).toEqual({ statusCode: 429, message: `Rate limit is exceeded. Try again in ${retryAfter} seconds.` });
    const contacts = await t.call({ method: 'GET', url: '/patients/contacts/', key: 'wrong-key-wrong-key-wrong' });
    expect(contacts.json()).toMatchObject({ status: 429, error: expect.stringMatching(MESSAGE) });
    // Neither a forged forwarding header nor a token in the query gets past the address's limit.
    expect((await t.call({ method: 'GET', url: '/patients/appointments/', key: null, headers: { 'x-forwarded-for': '10.9.8.7' } })).statusCode).toBe(429);
    expect((await t.call({ method: 'GET', url: '/patients/appointments/?access_token=x', key: null })).statusCode).toBe(429);
    // A valid key from the same address, and the same flood from another address, are not affected.
    expect((await t.call({ method: 'GET', url: '/patients/appointments/', token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/patients/appointments/', key: null, remoteAddress: '127.0.0.2' })).statusCode).toBe(401);
  });
});

describe('issue 12 item 4 (threat 38 of docs/threat-model.md#found-by-independent-review): a flood without a valid key cannot grow the audit store without bound', () => {
  it('issue 12 item 4: 600 bad-key requests from one address leave at most one audit line per operation and status, and one log line with the count', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-flood-'));
    const file = path.join(dir, 'audit.jsonl');
    const trail = await FileAuditTrail.open(file);
    const t = await startTestApp({ auditTrail: trail, rateLimitNoKeyMax: 20 });
    try {
      const statuses = new Map<number, number>();
      for (let i = 0; i < 600; i++) {
        const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', key: i % 2 === 0 ? null : `bad-key-${i}-0123456789` });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 401: 20, 429: 580 });
      // A keyed request is still audited one by one.
      expect((await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken('191212121212') })).statusCode).toBe(200);
    } finally {
      await t.close();
      await trail.close();
    }
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    const records = lines.map((l) => JSON.parse(l) as { status: number; subscription?: string; operation: string });
    expect(records.map((r) => [r.operation, r.status, r.subscription])).toEqual([
      ['getJournalNotes', 401, undefined], ['getJournalNotes', 429, undefined], ['getJournalNotes', 200, 'test'],
    ]);
    expect(FileAuditTrail.verifyChain(lines)).toBe(0);
    // What the audit store leaves out is counted in the log: 600 refused, 2 of them audited.
    const tallies = t.logLines.map((l) => JSON.parse(l) as { msg: string; status?: number; refused?: number; audited?: number })
      .filter((l) => l.msg === 'requests without a valid subscription key or token refused');
    expect(tallies.map((l) => [l.status, l.refused, l.audited]).sort()).toEqual([[401, 20, 1], [429, 580, 1]]);
    await rm(dir, { recursive: true, force: true });
  });

  it('issue 12 item 4: audits the first keyless refusal of every window, per source address', async () => {
    const t = await startTestApp({ rateLimitNoKeyMax: 1000 });
    try {
      const flood = async (remoteAddress: string, n: number): Promise<void> => {
        for (let i = 0; i < n; i++) expect((await t.call({ method: 'GET', url: '/patients/medications/', key: null, remoteAddress })).statusCode).toBe(401);
      };
      await flood('127.0.0.1', 5);
      await flood('127.0.0.3', 5);
      expect(t.audit.records.map((r) => [r.sourceAddress, r.status])).toEqual([['127.0.0.1', 401], ['127.0.0.3', 401]]);
      t.clock.advance(60_000);
      await flood('127.0.0.1', 3);
      expect(t.audit.records.map((r) => r.sourceAddress)).toEqual(['127.0.0.1', '127.0.0.3', '127.0.0.1']);
      // IPv6 addresses of one /64 are one source, as for the limit: rotating them audits nothing more.
      await flood('2001:db8::1', 2);
      await flood('2001:db8::2:3', 2);
      expect(t.audit.records.slice(3).map((r) => r.sourceAddress)).toEqual(['2001:db8::1']);
    } finally {
      await t.close();
    }
  });
});

describe('issue 15: IETF RateLimit-Policy and RateLimit fields on every answer (in-process counters)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimitMax: 2, rateLimitWindowMs: 10_000, rateLimitNoKeyMax: 2 });
  });
  afterAll(() => t.close());

  it('issue 15: names the per-key policy with its quota and window, and what is left until when, beside Retry-After on 429', async () => {
    const token = await t.personToken('191212121212');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await t.call({ method: 'GET', url: '/patients/appointments/', token }));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 429]);
    for (const r of answers) expect(r.headers['ratelimit-policy']).toBe('"subscription-person";q=2;w=10');
    expect(answers.map((r) => /^"subscription-person";r=(\d+);t=(\d+)$/.exec(String(r.headers.ratelimit))?.[1])).toEqual(['1', '0', '0']);
    const [, , over] = answers;
    const t429 = Number(/;t=(\d+)$/.exec(String(over?.headers.ratelimit))?.[1]);
    expect(t429).toBeGreaterThanOrEqual(1);
    expect(t429).toBeLessThanOrEqual(10);
    expect(over?.headers['retry-after']).toBe(String(t429));
  });

  it('issue 15: names the per-address policy on answers to requests without a valid key', async () => {
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await t.call({ method: 'GET', url: '/patients/contacts/', key: null }));
    expect(answers.map((r) => r.statusCode)).toEqual([401, 401, 429]);
    for (const r of answers) expect(r.headers['ratelimit-policy']).toBe('"address";q=2;w=10');
    expect(answers.map((r) => /^"address";r=(\d+);t=\d+$/.exec(String(r.headers.ratelimit))?.[1])).toEqual(['1', '0', '0']);
  });
});

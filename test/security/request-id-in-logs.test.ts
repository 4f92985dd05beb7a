/**
 * Threats 34 and 50 through the app: a request's log line and its X-Request-Id never hold what reads
 * as an identity number, even when the random source draws a UUID that does (src/http/request-id.ts).
 * Here every other UUID drawn holds one (`…46a1-8010-38080366…` holds 180103808036). Failed before:
 * every second request's log line carried it as reqId, and the leak oracle found 180103808036.
 */
import type * as Crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { leaksInLine } from '../support/log-grep.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { DEMO, DEMO_PEOPLE } from './support/oracles.js';

const NUMBER_HOLDING = '2f9afea7-9fa1-46a1-8010-38080366e0f2';

vi.mock('node:crypto', async (importActual) => {
  const actual = await importActual<typeof Crypto>();
  let draws = 0;
  return { ...actual, randomUUID: () => (draws++ % 2 === 0 ? NUMBER_HOLDING : actual.randomUUID()) };
});

describe('the service\'s request ids in its log lines and answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('are never a UUID that reads as an identity number, however often the source draws one', async () => {
    const token = await t.personToken(DEMO.TOLVAN);
    const from = t.logLines.length;
    const answered: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await t.call({ method: 'GET', url: i % 2 === 0 ? '/patients/appointments/' : '/patients/nothing-here/', token });
      answered.push(String(res.headers['x-request-id']));
    }
    const lines = t.logLines.slice(from);
    const logged = lines.map((line) => (JSON.parse(line) as { reqId?: string }).reqId).filter((id) => id !== undefined);
    expect(logged).toEqual(expect.arrayContaining(answered));
    expect(answered).not.toContain(NUMBER_HOLDING);
    expect(lines.flatMap((line) => leaksInLine(line, DEMO_PEOPLE))).toEqual([]);
  });
});

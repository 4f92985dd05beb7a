/**
 * Issue 20 item 6: a large answer's records live until they are serialised, so the EHR adapter's
 * budget of large documents (ports/answer-memory.port.ts) must span the read and the serialising,
 * not the read alone. The route runs both inside `answering`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerMemoryFullError, type AnswerMemory } from '../../src/ports/answer-memory.port.js';
import { DEMO } from '../security/support/oracles.js';
import { routeByOperation } from '../security/support/routes.js';
import { answerProblems, asAnswer } from '../security/support/shape.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Notes what each answer's work returned by the time `answering` gave its bytes back. */
class NotingMemory implements AnswerMemory {
  readonly ended: unknown[] = [];

  async answering<T>(answer: () => Promise<T>): Promise<T> {
    const result = await answer();
    this.ended.push(result);
    return result;
  }
}

describe('the memory a read\'s answer holds', () => {
  let t: TestApp;
  const memory = new NotingMemory();
  beforeAll(async () => {
    t = await startTestApp({ answerMemory: memory });
  });
  afterAll(() => t.close());

  it('is counted until the answer is bytes: the read and its serialising end inside answering', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken(DEMO.TOLVAN) });
    expect(res.statusCode).toBe(200);
    expect(memory.ended).toHaveLength(1);
    const [ended] = memory.ended as { answer?: { byteLength?: number } }[];
    expect(ended?.answer?.byteLength).toBe(Number(res.headers['content-length']));
    expect(Buffer.byteLength(res.body)).toBe(Number(res.headers['content-length']));
  });

  it('is never asked for when the read is refused before the EHR is asked', async () => {
    const before = memory.ended.length;
    const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken(DEMO.TOLVAN, { scope: 'user/Appointment-read' }) });
    expect(res.statusCode).toBe(403);
    expect(memory.ended).toHaveLength(before);
  });
});

describe('a read refused because too many large documents wait (AnswerMemoryFullError)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ answerMemory: { answering: () => Promise.reject(new AnswerMemoryFullError(3)) } });
  });
  afterAll(() => t.close());

  it('is a 503 with Retry-After in the path\'s error shape, saying what to do, and is audited', async () => {
    for (const [url, operation] of [['/patients/journalnotes/', 'getJournalNotes'], ['/patients/contacts/', 'getContacts']] as const) {
      const res = await t.call({ method: 'GET', url, token: await t.personToken(DEMO.TOLVAN) });
      expect([url, res.statusCode, res.headers['retry-after']]).toEqual([url, 503, '3']);
      expect(JSON.stringify(res.json())).toContain('The service is overloaded. Try again later.');
      expect(answerProblems(routeByOperation(operation), asAnswer(res), { allowed: [503] })).toEqual([]);
    }
    expect(t.audit.records.filter((r) => r.status === 503).map((r) => r.outcome)).toEqual(['failed', 'failed']);
  });
});

/**
 * Issue 20 item 6: a large answer's records live until they are serialised, so the EHR adapter's
 * budget of large documents (ports/answer-memory.port.ts) must span the read and the serialising,
 * not the read alone. The route runs both inside `answering`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerAbandonedError, AnswerMemoryFullError, type AnswerMemory, type AnswerSubject } from '../../src/ports/answer-memory.port.js';
import { DEMO } from '../security/support/oracles.js';
import { routeByOperation } from '../security/support/routes.js';
import { answerProblems, asAnswer } from '../security/support/shape.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Notes what each answer's work returned by the time `answering` gave its bytes back. */
class NotingMemory implements AnswerMemory {
  readonly ended: unknown[] = [];
  readonly subjects: AnswerSubject[] = [];

  async answering<T>(subject: AnswerSubject, _abandoned: AbortSignal, answer: () => Promise<T>): Promise<T> {
    this.subjects.push(subject);
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

  it('names the read and the patient whose records are read, not the caller (answers of one record take turns)', async () => {
    memory.subjects.length = 0;
    const own = await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken(DEMO.TOLVAN) });
    const forChild = await t.call({ method: 'GET', url: '/patients/contacts/', token: await t.personToken(DEMO.MARTA), patient: DEMO.LILLA });
    expect([own.statusCode, forChild.statusCode]).toEqual([200, 200]);
    expect(memory.subjects).toEqual([{ read: 'getJournalNotes', patientId: DEMO.TOLVAN }, { read: 'getContacts', patientId: DEMO.LILLA }]);
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

describe('a read whose caller left while it waited its turn (AnswerAbandonedError)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ answerMemory: { answering: () => Promise.reject(new AnswerAbandonedError()) } });
  });
  afterAll(() => t.close());

  it('ends as a 503 in the path\'s error shape, without Retry-After, and is audited as not answered', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken(DEMO.TOLVAN) });
    expect([res.statusCode, res.headers['retry-after']]).toEqual([503, undefined]);
    expect(JSON.stringify(res.json())).toContain('The request was withdrawn before it was answered.');
    expect(answerProblems(routeByOperation('getJournalNotes'), asAnswer(res), { allowed: [503] })).toEqual([]);
    expect(t.audit.records.filter((r) => r.status === 503).map((r) => r.outcome)).toEqual(['failed']);
  });
});

/**
 * Issue 44 item 12: SEND_MAX_LARGE_ANSWERS, how many large answers may be on their way out at once
 * (src/http/serialization/large-answers.ts). Past it a large answer is 503 with Retry-After and none
 * of it is sent; its room comes back when an answer's connection closes. What it holds the memory
 * to is measured by `npm run bench -- --only slow-reader` (BENCHMARKS.md, part 9), not here: this
 * test shrinks "large" to a kilobyte and holds the room with a response that has not closed.
 */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerMemoryFullError } from '../../src/ports/answer-memory.port.js';
import type { OutcomeRecord } from '../../src/ports/audit-trail.port.js';
import { DEFAULT_MAX_LARGE_ANSWERS, LARGE_ANSWER_BYTES, LargeAnswers } from '../../src/http/serialization/large-answers.js';
import { loadConfig } from '../../src/start/config.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const TOLVAN = '191212121212';
const KB = 1024;
/** A response still going out: it closes when the test says. */
const openResponse = (): ServerResponse & EventEmitter => new EventEmitter() as ServerResponse & EventEmitter;

describe('issue 44 item 12: the room for large answers going out at once', () => {
  it('issue 44 item 12: counts answers over the size only, refuses past the limit, and gives the room back when a connection closes', () => {
    const room = new LargeAnswers(2, KB);
    const [a, b, c] = [openResponse(), openResponse(), openResponse()];
    room.admit(KB, c);
    room.admit(KB + 1, a);
    room.admit(KB + 1, b);
    expect(room.size).toBe(2);
    expect(() => room.admit(KB + 1, c)).toThrow(AnswerMemoryFullError);
    a.emit('close');
    expect(room.size).toBe(1);
    room.admit(KB + 1, c);
    expect(room.size).toBe(2);
    // Text is counted in UTF-8 bytes: 400 characters of three bytes each are large, 400 of one are not.
    const text = new LargeAnswers(1, KB);
    text.admitText('a'.repeat(400), openResponse());
    expect(text.size).toBe(0);
    text.admitText('€'.repeat(400), openResponse());
    expect(text.size).toBe(1);
    expect(() => text.admitText('x'.repeat(KB + 1), openResponse())).toThrow(AnswerMemoryFullError);
  });

  it('issue 44 item 12: SEND_MAX_LARGE_ANSWERS defaults to 32 answers over 4 MiB, and 0 or a non-number stops the start', () => {
    expect([DEFAULT_MAX_LARGE_ANSWERS, LARGE_ANSWER_BYTES]).toEqual([32, 4 * 1024 * 1024]);
    expect(loadConfig({ DATA_DIR: '/tmp/pdas-config-test' }).sendMaxLargeAnswers).toBe(32);
    expect(loadConfig({ DATA_DIR: '/tmp/pdas-config-test', SEND_MAX_LARGE_ANSWERS: '60' }).sendMaxLargeAnswers).toBe(60);
    for (const value of ['0', 'many', '1.5']) {
      expect(() => loadConfig({ DATA_DIR: '/tmp/pdas-config-test', SEND_MAX_LARGE_ANSWERS: value })).toThrow(/^SEND_MAX_LARGE_ANSWERS must be an integer from 1 to 100000/);
    }
  });

  describe('over HTTP, "large" a kilobyte and room for one', () => {
    const room = new LargeAnswers(1, KB);
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ largeAnswers: room });
    }, 60_000);
    afterAll(async () => t.close());

    it('issue 44 item 12: a large answer past the limit is 503 with Retry-After, sends none of it and is audited as failed; once the room is back it is answered', async () => {
      const token = await t.personToken(TOLVAN);
      const first = await t.call({ method: 'GET', url: '/patients/journalnotes/', token });
      expect(first.statusCode).toBe(200);
      expect(first.rawPayload.length).toBeGreaterThan(KB);
      expect(room.size).toBe(0);

      const holding = openResponse();
      room.admit(KB + 1, holding);
      const refused = await t.call({ method: 'GET', url: '/patients/journalnotes/', token });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({ statusCode: 503, message: 'The service is overloaded. Try again later.' });
      const record = t.audit.records.at(-1) as OutcomeRecord;
      expect(record).toMatchObject({ operation: 'getJournalNotes', patientId: TOLVAN, outcome: 'failed', status: 503 });

      holding.emit('close');
      const again = await t.call({ method: 'GET', url: '/patients/journalnotes/', token });
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    });

    it('issue 44 item 12: the FHIR API\'s large answers share the room: past it a search is 503 with Retry-After as an OperationOutcome', async () => {
      const token = await t.personToken(TOLVAN, { scope: 'patient/*.rs', client_id: 'smart-app-1' });
      const url = '/fhir/Composition';
      const first = await t.call({ method: 'GET', url, token, key: null });
      expect([first.statusCode, first.rawPayload.length > KB]).toEqual([200, true]);
      const holding = openResponse();
      room.admit(KB + 1, holding);
      const refused = await t.call({ method: 'GET', url, token, key: null });
      expect([refused.statusCode, refused.headers['retry-after']]).toEqual([503, '5']);
      expect(refused.json()).toMatchObject({ resourceType: 'OperationOutcome' });
      holding.emit('close');
      expect((await t.call({ method: 'GET', url, token, key: null })).statusCode).toBe(200);
    });
  });
});

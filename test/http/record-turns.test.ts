/**
 * Issue 20 item 6 over `EHR_ADAPTER=xml-http`: fifty callers of one journal fetched fifty documents
 * that then waited, bytes in hand, to be mapped one after another. Answers of one record now take
 * turns before anything is fetched (src/adapters/ehr-xml-http/record-lanes.ts): the EHR sees at most
 * two requests for it at a time, another patient's read never waits behind them, and a caller that
 * leaves while its read waits costs no EHR request.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWERS_PER_RECORD } from '../../src/adapters/ehr-xml-http/record-lanes.js';
import { KEY } from '../support/app-wiring.js';
import { pollUntil } from '../support/poll.js';
import { startRemoteTestApp, type RemoteTestApp } from '../support/remote-test-app.js';
import { DEMO } from '../security/support/oracles.js';

const JOURNAL = '/patients/journalnotes/';
const TOLVANS_JOURNAL = new RegExp(`/patients/${DEMO.TOLVAN}/journalnotes`);

describe('answers of one record take turns over xml-http', () => {
  let t: RemoteTestApp;
  /** Requests for Tolvan's journal the EHR received (each read also reads the patient first: access policy). */
  let journalRequests = 0;
  beforeAll(async () => {
    t = await startRemoteTestApp({ timeoutMs: 10_000, onEhrRequest: (req) => void (TOLVANS_JOURNAL.test(req.url ?? '') && journalRequests++) });
  });
  afterAll(() => t.close());

  /** Requests for the journal since `before`, polled until there are `atLeast`. */
  const sentSince = (before: number, atLeast: number): Promise<number> =>
    pollUntil(async () => journalRequests - before, (n) => n >= atLeast, 5000, 10);

  it('sends at most two requests for one journal at a time, and another patient\'s read goes past them', async () => {
    // The first two held until Anton's read has gone and come back.
    const release = t.sim.faults.hold({ path: TOLVANS_JOURNAL, times: ANSWERS_PER_RECORD });
    const before = journalRequests;
    const token = await t.personToken(DEMO.TOLVAN);
    const reads = Array.from({ length: 8 }, () => t.call({ method: 'GET', url: JOURNAL, token }));
    expect(await sentSince(before, ANSWERS_PER_RECORD)).toBe(ANSWERS_PER_RECORD);
    let journalsDone = 0;
    for (const read of reads) void read.then(() => journalsDone++);
    const other = await t.call({ method: 'GET', url: '/patients/contacts/', token: await t.personToken(DEMO.ANTON) });
    expect(other.statusCode).toBe(200);
    // Anton's read went to the EHR and back while Tolvan's first two were still delayed there.
    expect([journalsDone, journalRequests - before]).toEqual([0, ANSWERS_PER_RECORD]);
    release();
    const answers = await Promise.all(reads);
    t.sim.faults.clear();
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    expect(journalRequests - before).toBe(8);
    expect(t.ehr.answerMemory.recordsAnswering).toBe(0);
  });

  it('asks the EHR nothing for a caller that left while its read waited its turn', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const release = t.sim.faults.hold({ path: TOLVANS_JOURNAL, times: ANSWERS_PER_RECORD });
    const before = journalRequests;
    const token = await t.personToken(DEMO.TOLVAN);
    const first = Array.from({ length: ANSWERS_PER_RECORD }, () => t.call({ method: 'GET', url: JOURNAL, token }));
    expect(await sentSince(before, ANSWERS_PER_RECORD)).toBe(ANSWERS_PER_RECORD);
    // A third caller, on a real connection, whose read waits its turn; it closes the connection.
    const leaving = httpRequest({ host: '127.0.0.1', port, path: JOURNAL, headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` } });
    leaving.on('error', () => undefined);
    leaving.end();
    expect(await pollUntil(async () => t.ehr.answerMemory.answersWaiting, (n) => n === 1, 5000, 10)).toBe(1);
    leaving.destroy();
    expect(await pollUntil(async () => t.ehr.answerMemory.answersWaiting, (n) => n === 0, 5000, 10)).toBe(0);
    release();
    expect((await Promise.all(first)).map((r) => r.statusCode)).toEqual([200, 200]);
    const after = await t.call({ method: 'GET', url: JOURNAL, token });
    t.sim.faults.clear();
    expect(after.statusCode).toBe(200);
    // The two first, and the one after: none for the caller that left.
    expect(journalRequests - before).toBe(ANSWERS_PER_RECORD + 1);
    const withdrawn = await pollUntil(async () => t.audit.records.filter((r) => r.status === 503), (r) => r.length === 1, 5000, 10);
    expect(withdrawn.map((r) => [r.outcome, r.patientId])).toEqual([['failed', DEMO.TOLVAN]]);
  });
});

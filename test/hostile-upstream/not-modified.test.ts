/**
 * Issue 56 item 2: hostile 304s, through the service as `npm start` composes it (EHR_ADAPTER=xml-http)
 * behind a front proxy that answers what the test says. The service keeps Tolvan's journal under the
 * simulator's ETag after its first read, so each read asks with If-None-Match. Each case is treated
 * safely (docs/upstream-ehr.md#7-conditional-requests):
 *   - a 304 with a body: the body is never read; the kept records answer, and the next read is served;
 *   - a 304 whose ETag is another: not taken as news of the kept journal, which is asked for again in full;
 *   - a 304 to a request that sent no validator, or to the unconditional one asked again: 502 for that
 *     request alone, no upstream text, audited, the breaker never counting it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAudited, expectHealthy, expectRefusal, ROUTES, UPSTREAM_TEXT, type Route } from './support/expectations.js';
import { ADULT, startHostileApp, type HostileApp } from './support/hostile-app.js';

const JOURNAL = ROUTES.find((r) => r.kind === 'journalnotes') as Route;
/** Another patient's journal, which a body of a 304 carries: none of it may reach the caller. */
const OTHER = '198112189876';

/** The validators the simulator sends with the document at `path` now. */
async function validators(app: HostileApp, path: string): Promise<{ etag: string; body: string }> {
  const res = await request(`${app.sim.url}${path}`, { signal: AbortSignal.timeout(5000) });
  return { etag: String(res.headers.etag), body: await res.body.text() };
}

/** What the service's /metrics says now. */
const metricsOf = async (app: HostileApp): Promise<string> => (await app.runtime.metricsApp.inject({ method: 'GET', url: '/metrics' })).body;

/** A counter's value in /metrics text. */
const counted = (metrics: string, series: string): number => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);
const NOT_MODIFIED = 'pdas_ehr_conditional_requests_total{answer="not-modified"}';
const REFETCHED = 'pdas_ehr_conditional_requests_total{answer="refetched"}';

/** A 304 written straight to the socket: `head` lines, then `body` (which a 304 may not have), then the connection closed. */
const raw304 = (head: string[], body = '') => (req: IncomingMessage, _res: ServerResponse): void => {
  const bytes = Buffer.from(body, 'utf8');
  req.socket.write(`HTTP/1.1 304 Not Modified\r\n${head.map((h) => `${h}\r\n`).join('')}\r\n`);
  req.socket.end(bytes);
};

describe('hostile 304 Not Modified answers, through the real app (EHR_ADAPTER=xml-http)', () => {
  let app: HostileApp;
  let normal: string;
  const asked: Array<string | undefined> = [];
  const noting = (answer: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse): void => {
    asked.push(req.headers['if-none-match'] as string | undefined);
    answer(req, res);
  };

  beforeAll(async () => {
    app = await startHostileApp();
    normal = (await app.get(JOURNAL.url)).body;
  });
  afterEach(() => {
    app.front.clear();
    asked.length = 0;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('control: a read of the kept journal asks with If-None-Match, and its 304 answers as a full read did', async () => {
    const before = await metricsOf(app);
    const answer = await app.get(JOURNAL.url);
    expect([answer.status, answer.body]).toEqual([200, normal]);
    const after = await metricsOf(app);
    // Two documents a read: the patient's, which decides the access, and the journal.
    expect(counted(after, NOT_MODIFIED) - counted(before, NOT_MODIFIED)).toBe(2);
    const kept = 'pdas_mapped_documents_total{outcome="kept"}';
    expect(counted(after, kept) - counted(before, kept)).toBe(2);
  });

  it('a 304 with a body (another patient\'s journal, Content-Length and all): the body is never read, the kept records answer', async () => {
    const { etag } = await validators(app, `/ehr/v1/patients/${ADULT}/journalnotes`);
    const { body: other } = await validators(app, `/ehr/v1/patients/${OTHER}/journalnotes`);
    const bodies: Array<[string, string[]]> = [
      ['with Content-Length', [`ETag: ${etag}`, `Content-Length: ${Buffer.byteLength(other)}`, 'Content-Type: application/xml; charset=utf-8']],
      ['without Content-Length', [`ETag: ${etag}`]],
    ];
    for (const [label, head] of bodies) {
      app.front.script(JOURNAL.document, noting(raw304(head, other)), 1);
      const answer = await app.get(JOURNAL.url);
      expect([label, answer.status, answer.body]).toEqual([label, 200, normal]);
      expect(answer.body).not.toContain(OTHER);
      expect(asked).toEqual([etag]);
      asked.length = 0;
      await expectHealthy(app, JOURNAL);
    }
  });

  it('a 304 with an ETag other than the one sent: the journal is asked for again, unconditionally, and answered in full', async () => {
    app.front.script(JOURNAL.document, noting(raw304(['ETag: "someone-elses"'])), 1);
    const before = await metricsOf(app);
    const passed = app.front.passedThrough;
    const answer = await app.get(JOURNAL.url);
    expect([answer.status, answer.body]).toEqual([200, normal]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^"/);
    // The patient document, and the journal asked again in full: both through to the simulator.
    expect(app.front.passedThrough - passed).toBe(2);
    const after = await metricsOf(app);
    expect(counted(after, REFETCHED) - counted(before, REFETCHED)).toBe(1);
    expect(counted(after, 'pdas_mapped_documents_total{outcome="mapped"}') - counted(before, 'pdas_mapped_documents_total{outcome="mapped"}')).toBe(1);
  });

  it('a 304 to the unconditional request asked again, and to a request that sent no validator: 502 for that request alone', async () => {
    // Twice a 304 naming another tag: the conditional read, then the unconditional one asked again.
    app.front.script(JOURNAL.document, noting(raw304(['ETag: "someone-elses"'])), 2);
    const again = await app.get(JOURNAL.url);
    expectRefusal(JOURNAL, 502, again, '304 to the unconditional request');
    expect(asked.map((a) => a === undefined)).toEqual([false, true]);
    await expectAudited(app, again);
    asked.length = 0;
    // The refusal forgot nothing it should not have: the next read asks conditionally and is answered from the kept journal, or anew.
    await expectHealthy(app, JOURNAL);
    // A range never read before is kept under no validator: its first request is unconditional.
    const url = `${JOURNAL.url}?fromDateTime=2001-01-01T00:00:00`;
    app.front.script(JOURNAL.document, noting(raw304([])), 1);
    const unasked = await app.get(url);
    expectRefusal(JOURNAL, 502, unasked, '304 to an unconditional request');
    expect(asked).toEqual([undefined]);
    expect(unasked.body).not.toMatch(UPSTREAM_TEXT);
    await expectAudited(app, unasked);
    expect(await metricsOf(app)).toMatch(/pdas_ehr_circuit_breaker_open 0/);
    expect((await app.get(url)).status).toBe(200);
  });
});

import { XMLValidator } from 'fast-xml-parser';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEhrSimulator } from '../../../src/dev/ehr-simulator/index.js';
import { ADULT, ACTOR, ZONE, startSimulatedEhr, timed, type SimulatedEhr } from '../../adapters/ehr-xml-http/simulated-ehr.js';
import { expectDeadlineKept, SCHEDULING_SLACK_MS } from '../../support/scheduling.js';

const XML = 'application/xml; charset=utf-8';

describe('EHR simulator faults, as seen on the wire', () => {
  let t: SimulatedEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
  });
  afterEach(() => t.sim.faults.clear());
  afterAll(() => t.close());

  /** One request on a fresh connection, bounded by `ms`; the whole body read as text. */
  async function get(url: string, ms = 2000, method: 'GET' | 'PUT' = 'GET') {
    return timed(async () => {
      const res = await request(`${t.sim.url}${url}`, { method, signal: AbortSignal.timeout(ms), reset: true });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    });
  }
  const journal = `/ehr/v1/patients/${ADULT}/journalnotes`;

  it('applies a fault to the next N matching answers only, by method and path, until cleared', async () => {
    t.sim.faults.status(500, undefined, undefined, { times: 2, path: '/journalnotes' });
    expect((await get(`/ehr/v1/patients/${ADULT}/contacts`)).value?.status).toBe(200);
    expect((await get(journal)).value?.status).toBe(500);
    expect((await get(journal)).value?.status).toBe(500);
    expect((await get(journal)).value?.status).toBe(200);
    t.sim.faults.status(503, undefined, undefined, { path: /\/relationships\// });
    t.sim.faults.status(502, undefined, undefined, { method: 'PUT' });
    for (let i = 0; i < 3; i++) expect((await get(`/ehr/v1/relationships/${ACTOR}`)).value?.status).toBe(503);
    expect((await get(`/ehr/v1/patients/${ADULT}/bookings/x/arrival`, 2000, 'PUT')).value?.status).toBe(502);
    expect((await get(journal)).value?.status).toBe(200);
    t.sim.faults.clear();
    expect((await get(`/ehr/v1/relationships/${ACTOR}`)).value?.status).toBe(200);
  });

  it('answers a status with a Fault naming the patient by default, or with the body and type given', async () => {
    t.sim.faults.status(503, undefined, undefined, { times: 1, retryAfter: '12' });
    const unavailable = (await get(journal)).value;
    expect(unavailable).toMatchObject({ status: 503, headers: { 'retry-after': '12', 'content-type': XML } });
    expect(unavailable?.text).toMatch(/<Code>UNAVAILABLE<\/Code><Message>[^<]*191212121212/);
    t.sim.faults.status(502, '<html>Bad Gateway</html>', 'text/html', { times: 1 });
    expect((await get(journal)).value).toMatchObject({ status: 502, text: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } });
  });

  it('delays an answer, and hangs without ever answering', async () => {
    t.sim.faults.delay(300, { times: 1 });
    const slow = await get(journal);
    expect(slow.value?.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(280);
    t.sim.faults.hang({ times: 1 });
    const hung = await get(journal, 300);
    expect(hung.error).toBeDefined();
    expect(hung.ms).toBeGreaterThanOrEqual(280);
  });

  it('holds an answer until the test releases it, then answers it in full', async () => {
    const release = t.sim.faults.hold({ times: 1 });
    let settled = false;
    const held = get(journal).then((r) => {
      settled = true;
      return r;
    });
    // The held answer waits while the next request, which the rule no longer covers, is answered.
    expect((await get(journal)).value?.status).toBe(200);
    expect(settled).toBe(false);
    release();
    const answer = (await held).value;
    expect(answer?.status).toBe(200);
    expect(answer?.text).toContain('191212121212');
  });

  it('resets before answering, and in the middle of a body whose headers promised more', async () => {
    t.sim.faults.reset({ times: 1 });
    expect((await get(journal)).error).toMatchObject({ code: expect.stringMatching(/UND_ERR_SOCKET|ECONNRESET/) });
    t.sim.faults.resetMidBody({ times: 1 });
    const cut = await timed(async () => {
      const res = await request(`${t.sim.url}${journal}`, { reset: true, signal: AbortSignal.timeout(2000) });
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['content-length'])).toBeGreaterThan(1000);
      return res.body.text();
    });
    expect(cut.error).toMatchObject({ code: expect.stringMatching(/UND_ERR_SOCKET|ECONNRESET|UND_ERR_RES_CONTENT_LENGTH_MISMATCH/) });
  });

  it('sends a truncated document as a 200, an oversized one of exactly the size asked, and trickles slowly', async () => {
    t.sim.faults.malformed({ times: 1 });
    const bad = (await get(journal)).value;
    expect(bad?.status).toBe(200);
    expect(XMLValidator.validate(bad?.text ?? '')).not.toBe(true);

    t.sim.faults.oversized(300_000, { times: 1, declareLength: true });
    const big = (await get(journal)).value;
    expect(big?.headers['content-length']).toBe('300000');
    expect(Buffer.byteLength(big?.text ?? '')).toBe(300_000);
    expect(XMLValidator.validate(big?.text ?? '')).toBe(true);
    expect(big?.text).toMatch(/^<\?xml[^>]*\?>\n<JournalNoteRecords>/);
    t.sim.faults.oversized(200_000, { times: 1 });
    const chunked = (await get(journal)).value;
    expect([chunked?.headers['transfer-encoding'], Buffer.byteLength(chunked?.text ?? '')]).toEqual(['chunked', 200_000]);

    t.sim.faults.trickle({ times: 1, intervalMs: 50, bytesPerInterval: 10 });
    const res = await request(`${t.sim.url}${journal}`, { reset: true, signal: AbortSignal.timeout(2000) });
    let received = 0;
    const start = performance.now();
    for await (const chunk of res.body) {
      received += (chunk as Buffer).length;
      if (performance.now() - start > 400) break;
    }
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(200);
  });

  it('swaps in another patient\'s document, and another actor\'s registry', async () => {
    t.sim.faults.swapPatient();
    const swapped = (await get(journal)).value?.text ?? '';
    expect(swapped).toMatch(/<PatientID extension="\d{12}"/);
    expect(swapped).not.toContain(`extension="${ADULT}"`);
    const registry = (await get(`/ehr/v1/relationships/${ACTOR}`)).value?.text ?? '';
    expect(registry).toMatch(/actor="\d{12}"/);
    expect(registry).not.toContain(`actor="${ACTOR}"`);
  });

  it('redirects to another origin with a 308', async () => {
    t.sim.faults.redirect({ times: 1 });
    const moved = (await get(journal)).value;
    expect(moved?.status).toBe(308);
    expect(new URL(String(moved?.headers.location)).origin).not.toBe(t.sim.url);
  });

  it('performs a write before cutting the connection on commitThenReset', async () => {
    const contact = /<ContactId>([^<]+)</.exec((await get(`/ehr/v1/patients/${ADULT}/bookings`)).value?.text ?? '')?.[1] ?? '';
    const arrival = `/ehr/v1/patients/${ADULT}/bookings/${contact}/arrival`;
    t.sim.faults.commitThenReset({ times: 1 });
    expect((await get(arrival, 2000, 'PUT')).error).toBeDefined();
    expect((await get(arrival, 2000, 'PUT')).value?.text).toContain('<ReasonCode>ALREADY_ARRIVED</ReasonCode>');
  });

  it('closes promptly with requests hanging and bodies trickling', async () => {
    const sim = await startEhrSimulator({ dataDir: t.dataDir, stateFile: `${t.dir}/other-state.json`, zone: ZONE });
    sim.faults.hang({ path: '/contacts' });
    sim.faults.trickle({ path: '/journalnotes', intervalMs: 10, bytesPerInterval: 1 });
    const pending = [`/ehr/v1/patients/${ADULT}/contacts`, journal].map((p) =>
      request(`${sim.url}${p}`, { signal: AbortSignal.timeout(3 * SCHEDULING_SLACK_MS) }).then((r) => r.body.text()).catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = await timed(() => sim.close());
    // Well before the callers would give up themselves: the simulator ended their exchanges.
    expectDeadlineKept(closing.ms, 0, 'closed');
    for (const outcome of await Promise.all(pending)) expect(outcome).toBeInstanceOf(Error);
    expect(() => sim.faults.oversized(10)).toThrow(RangeError);
    expect(() => sim.faults.delay(5, { times: 0 })).toThrow(RangeError);
  });
});

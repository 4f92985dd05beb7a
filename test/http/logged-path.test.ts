/**
 * Issue 44 item 11: a log line carries the matched route's template, never the path as the caller
 * wrote it; a path no route matched is a fixed marker and its length. A seeded fuzz of paths that
 * spell an identity number (test/support/path-fuzz.ts; the seeds are printed) is sent to the app,
 * and every log line is searched, raw and decoded, for any run of the number's digits. The spans'
 * side is test/e2e/tracing.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNMATCHED_PATH } from '../../src/http/logged-path.js';
import { readings } from '../support/log-grep.js';
import { digitRunsOf, FUZZ_SEEDS, fuzzPaths, REVIEW_PATHS } from '../support/path-fuzz.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ID = '191212121212';
const PER_SEED = 120;
/** Fields the service makes itself (times, random ids, hex): not a caller's text. */
const SERVICE_MADE = ['time', 'reqId', 'responseTime', 'trace_id', 'span_id', 'pid', 'hostname', 'auditHead'];

interface Line { msg?: string; req?: { method?: string; path?: string; pathLength?: number }; [key: string]: unknown }

describe('issue 44 item 11: logs carry the route, never the path as written', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t.close());

  it('issue 44 item 11: a matched route is logged by its template, with the id or number it was asked with nowhere in the line', async () => {
    const token = await t.personToken(ID);
    const res = await t.call({ method: 'GET', url: `/fhir/Patient/19121212--1212`, token });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const line = t.logLines.map((l) => JSON.parse(l) as Line).find((l) => l.reqId === res.headers['x-request-id']);
    expect(line?.req).toEqual({ method: 'GET', path: '/fhir/Patient/:id', remoteAddress: '127.0.0.1' });
    const journal = await t.call({ method: 'GET', url: '/patients/journalnotes/?fromDateTime=2024-01-01T00:00:00', token });
    const read = t.logLines.map((l) => JSON.parse(l) as Line).find((l) => l.reqId === journal.headers['x-request-id']);
    expect(read?.req).toEqual({ method: 'GET', path: '/patients/journalnotes/', remoteAddress: '127.0.0.1' });
  });

  it('issue 44 item 11: an unmatched path is logged as a marker and its length, never its text', async () => {
    const res = await t.call({ method: 'GET', url: '/x/_19121212--1212.json/?a=b' });
    expect(res.statusCode).toBe(404);
    const line = t.logLines.map((l) => JSON.parse(l) as Line).find((l) => l.reqId === res.headers['x-request-id']);
    expect(line?.req).toEqual({ method: 'GET', path: UNMATCHED_PATH, pathLength: '/x/_19121212--1212.json/'.length, remoteAddress: '127.0.0.1' });
  });

  it('issue 44 item 11: a seeded fuzz of paths spelling the number: no log line holds a run of its digits, raw or decoded', async () => {
    const token = await t.personToken(ID);
    const paths = [...REVIEW_PATHS, ...FUZZ_SEEDS.flatMap((seed) => fuzzPaths(seed, PER_SEED, ID))];
    console.log(`issue 44 item 11: seeds ${FUZZ_SEEDS.join(', ')}, ${PER_SEED} paths each, and the review's ${REVIEW_PATHS.length}`);
    const from = t.logLines.length;
    for (const [i, path] of paths.entries()) {
      await t.call({ method: i % 3 === 0 ? 'POST' : 'GET', url: path, ...(i % 2 === 0 ? { token } : { key: null }) });
    }
    const lines = t.logLines.slice(from).map((l) => JSON.parse(l) as Line);
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(paths.length);
    // Every path is a route's template (no digit in any) or the marker with a length.
    const shown = completed.map((l) => l.req?.path ?? '');
    expect(shown.filter((p) => /\d/.test(p) || !(p === UNMATCHED_PATH || p.startsWith('/')))).toEqual([]);
    expect(completed.filter((l) => l.req?.path === UNMATCHED_PATH && typeof l.req.pathLength !== 'number')).toEqual([]);
    const leaks = lines.flatMap((line) => {
      const caller = Object.fromEntries(Object.entries(line).filter(([k]) => !SERVICE_MADE.includes(k)));
      const text = JSON.stringify(caller);
      return digitRunsOf(readings(text), ID).map((run) => `${run} in ${text}`);
    });
    expect(leaks).toEqual([]);
  });
});

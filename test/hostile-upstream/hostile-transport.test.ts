/**
 * Hostile answers at the HTTP level (threats 23–25, 27 of docs/threat-model.md#the-upstream-ehr-api10), through the service as `npm start`
 * composes it with EHR_ADAPTER=xml-http and EHR_TIMEOUT_MS=1500: 50 MB bodies with and without a
 * Content-Length, a trickle slower than the deadline (body, and headers byte by byte), a reset
 * mid-body, an HTML page from a front proxy, and Content-Encodings nobody asked for. Each gets
 * 502/504 in the route's error shape within the deadline, with no upstream text, one audit record,
 * memory back where it was, and the next normal request is served.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAudited, expectHealthy, expectNoPollution, expectRefusal, inMib, measureGrowth, MIB, prototypeSnapshot,
  ROUTES, type Route,
} from './support/expectations.js';
import { EHR_TIMEOUT_MS, startHostileApp, type Answer, type HostileApp } from './support/hostile-app.js';
import { chunkedThenReset, fixedAnswer, trickleRaw } from './support/hostile-front.js';
import { HTML_PAGE, ROOT, type DocumentKind } from './support/hostile-documents.js';

const XML = 'application/xml; charset=utf-8';
const FIFTY_MB = 50 * 1000 * 1000;

describe('hostile answers at the HTTP level, through the real app (EHR_ADAPTER=xml-http)', () => {
  let app: HostileApp;
  let pristine: Record<DocumentKind, string>;
  let prototypes: Record<string, string[]>;

  beforeAll(async () => {
    prototypes = prototypeSnapshot();
    app = await startHostileApp();
    pristine = { journalnotes: await app.document('journalnotes'), contacts: await app.document('contacts') };
  });
  afterEach(() => {
    app.sim.faults.clear();
    app.front.clear();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** `times` requests one after another, each checked; a few audits checked; then a normal request. */
  async function refusedInTurn(route: Route, expected: 502 | 504, label: string, times: number): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let i = 0; i < times; i++) answers.push(await app.get(route.url));
    for (const answer of answers) expectRefusal(route, expected, answer, label);
    for (const answer of answers.slice(0, 2)) await expectAudited(app, answer);
    return answers;
  }

  async function healthyAfter(route: Route): Promise<void> {
    app.sim.faults.clear();
    app.front.clear();
    await expectHealthy(app, route);
    expectNoPollution(prototypes);
  }

  it('control: the real document through the scripted front (with and without Content-Encoding: identity) is answered 200', async () => {
    for (const route of ROUTES) {
      const variants: Array<Record<string, string>> = [{ 'content-type': XML }, { 'content-type': XML, 'content-encoding': 'identity' }];
      for (const headers of variants) {
        app.front.script(route.document, fixedAnswer(200, headers, pristine[route.kind]));
        const answer = await app.get(route.url);
        expect([route.url, headers, answer.status]).toEqual([route.url, headers, 200]);
        expect((JSON.parse(answer.body) as unknown[]).length).toBeGreaterThan(0);
        app.front.clear();
      }
    }
    expect(app.front.scripted).toBe(4);
  });

  describe('50 MB bodies (threat 27 of docs/threat-model.md#the-upstream-ehr-api10): refused past the 10 MiB cap, never held whole', () => {
    for (const declareLength of [true, false]) {
      const label = declareLength ? '50 MB with Content-Length' : '50 MB chunked, no Content-Length';
      it(`${label}: 502 in time, 20 times per route, memory well under the payload`, async () => {
        for (const route of ROUTES) {
          app.sim.faults.oversized(FIFTY_MB, { path: route.document, declareLength });
          await refusedInTurn(route, 502, label, 1);
          const growth = await measureGrowth(async () => {
            await refusedInTurn(route, 502, label, 20);
          });
          const measured = `${label} on ${route.url}, 20 × 50 MB: ${JSON.stringify(inMib(growth))} MiB`;
          // 1 GB went by; at most one capped 10 MiB read is held at a time, and nothing afterwards. RSS is the whole
          // test process, the simulator that writes the 50 MB included, and keeps what the allocator does not hand back
          // and what the collector has not reached yet: 24-62 MiB on a quiet machine, 117-126 MiB in two loaded runs
          // (one of them CI's) with heap and Buffers back to zero. So RSS only bounds the gross case (the gigabyte, or a
          // good part of it, kept); what the service holds is heapUsed and external, bounded tightly below.
          expect(growth.peakRss, measured).toBeLessThan(192 * MIB);
          expect(growth.rss, measured).toBeLessThan(160 * MIB);
          expect(growth.heapUsed, measured).toBeLessThan(8 * MIB);
          expect(growth.external, measured).toBeLessThan(16 * MIB);
          await healthyAfter(route);
        }
        // 2 × 21 refused reads of up to the 10 MiB cap each: a heavy workload, not a timing (on a loaded CI core
        // the default 20 s was not enough; the 502 deadline of each read is what the assertions check).
      }, 90_000);
    }
  });

  describe('Content-Encoding the service never asked for', () => {
    it('a gzip-encoded (otherwise valid) document: 502, not decoded', async () => {
      for (const route of ROUTES) {
        app.front.script(route.document, fixedAnswer(200, { 'content-type': XML, 'content-encoding': 'gzip' }, gzipSync(pristine[route.kind])));
        await refusedInTurn(route, 502, 'gzip', 3);
        await healthyAfter(route);
      }
    });

    it('a gzip bomb (50 MB of XML in 50 kB): 502, never inflated, 20 times per route', async () => {
      const { root, ns } = ROOT.journalnotes;
      const bomb = gzipSync(Buffer.concat([Buffer.from(`<${root} xmlns="${ns}">`), Buffer.alloc(FIFTY_MB, 0x20), Buffer.from(`</${root}>`)]));
      expect(bomb.length).toBeLessThan(100_000);
      for (const route of ROUTES) {
        app.front.script(route.document, fixedAnswer(200, { 'content-type': XML, 'content-encoding': 'gzip' }, bomb));
        const growth = await measureGrowth(async () => {
          await refusedInTurn(route, 502, 'gzip bomb', 20);
        });
        const measured = `gzip bomb on ${route.url}: ${JSON.stringify(inMib(growth))} MiB`;
        expect(growth.peakRss, measured).toBeLessThan(48 * MIB);
        expect(growth.heapUsed, measured).toBeLessThan(8 * MIB);
        await healthyAfter(route);
      }
    });

    it('a chain of a thousand encodings (gzip, deflate, br, ...): 502', async () => {
      const chain = Array.from({ length: 1000 }, (_, i) => ['gzip', 'deflate', 'br', 'x-compress'][i % 4]).join(', ');
      for (const route of ROUTES) {
        app.front.script(route.document, fixedAnswer(200, { 'content-type': XML, 'content-encoding': chain }, pristine[route.kind]));
        await refusedInTurn(route, 502, 'encoding chain', 3);
        await healthyAfter(route);
      }
    });
  });

  describe('HTML from a front proxy (threat 25 of docs/threat-model.md#the-upstream-ehr-api10)', () => {
    const PAGES: Array<[string, number, string, string]> = [
      ['502 text/html', 502, 'text/html', HTML_PAGE],
      ['200 text/html', 200, 'text/html; charset=utf-8', HTML_PAGE],
      ['200 HTML labelled application/xml', 200, XML, HTML_PAGE],
      ['200 HTML without a doctype, labelled application/xml', 200, XML, '<html><body><h1>Gateway Timeout</h1>nginx 19121212-1212</body></html>'],
      ['504 text/html from the proxy', 504, 'text/html', HTML_PAGE],
    ];
    for (const [label, status, contentType, page] of PAGES) {
      it(`${label}: 502, none of the page passes on`, async () => {
        for (const route of ROUTES) {
          app.sim.faults.status(status, page, contentType, { path: route.document });
          await refusedInTurn(route, 502, label, 3);
          await healthyAfter(route);
        }
      });
    }
  });

  describe('a connection reset mid-body (threat 24 of docs/threat-model.md#the-upstream-ehr-api10)', () => {
    it('after half of a body with a Content-Length (the simulator), read retried once: 502', async () => {
      for (const route of ROUTES) {
        app.sim.faults.resetMidBody({ path: route.document });
        const before = app.sim.requests;
        await refusedInTurn(route, 502, 'reset mid-body', 5);
        // Each caller request: the patient document, then the route's document twice (one retry).
        expect(app.sim.requests - before).toBe(5 * 3);
        await healthyAfter(route);
      }
    });

    it('after half of a chunked body (no Content-Length): 502, the truncated document never mapped', async () => {
      for (const route of ROUTES) {
        app.front.script(route.document, chunkedThenReset(pristine[route.kind]));
        await refusedInTurn(route, 502, 'chunked reset mid-body', 5);
        await healthyAfter(route);
      }
    });
  });

  describe(`a trickle slower than EHR_TIMEOUT_MS (${EHR_TIMEOUT_MS} ms; threat 23 of docs/threat-model.md#the-upstream-ehr-api10)`, () => {
    // Four at once: below the breaker's five consecutive failures, so the next request still reaches the EHR.
    const CONCURRENT = 4;

    it('the body, 8 bytes every 100 ms (the simulator): 504 within the deadline, several at once', async () => {
      for (const route of ROUTES) {
        app.sim.faults.trickle({ path: route.document, intervalMs: 100, bytesPerInterval: 8 });
        const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => app.get(route.url)));
        for (const answer of answers) {
          expectRefusal(route, 504, answer, 'trickled body');
          expect(answer.ms).toBeGreaterThanOrEqual(EHR_TIMEOUT_MS - 50);
        }
        await expectAudited(app, answers[0] as Answer);
        await healthyAfter(route);
      }
    });

    it('status line and headers, 4 bytes every 100 ms (slowloris): 504 within the deadline', async () => {
      for (const route of ROUTES) {
        app.front.script(route.document, trickleRaw(200, XML, pristine[route.kind], 100, 4));
        const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => app.get(route.url)));
        for (const answer of answers) expectRefusal(route, 504, answer, 'trickled headers');
        await expectAudited(app, answers[0] as Answer);
        await healthyAfter(route);
      }
    });
  });

  it('writes no identity number or upstream text to the log', () => {
    const log = app.logLines.join('\n');
    expect(log).toContain('"statusCode":504');
    expect(log).not.toMatch(/191212121212|19121212-1212|nginx|Bad Gateway|<html/);
  });
});

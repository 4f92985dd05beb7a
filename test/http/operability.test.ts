import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { buildMetricsApp, METRICS_HEADERS_TIMEOUT_MS, METRICS_MAX_CONNECTIONS } from '../../src/http/metrics-app.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';

describe('metrics', () => {
  let t: TestApp;
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  beforeAll(async () => {
    t = await startTestApp({ metrics, rateLimitMax: 5 });
  });
  afterAll(() => t.close());

  it('counts requests per operation and status, EHR calls, audit writes and 429s, and names nobody', async () => {
    const token = await t.personToken(ADULT);
    await t.call({ method: 'GET', url: '/patients/journalnotes/', token });
    await t.call({ method: 'GET', url: '/patients/journalnotes/', token, patient: '198112189876' });
    t.audit.mode = 'fail';
    await t.call({ method: 'GET', url: '/patients/contacts/', token });
    t.audit.mode = 'ok';
    for (let i = 0; i < 4; i++) await t.call({ method: 'GET', url: '/patients/medications/', token });
    const scraper = await buildMetricsApp({ metrics, logger: t.app.log });
    const res = await scraper.inject({ method: 'GET', url: '/metrics' });
    await scraper.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    expect(text).toContain('pdas_http_requests_total{operation="getJournalNotes",status="200"} 1');
    expect(text).toContain('pdas_http_requests_total{operation="getJournalNotes",status="403"} 1');
    expect(text).toContain('pdas_http_requests_total{operation="getContacts",status="503"} 1');
    // Limit 5: the 6th and 7th requests of the window are refused.
    expect(text).toContain('pdas_http_requests_total{operation="getMedications",status="200"} 2');
    expect(text).toContain('pdas_http_requests_total{operation="getMedications",status="429"} 2');
    expect(text).toContain('pdas_rate_limit_rejections_total 2');
    expect(text).toContain('pdas_audit_write_failures_total 1');
    expect(text).toMatch(/pdas_ehr_call_duration_seconds_count\{call="read:getJournalNotes",outcome="ok"\} 1/);
    expect(text).toMatch(/pdas_ehr_call_duration_seconds_count\{call="relationships",outcome="ok"\} 1/);
    expect(text).toMatch(/pdas_audit_write_duration_seconds_count\{outcome="ok"\} \d+/);
    for (const id of [ADULT, '198112189876']) expect(text).not.toContain(id);
  });

  it('the metrics listener answers another method at /metrics 405 with Allow, and an unknown path 404, in the error shape of a page', async () => {
    const scraper = await buildMetricsApp({ metrics, logger: t.app.log });
    try {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
        const res = await scraper.inject({ method, url: '/metrics' });
        expect([method, res.statusCode, res.headers.allow, res.json()]).toEqual([method, 405, 'GET, HEAD', { statusCode: 405, message: 'Method not allowed: this path takes GET, HEAD.' }]);
      }
      for (const url of ['/', '/metric', '/metrics/x', '/health/live']) {
        const res = await scraper.inject({ method: 'GET', url });
        expect([url, res.statusCode, res.json()]).toEqual([url, 404, { statusCode: 404, message: 'Not found.' }]);
      }
    } finally {
      await scraper.close();
    }
  });

  // Left alone by earlier sessions: the metrics listener took connections without any bound, so whoever reached
  // it could hold sockets open by the thousand, the API's file descriptors among them (one process).
  it('the metrics listener closes a connection that sends nothing or trickles its request, and holds only so many at once', async () => {
    const scraper = await buildMetricsApp({ metrics, logger: t.app.log });
    const sockets: Socket[] = [];
    let trickle: NodeJS.Timeout | undefined;
    try {
      const port = Number(new URL(await scraper.listen({ host: '127.0.0.1', port: 0 })).port);
      const opened = (): { socket: Socket; closed: Promise<number> } => {
        const socket = connect(port, '127.0.0.1');
        // Read what comes: a connection closed by the head's deadline gets a 408 first, and unread bytes keep
        // the socket from seeing the end (it stayed "still open" in one run of three beside busy loops).
        socket.resume();
        sockets.push(socket);
        const began = performance.now();
        socket.on('error', () => undefined);
        return { socket, closed: new Promise((resolve) => socket.on('close', () => resolve(performance.now() - began))) };
      };
      const within = (closed: Promise<number>, ms: number): Promise<number | 'still open'> =>
        Promise.race([closed, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);
      const silent = opened();
      const trickling = opened();
      trickling.socket.write('GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      trickle = setInterval(() => trickling.socket.writable && trickling.socket.write('X'), 200);
      // Past the cap, a connection is closed at once; those within it stay until their deadline. "At once"
      // is told from "at the deadline" by half the deadline, not by a fixed second a busy machine may pass.
      const crowd = Array.from({ length: METRICS_MAX_CONNECTIONS + 3 }, opened);
      const bound = 2 * METRICS_HEADERS_TIMEOUT_MS + 3000;
      for (const [name, c] of [['silent', silent], ['trickling', trickling]] as const) {
        expect([name, await within(c.closed, bound)]).not.toEqual([name, 'still open']);
      }
      const closedAfter = await Promise.all(crowd.map((c) => within(c.closed, bound)));
      expect(closedAfter.filter((ms) => ms !== 'still open' && ms < METRICS_HEADERS_TIMEOUT_MS / 2).length).toBeGreaterThanOrEqual(3);
      crowd.forEach((c) => c.socket.destroy());
      await Promise.all(crowd.map((c) => c.closed));
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    } finally {
      clearInterval(trickle);
      sockets.forEach((socket) => socket.destroy());
      await scraper.close();
    }
  }, 20_000);

  it('issue 12 item 10: the API port does not serve /metrics, with or without credentials', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/metrics', token: await t.personToken(ADULT) })).statusCode).toBe(404);
  });
});

describe('headers, CORS and load shedding', () => {
  it('sends headers fit for a JSON API and no CORS headers unless configured', async () => {
    const t = await startTestApp();
    try {
      const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(ADULT), headers: { origin: 'https://app.example' } });
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      // Plain HTTP (inject): HSTS only over HTTPS (issue 15; test/e2e/https.e2e.test.ts shows it there).
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await t.app.inject({ method: 'OPTIONS', url: '/patients/appointments/', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('answers browsers of configured origins only', async () => {
    const t = await startTestApp({ protection: { corsOrigins: ['https://app.example'] } });
    try {
      const preflight = await t.app.inject({
        method: 'OPTIONS', url: '/patients/appointments/',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,patient' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
      const other = await t.app.inject({ method: 'OPTIONS', url: '/patients/appointments/', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const real = await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(ADULT), headers: { origin: 'https://app.example' } });
      expect(real.statusCode).toBe(200);
      expect(real.headers['access-control-expose-headers']).toContain('X-Request-Id');
    } finally {
      await t.close();
    }
  });

  it('sheds load with 503 and Retry-After, in the route shape, while the process is over its limits', async () => {
    const t = await startTestApp({ protection: { pressureMaxHeapUsedMb: 64 } });
    try {
      // ~80 MB of numbers on the heap (strings of one repeated character would not count: V8 keeps them compact).
      const ballast = Array.from({ length: 80 }, () => new Array<number>(128 * 1024).fill(Math.random()));
      const token = await t.personToken(ADULT);
      let res = await t.call({ method: 'GET', url: '/patients/contacts/', token });
      for (let i = 0; i < 20 && res.statusCode !== 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await t.call({ method: 'GET', url: '/patients/contacts/', token });
      }
      expect(ballast.length).toBe(80);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ status: 503, error: 'The service is overloaded. Try again later.', path: '/patients/contacts/' });
      expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

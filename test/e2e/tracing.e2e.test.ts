import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/util.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { databaseAvailable, databaseUrl } from '../support/database.js';
import { redisUrl, skipWithoutRedis } from '../support/redis.js';
import { FOUND_PATHS, JWT } from '../support/identity-paths.js';
import { UNMATCHED_PATH } from '../../src/http/logged-path.js';
import { identityNumbersIn, readings, stringsOf, tokensIn } from '../support/log-grep.js';
import { digitRunsOf, FUZZ_SEEDS, fuzzPaths, REVIEW_PATHS } from '../support/path-fuzz.js';
import { TestIssuer } from '../support/test-issuer.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';
import { builtServiceArgs } from '../support/built-service.js';
import { inheritedEnv } from '../support/compile-cache.js';

const ADULT = '191212121212';
const KEY = `trace-test-key-${randomBytes(8).toString('hex')}`;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  links?: Array<{ traceId: string; spanId: string; traceState?: string }>;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  events?: Array<{ name: string; timeUnixNano?: string; attributes?: Array<{ key: string; value: Record<string, unknown> }> }>;
}

/**
 * Every text the service wrote into a span: its name, its attributes, its events' names and
 * attributes. Not the ids the tracer made nor the times the exporter writes: an event's
 * `timeUnixNano` is a 19-digit string of the clock, and CI failed at 05:50:05 one day because
 * 1795672205204157795 holds 205204157795, a valid identity number by its form.
 */
const spanTexts = (span: OtlpSpan): string[] => [
  span.name, ...stringsOf(span.attributes), ...(span.events ?? []).flatMap((e) => [e.name, ...stringsOf(e.attributes)]),
];

/** A loopback OTLP/HTTP receiver taking JSON exports (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
async function startReceiver(spans: OtlpSpan[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> };
        for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const attr = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

/**
 * The service as `npm start` runs it, with OTEL_EXPORTER_OTLP_ENDPOINT set, on the remote EHR, the
 * PostgreSQL audit trail and Redis, so that the undici, pg and ioredis instrumentations are all in
 * play; its spans go to a receiver in this test.
 */
it('scans what the service wrote into a span, not the exporter\'s clock (an event\'s timeUnixNano once held a valid identity number)', () => {
  const span: OtlpSpan = {
    traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'GET /patients/:id', kind: 2,
    attributes: [{ key: 'url.path', value: { stringValue: `/patients/${ADULT}` } }],
    events: [{ name: 'exception', timeUnixNano: '1795672205204157795', attributes: [{ key: 'exception.message', value: { stringValue: 'no such patient' } }] }],
  };
  expect(spanTexts(span).flatMap((text) => identityNumbersIn(text))).toEqual([ADULT]);
  expect(spanTexts(span)).toEqual(expect.arrayContaining(['exception', 'no such patient']));
});

describe.runIf(await databaseAvailable() && !(await skipWithoutRedis()))('issue 15 item 3: OpenTelemetry traces', () => {
  const spans: OtlpSpan[] = [];
  /** The headers of every request the EHR got. */
  const ehrHeaders: IncomingHttpHeaders[] = [];
  const output: string[] = [];
  let dir: string;
  let database: string;
  let receiver: { server: Server; url: string };
  let sim: EhrSimulator;
  let issuer: TestIssuer;
  let child: ChildProcess;
  let base: string;
  let token: string;

  const admin = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl(), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-tracing-'));
    database = `pdas_trace_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE "${database}"`);
    const dbUrl = new URL(databaseUrl());
    dbUrl.pathname = `/${database}`;
    await generateDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: 'Europe/Stockholm' });
    sim = await startEhrSimulator({
      dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: 'Europe/Stockholm',
      onRequest: (req) => void ehrHeaders.push({ ...req.headers }),
    });
    receiver = await startReceiver(spans);
    issuer = await TestIssuer.start();
    token = await issuer.sign({ patient: ADULT, scope: 'user/Appointment-read user/JournalNote-read user/Payment-write' });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, await builtServiceArgs(), {
      env: {
        ...inheritedEnv(), PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0', DATA_DIR: path.join(dir, 'data'),
        EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.url, AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `trace:${KEY}`, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none',
        DATABASE_URL: dbUrl.toString(), REDIS_URL: redisUrl(), LOG_LEVEL: 'info',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    for (let i = 0; i < 150; i++) {
      const ready = await fetch(`${base}/health/ready`).then((r) => r.ok, () => false);
      if (ready) return;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`service did not become ready:\n${output.join('')}`);
  }, 40_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await sim?.close();
    await issuer?.close();
    await new Promise((r) => receiver?.server.close(r));
    await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  /** The request span that keeps the caller's trace `callerTrace` as a link (and is named `name`, when given). */
  const linkedTo = (callerTrace: string, name?: string): OtlpSpan | undefined =>
    spans.find((s) => s.links?.some((l) => l.traceId === callerTrace) && (name === undefined || s.name === name));

  async function until<T>(find: () => T | undefined, what: string): Promise<T> {
    for (let i = 0; i < 100; i++) {
      const found = find();
      if (found !== undefined) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what} never arrived; spans: ${spans.map((s) => s.name).join(', ')}\n${output.join('').slice(-3000)}`);
  }

  it('one span per request with the operation, the EHR calls and the audit write below it; traceparent reaches the EHR; trace id in the log', async () => {
    const gatewayTrace = randomBytes(16).toString('hex');
    const res = await fetch(`${base}/patients/appointments/?subscription-key=${KEY}`, {
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${gatewayTrace}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(200);
    const request = await until(() => linkedTo(gatewayTrace, 'GET /patients/appointments/'), 'the request span');
    expect(request.kind).toBe(2); // SERVER
    expect(attr(request, 'pdas.operation')).toEqual(expect.any(String));
    // The gateway's trace is a link, never the parent: the request starts a trace of its own.
    const ownTrace = request.traceId;
    expect(ownTrace).not.toBe(gatewayTrace);
    const inTrace = (): OtlpSpan[] => spans.filter((s) => s.traceId === ownTrace);
    const below = (ancestor: OtlpSpan, span: OtlpSpan): boolean => {
      for (let p = span.parentSpanId, hops = 0; p && hops < 10; p = inTrace().find((s) => s.spanId === p)?.parentSpanId, hops++) {
        if (p === ancestor.spanId) return true;
      }
      return false;
    };
    const ehr = await until(() => inTrace().find((s) => s.name.startsWith('ehr get')), 'an EHR call span');
    const audit = await until(() => inTrace().find((s) => s.name === 'audit append'), 'the audit span');
    const http = await until(() => inTrace().find((s) => s.kind === 3 && below(ehr, s)), 'the undici span below the EHR call');
    const insert = await until(() => inTrace().find((s) => /^pg\./.test(s.name) && below(audit, s)), 'a pg span below the audit write');
    // The EHR calls and the audit write are the request span's own children; HTTP and SQL below them.
    expect(ehr.parentSpanId).toBe(request.spanId);
    expect(audit.parentSpanId).toBe(request.spanId);
    for (const span of [http, insert]) expect(below(request, span)).toBe(true);
    expect(inTrace().some((s) => attr(s, 'db.system.name') === 'redis')).toBe(true);

    expect(ehrHeaders.some((h) => String(h.traceparent).split('-')[1] === ownTrace)).toBe(true);
    // Log lines are buffered up to a second (src/http/logging.ts).
    const completed = await until(() => output.join('').split('\n').find((l) => l.includes('"request completed"') && l.includes(ownTrace)), 'the log line');
    expect(JSON.parse(completed)).toMatchObject({ trace_id: ownTrace, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('a write, whose body is read before its handler runs, keeps its EHR calls and audit records in its own trace', async () => {
    const writeTrace = randomBytes(16).toString('hex');
    const res = await fetch(`${base}/patients/paymentnotice/`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY, 'content-type': 'application/json',
        traceparent: `00-${writeTrace}-${randomBytes(8).toString('hex')}-01`,
      },
      body: JSON.stringify({ status: 'PAID', contactId: 'no-such-booking-1', paymentType: 'CARD' }),
    });
    expect(res.status).toBe(200);
    const request = await until(() => linkedTo(writeTrace, 'POST /patients/paymentnotice/'), 'the write span');
    const audits = await until(() => {
      const found = spans.filter((s) => s.traceId === request.traceId && s.name === 'audit append');
      return found.length >= 2 ? found : undefined;
    }, 'the attempt and outcome records');
    expect(audits.map((s) => attr(s, 'pdas.audit.phase')).sort()).toEqual(['attempt', 'outcome']);
    expect(spans.some((s) => s.traceId === request.traceId && s.name.startsWith('ehr '))).toBe(true);
    expect(request.parentSpanId ?? '').toBe('');
  });

  it('no span carries an identity number, a token or a subscription key', async () => {
    const stray = randomBytes(16).toString('hex');
    await fetch(`${base}/patients/${ADULT}/records?subscription-key=${KEY}&access_token=${token}`, {
      headers: { authorization: `Bearer ${token}`, patient: ADULT, traceparent: `00-${stray}-${randomBytes(8).toString('hex')}-01` },
    });
    await fetch(`${base}/patients/journalnotes/`, { headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY } });
    await until(() => linkedTo(stray), 'the 404 request span');
    await until(() => spans.find((s) => s.name === 'ehr getJournalNotes'), 'the journal read');
    await new Promise((r) => setTimeout(r, 300));
    const exported = JSON.stringify(spans);
    expect(exported).toContain('/ehr/v1/patients/[REDACTED]/');
    expect(exported).not.toContain(ADULT);
    expect(exported).not.toContain(token);
    expect(exported).not.toContain(token.split('.')[1]);
    expect(exported).not.toContain(KEY);
  });

  it('issue 34 item 6: no span attribute holds an identity number or a token however the path spells it (url.path, http.target, url.full; server and EHR client spans)', async () => {
    const traces = new Map<string, string>();
    for (const path of [...FOUND_PATHS, `/patients/${JWT}/appointments/`]) {
      const trace = randomBytes(16).toString('hex');
      traces.set(trace, path);
      await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY, traceparent: `00-${trace}-${randomBytes(8).toString('hex')}-01` } });
    }
    const readTrace = randomBytes(16).toString('hex');
    await fetch(`${base}/patients/appointments/`, {
      headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY, traceparent: `00-${readTrace}-${randomBytes(8).toString('hex')}-01` },
    });
    // A path that does not decode (`%ZZ`, a byte that is no UTF-8) is refused before routing, with no request span to wait for.
    const decodes = (path: string): boolean => {
      try {
        return decodeURIComponent(path) !== undefined;
      } catch {
        return false;
      }
    };
    for (const [trace, path] of traces) if (decodes(path)) await until(() => linkedTo(trace), `the request span of ${path}`);
    const read = await until(() => linkedTo(readTrace, 'GET /patients/appointments/'), 'the read');
    const client = await until(() => spans.find((s) => s.traceId === read.traceId && s.kind === 3 && attr(s, 'url.full') !== undefined), 'an EHR client span of the read');
    // Every text of every span, read decoded.
    const texts = spans.flatMap(spanTexts);
    expect(texts.flatMap((text) => [...identityNumbersIn(text, [ADULT]), ...tokensIn(text)])).toEqual([]);
    const served = spans.filter((s) => s.links?.some((l) => traces.has(l.traceId)));
    // Issue 44 item 11: an unmatched path is the marker, never the path as written (it was '/x/ [REDACTED]').
    expect(served.map((s) => attr(s, 'url.path'))).toContain(UNMATCHED_PATH);
    expect(attr(client, 'url.full')).toMatch(/\/ehr\/v1\/patients\/\[REDACTED\]\//);
  });

  it('issue 44 item 11: a request span carries its route\'s template as its path, an unmatched one the marker and its length; a seeded fuzz of paths spelling the number leaves no run of its digits in any span', async () => {
    const paths = [...REVIEW_PATHS, ...fuzzPaths(FUZZ_SEEDS[0], 60, ADULT), '/fhir/Patient/19121212--1212'];
    console.log(`issue 44 item 11: seed ${FUZZ_SEEDS[0]}, 60 paths, and the review's ${REVIEW_PATHS.length}`);
    const traces = new Map<string, string>();
    for (const path of paths) {
      const trace = randomBytes(16).toString('hex');
      traces.set(trace, path);
      await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY, traceparent: `00-${trace}-${randomBytes(8).toString('hex')}-01` } });
    }
    // Probes and the documentation are not traced (src/tracing/start-tracing.ts): no span to wait for.
    const traced = (path: string): boolean => !/^\/(?:health|metrics)(?:[/?]|$)|\/docs(?:[/?]|$)/.test(path);
    for (const [trace, path] of traces) if (traced(path)) await until(() => linkedTo(trace), `the request span of ${path}`);
    const served = spans.filter((s) => s.links?.some((l) => traces.has(l.traceId)));
    const shown = served.map((s) => String(attr(s, 'url.path')));
    expect(shown.filter((p) => /\d/.test(p) || !(p === UNMATCHED_PATH || p.startsWith('/')))).toEqual([]);
    expect(served.filter((s) => attr(s, 'url.path') === UNMATCHED_PATH && attr(s, 'pdas.path_length') === undefined)).toEqual([]);
    const read = served.find((s) => s.links?.some((l) => traces.get(l.traceId) === '/fhir/Patient/19121212--1212'));
    expect([read?.name, attr(read!, 'url.path')]).toEqual(['GET /fhir/Patient/:id', '/fhir/Patient/:id']);
    const leaks = spans.flatMap(spanTexts).flatMap((text) => digitRunsOf(readings(text), ADULT));
    expect(leaks).toEqual([]);
  });

  it('issue 20 item 5c: a caller\'s traceparent, tracestate and baggage are not trusted: a new trace, the caller\'s span only as a link, nothing of them to the EHR (threat 46 of docs/threat-model.md#found-by-independent-review)', async () => {
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const fromNow = ehrHeaders.length;
    // Sampled off by the caller, with a tracestate and a baggage that carry secrets (as in the review).
    const res = await fetch(`${base}/patients/journalnotes/`, {
      headers: {
        authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': KEY, traceparent: `00-${callerTrace}-${callerSpan}-00`,
        tracestate: `leak=${KEY}`, baggage: `leak=${KEY};pin=${ADULT}`,
      },
    });
    expect(res.status).toBe(200);
    const request = await until(() => linkedTo(callerTrace, 'GET /patients/journalnotes/'), 'the request span, traced though the caller sampled it off');
    expect(request.traceId).not.toBe(callerTrace);
    expect(request.parentSpanId ?? '').toBe('');
    expect(request.links).toEqual([expect.objectContaining({ traceId: callerTrace, spanId: callerSpan })]);
    expect(request.links?.[0]?.traceState ?? '').toBe('');
    await until(() => spans.find((s) => s.traceId === request.traceId && s.name === 'ehr getJournalNotes'), 'the EHR call in the new trace');
    expect(spans.filter((s) => s.traceId === callerTrace)).toEqual([]);

    const upstream = ehrHeaders.slice(fromNow);
    expect(upstream.length).toBeGreaterThan(0);
    for (const headers of upstream) {
      expect(headers.traceparent).toMatch(new RegExp(`^00-${request.traceId}-[0-9a-f]{16}-01$`));
      expect(headers).not.toHaveProperty('baggage');
      expect(headers).not.toHaveProperty('tracestate');
    }
    expect(JSON.stringify(upstream)).not.toContain(KEY);
    expect(JSON.stringify(upstream)).not.toContain(callerTrace);
  });
});

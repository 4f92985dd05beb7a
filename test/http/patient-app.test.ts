/**
 * The patient app at /app/ (docs/patient-app.md): served in demo mode with the FHIR API on, with a
 * Content-Security-Policy that keeps the page to the service and the authorization server; 404
 * anywhere else, as any unknown path. No path reaches a file outside the built folder, however it
 * is written on the wire; a folder nobody built answers 503 saying how to build it. The app's
 * words for operations, bases and outcomes are the service's own.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIS_NAMES as APP_BASES, OPERATION_NAMES, OUTCOME_NAMES as APP_OUTCOMES, TITLES } from '../../app/src/i18n.js';
import { parseRangeText } from '../../app/src/reference-range.js';
import { BASES, BASIS_NAMES, OUTCOME_NAMES, operationDisplayName } from '../../src/domain/access-log/display-names.js';
import { OPERATIONS, READ_NAMES } from '../../src/domain/operations/table.js';
import { SUBSCRIPTION_OPERATIONS } from '../../src/domain/operations/subscription-operations.js';
import { categoryOf, PROXY_CATEGORIES, readsOfCategory } from '../../src/domain/proxies/categories.js';
import { APP_READS, CATEGORY_NAMES, READ_CATEGORIES } from '../../scripts/app-names/names.js';
import { NOT_BUILT, patientAppRoutes } from '../../src/http/patient-app/patient-app-routes.js';
import { namesModuleSource } from '../../scripts/app-names/modules.js';
import { buildPatientApp, patientAppIsCurrent } from '../../scripts/build-app.js';
import { RawConnection } from '../support/raw-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const DEMO = { kind: 'demo', issuer: 'http://127.0.0.1:8081' } as const;
/** The app's names and demo mode, as the composition gives them (its registration's `client_name#sv`/`#en`). */
const NAMES = { names: { sv: 'Patientappen', en: 'Patient app' }, demo: true } as const;

/** Paths that would name a file outside the app's folder if anything decoded or joined them naively. */
const TRAVERSALS = [
  '/app/../package.json', '/app/%2e%2e/package.json', '/app/%2E%2E/package.json', '/app/..%2fpackage.json', '/app/..%2Fpackage.json',
  '/app/%2e%2e%2fpackage.json', '/app/..%5cpackage.json', '/app/..\\package.json', '/app/%252e%252e%252fpackage.json',
  '/app/./../secret.txt', '/app/../secret.txt', '/app/%2e%2e/secret.txt', '/app/..%2fsecret.txt', '/app/%2fetc%2fpasswd',
  '/app//etc/passwd', '/app/.%2e/secret.txt', '/app/index.html%00.js', '/app/%c0%ae%c0%ae/secret.txt', '/app/....//secret.txt',
];

describe('the patient app at /app/ in demo mode', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp({ oauth: DEMO }); }, 60_000);
  afterAll(async () => t.close());

  it('serves index.html at /app/ and /app with the CSP and the strict headers, and its script and style', async () => {
    for (const url of ['/app/', '/app', '/app/index.html', '/app/?code=abc&state=def']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self' http://127.0.0.1:8081");
      expect(csp).not.toMatch(/unsafe|\*/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      // Everything the page loads is the service's own: its files below /app/, nothing from elsewhere.
      const loads = [...res.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
      expect(loads.sort()).toEqual(['/app/main.js', '/app/style.css']);
    }
    const script = await t.app.inject({ method: 'GET', url: '/app/main.js' });
    expect([script.statusCode, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.headers['content-security-policy']).toBeDefined();
    const style = await t.app.inject({ method: 'GET', url: '/app/style.css' });
    expect([style.statusCode, style.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  });

  it('answers 404 for an asset that is not there, and for any type it does not serve', async () => {
    for (const url of ['/app/nope.js', '/app/nope/main.js', '/app/main.js.map', '/app/README.md', '/app/.hidden', '/app/notes.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
  });

  it('never answers a file outside dist/app, however the path is written on the wire', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const connection = await RawConnection.open(Number(new URL(address).port));
    connection.write(TRAVERSALS.map((p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    const answers = await connection.answered(TRAVERSALS.length);
    expect(answers.map((a) => a.status).every((s) => s === 404 || s === 400)).toBe(true);
    expect(answers).toHaveLength(TRAVERSALS.length);
    for (const a of answers) expect(a.body).not.toContain('patient-data-access-service');
  });
});

describe('the patient app is not served outside demo mode', () => {
  const cases = [
    ['without the demo issuer (AUTH_ISSUER set)', { oauth: { kind: 'issuer', issuer: 'https://idp.example' } as const }],
    ['with no issuer named', {}],
    ['in demo mode with FHIR_API=off', { oauth: DEMO, fhirApiOff: true }],
  ] as const;
  for (const [name, options] of cases) {
    it(`/app/ is 404 ${name}`, async () => {
      const t = await startTestApp(options);
      try {
        for (const url of ['/app/', '/app', '/app/main.js']) expect([url, (await t.app.inject({ method: 'GET', url })).statusCode]).toEqual([url, 404]);
      } finally {
        await t.close();
      }
    });
  }
});

describe('the patient app plugin over a folder of its own', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-patient-app-'));
    await mkdir(path.join(dir, 'dist', 'app'), { recursive: true });
    await writeFile(path.join(dir, 'dist', 'app', 'index.html'), '<script src="%APP_BASE%main.js"></script>');
    await writeFile(path.join(dir, 'dist', 'app', 'main.js'), 'void 0;');
    await writeFile(path.join(dir, 'dist', 'secret.txt'), 'outside the app');
    await writeFile(path.join(dir, 'secret.txt'), 'outside the app');
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await app.register(patientAppRoutes, { prefix: '/pdas', basePath: '/pdas', issuer: 'http://127.0.0.1:9/', ...NAMES, dir: path.join(dir, 'dist', 'app') });
    await app.register(patientAppRoutes, { prefix: '/unbuilt', basePath: '/unbuilt', issuer: 'http://127.0.0.1:9/', ...NAMES, dir: path.join(dir, 'nowhere') });
    await app.register(patientAppRoutes, {
      prefix: '/here', basePath: '/here', issuer: 'http://127.0.0.1:9/', ...NAMES, publicBaseUrl: 'http://127.0.0.1:8080/here', dir: path.join(dir, 'dist', 'app'),
    });
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts the subscription key it is given in the page, escaped, and an empty one otherwise', async () => {
    await writeFile(path.join(dir, 'dist', 'app', 'index.html'), '<meta name="subscription-key" content="%SUBSCRIPTION_KEY%"><script src="%APP_BASE%main.js"></script>');
    const keyed = Fastify();
    await keyed.register(patientAppRoutes, { basePath: '', issuer: 'http://127.0.0.1:9/', ...NAMES, subscriptionKey: 'k"<1', dir: path.join(dir, 'dist', 'app') });
    expect((await keyed.inject({ method: 'GET', url: '/app/' })).body).toBe('<meta name="subscription-key" content="k&quot;&lt;1"><script src="/app/main.js"></script>');
    await keyed.close();
    expect((await app.inject({ method: 'GET', url: '/pdas/app/' })).body).toBe('<meta name="subscription-key" content=""><script src="/pdas/app/main.js"></script>');
    await writeFile(path.join(dir, 'dist', 'app', 'index.html'), '<script src="%APP_BASE%main.js"></script>');
  });

  it('issue 55 item 6: puts the app\'s registered names in the page, escaped, "(demo)" in its title only in demo mode', async () => {
    await writeFile(path.join(dir, 'dist', 'app', 'index.html'), '<title>%APP_TITLE%</title><meta content="%APP_NAME_SV%|%APP_NAME_EN%|%DEMO%">');
    const region = Fastify();
    await region.register(patientAppRoutes, { basePath: '', issuer: 'http://127.0.0.1:9/', names: { sv: 'Hälso<appen>', en: '"Health" app %DEMO%' }, demo: false, dir: path.join(dir, 'dist', 'app') });
    expect((await region.inject({ method: 'GET', url: '/app/' })).body)
      .toBe('<title>&quot;Health&quot; app %DEMO%</title><meta content="Hälso&lt;appen&gt;|&quot;Health&quot; app %DEMO%|off">');
    await region.close();
    expect((await app.inject({ method: 'GET', url: '/pdas/app/' })).body).toBe('<title>Patient app (demo)</title><meta content="Patientappen|Patient app|on">');
    await writeFile(path.join(dir, 'dist', 'app', 'index.html'), '<script src="%APP_BASE%main.js"></script>');
  });

  it('names its files below BASE_PATH', async () => {
    const res = await app.inject({ method: 'GET', url: '/pdas/app' });
    expect(res.body).toBe('<script src="/pdas/app/main.js"></script>');
    expect(res.headers['content-security-policy']).toContain("connect-src 'self' http://127.0.0.1:9;");
  });

  it('keeps the files beside its folder out of reach', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const paths = TRAVERSALS.map((p) => p.replace('/app/', '/pdas/app/'));
    const connection = await RawConnection.open(Number(new URL(address).port));
    connection.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    const answers = await connection.answered(paths.length);
    expect(answers).toHaveLength(paths.length);
    expect(answers.filter((a) => a.body.includes('outside the app') || a.status === 200).length).toBe(0);
  });

  it('sends the page opened at another loopback name of PUBLIC_BASE_URL\'s port there, where it can sign in; nothing else moves', async () => {
    const page = (url: string, host: string) => app.inject({ method: 'GET', url, headers: { host } });
    for (const [url, host] of [['/here/app/', 'localhost:8080'], ['/here/app', '[::1]:8080'], ['/here/app/index.html?code=c&state=s', 'localhost:8080']] as const) {
      const res = await page(url, host);
      expect([url, host, res.statusCode, res.headers.location]).toEqual([url, host, 302, `http://127.0.0.1:8080/here/app/${url.includes('?') ? '?code=c&state=s' : ''}`]);
    }
    // The address itself, another port, a name that is not loopback (a proxy's), and the page's files: served where asked.
    for (const [url, host] of [['/here/app/', '127.0.0.1:8080'], ['/here/app/', 'localhost:9999'], ['/here/app/', 'patient-api.example:8080'], ['/here/app/main.js', 'localhost:8080']] as const) {
      expect([url, host, (await page(url, host)).statusCode]).toEqual([url, host, 200]);
    }
  });

  it('answers 503 saying to run the build when nobody built the app', async () => {
    for (const url of ['/unbuilt/app/', '/unbuilt/app/main.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([503, 'text/plain; charset=utf-8', NOT_BUILT]);
    }
    expect(NOT_BUILT).toContain('npm run build');
  });
});

describe("the app's words are the access log's", () => {
  it('names every operation as the access log does, and titles its sections with those names', () => {
    // The table's, the FHIR API's own, and the authorization server's grants of app access (issue 46) and a launch's steps (issue 52), and notifications' (issue 54).
    const operations = [...Object.keys(OPERATIONS), 'getPatientSummary', 'grantAppAccess', 'revokeAppAccess', 'pickAppPatient', 'issueAppToken', 'refreshAppToken',
      'expireProxy', 'lapseProxy', ...SUBSCRIPTION_OPERATIONS.keys()];
    expect(Object.keys(OPERATION_NAMES).sort()).toEqual(operations.sort());
    for (const op of operations) expect([op, OPERATION_NAMES[op]]).toEqual([op, operationDisplayName(op)]);
    // Each read's section is titled as its folder's description says: with the access log's name of the read.
    for (const { read, title } of APP_READS) expect([read, title]).toEqual([read, operationDisplayName(read)]);
    expect(APP_READS.find((r) => r.read === 'getMedications')?.title).toEqual({ sv: 'Läkemedel', en: 'Medications' });
    expect(TITLES.summary).toEqual(operationDisplayName('getPatientSummary'));
  });

  it('names each category a person may share by its read, as the record\'s sections are named, and knows each read\'s category', () => {
    expect(Object.keys(CATEGORY_NAMES)).toEqual([...PROXY_CATEGORIES]);
    const titleOf = (read: string) => APP_READS.find((r) => r.read === read)?.title;
    expect(CATEGORY_NAMES.LabResult).toEqual(titleOf('getLabResults'));
    expect(CATEGORY_NAMES.MedicationPrescription).toEqual(titleOf('getMedications'));
    for (const category of PROXY_CATEGORIES) expect(CATEGORY_NAMES[category]).toEqual(operationDisplayName(readsOfCategory(category)[0] ?? ''));
    for (const read of READ_NAMES) expect([read, READ_CATEGORIES[read]]).toEqual([read, categoryOf(read)]);
    // The access log and the writes are never shared: no category names them.
    expect(READ_CATEGORIES.getAccessLog).toBeUndefined();
  });

  it('names bases and outcomes as the access log does', () => {
    expect(APP_BASES).toEqual(BASES.map((b) => BASIS_NAMES[b]));
    expect([APP_OUTCOMES[0], APP_OUTCOMES[4], APP_OUTCOMES[8]]).toEqual([OUTCOME_NAMES.allowed, OUTCOME_NAMES.denied, OUTCOME_NAMES.failed]);
  });

  it('keeps no copy: the built bundle holds the names of the operation table of now, as data, without typebox', async () => {
    // Built here, into a directory of the test's own: dist/app's file times say nothing once a checkout or a merge
    // touches app/ during a run (the whole suite at 7dbb684 failed so), and a fresh clone has no dist/app at all.
    const out = await mkdtemp(path.join(tmpdir(), 'pdas-app-names-'));
    try {
      await buildPatientApp({ typecheck: false }, out);
      expect(await patientAppIsCurrent(out)).toBe(true);
      expect(await readFile(path.join(out, '.access-log-names'), 'utf8')).toBe(await namesModuleSource());
      // esbuild writes non-ASCII letters as escapes; read them back before looking for the names.
      const bundle = (await readFile(path.join(out, 'main.js'), 'utf8'))
        .replace(/\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4}))/g, (_, x?: string, u?: string) => String.fromCharCode(parseInt(x ?? u ?? '', 16)));
      for (const op of [...Object.keys(OPERATIONS), 'getPatientSummary']) {
        const { sv, en } = operationDisplayName(op);
        expect([op, bundle.includes(JSON.stringify(sv)), bundle.includes(JSON.stringify(en))]).toEqual([op, true, true]);
      }
      expect(bundle).not.toContain('~kind');
      // A table whose names changed since the build (a scaffolded read) makes the bundle stale, so the suite's set-up builds it again.
      await writeFile(path.join(out, '.access-log-names'), (await namesModuleSource()).replace('getJournalNotes', 'getJournalNotesBefore'));
      expect(await patientAppIsCurrent(out)).toBe(false);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('reference ranges as Swedish labs write them', () => {
  it('reads both ends, one end, decimal commas, and nothing from other text', () => {
    expect(parseRangeText('105–145')).toEqual({ low: 105, high: 145 });
    expect(parseRangeText('0,5–0,8')).toEqual({ low: 0.5, high: 0.8 });
    expect(parseRangeText('3.5 - 8.8')).toEqual({ low: 3.5, high: 8.8 });
    expect(parseRangeText('<5')).toEqual({ high: 5 });
    expect(parseRangeText('>1,0')).toEqual({ low: 1 });
    expect(parseRangeText('negativ')).toEqual({});
    expect(parseRangeText('8–3')).toEqual({});
  });
});

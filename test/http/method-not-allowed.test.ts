/**
 * Issue 22 item 3: every documented path asked with a method it does not serve answers 405 with
 * `Allow`, in that path's error shape, with or without credentials; an unknown path stays 404, and
 * OPTIONS still answers a CORS preflight. The paths and their methods are read from the operation
 * table here, not from the route table the service derives them with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS } from '../../src/domain/operations/table.js';
import type { Operation } from '../../src/domain/operations/operation.js';
import { RawConnection } from '../support/raw-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH', 'TRACE'] as const;
type Method = (typeof METHODS)[number];

/** Every documented path (spec and vendor), with the methods the table serves there and its error shape. */
function documentedPaths(): Map<string, { served: Set<Method>; shape: Operation['errorShape'] }> {
  const paths = new Map<string, { served: Set<Method>; shape: Operation['errorShape'] }>();
  for (const name of OPERATION_NAMES) {
    const op: Operation = OPERATIONS[name];
    for (const path of [op.path, ...op.vendorPaths]) {
      const entry = paths.get(path) ?? { served: new Set<Method>(), shape: op.errorShape };
      entry.served.add(op.method);
      if (op.method === 'GET') entry.served.add('HEAD');
      paths.set(path, entry);
    }
  }
  return paths;
}

const PATHS = documentedPaths();

describe('issue 22 item 3: a documented path and a method it does not serve', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ protection: { corsOrigins: ['https://app.example'] } });
    token = await t.personToken(ADULT);
  });
  afterAll(() => t.close());

  it.each([...PATHS.keys()])('%s: 405 with Allow in its error shape for every method it does not serve, both slash forms, with and without credentials', async (path) => {
    const { served, shape } = PATHS.get(path) ?? { served: new Set<Method>(), shape: 'status' as const };
    const allow = METHODS.filter((m) => served.has(m)).join(', ');
    // A grant id where the path has one; the other slash form beside the table's.
    const filled = path.replace('{id}', '0123456789abcdef0123456789abcdef');
    for (const method of METHODS.filter((m) => !served.has(m))) {
      for (const url of [filled, filled.endsWith('/') ? filled.slice(0, -1) : `${filled}/`]) {
        for (const credentials of [{ token }, { key: null }]) {
          const res = await t.call({ method, url, ...credentials });
          const label = `${method} ${url}`;
          expect([label, res.statusCode, res.headers.allow]).toEqual([label, 405, allow]);
          // A HEAD answer has no body (RFC 9110 §9.3.2).
          if (method === 'HEAD') continue;
          const body = res.json() as Record<string, unknown>;
          const message = `Method not allowed: this path takes ${allow}.`;
          if (shape === 'status') expect([label, body]).toEqual([label, { statusCode: 405, message }]);
          else expect([label, body]).toEqual([label, { error: message, path: url, status: 405, timestamp: t.clock.now() }]);
        }
      }
    }
  });

  it('answers an unknown path 404 whatever the method', async () => {
    for (const method of METHODS.filter((m) => m !== 'HEAD')) {
      const res = await t.call({ method, url: '/patients/nothing-here/', token });
      expect([method, res.statusCode, res.headers.allow]).toEqual([method, 404, undefined]);
    }
  });

  it('still answers a CORS preflight on every documented path', async () => {
    for (const path of PATHS.keys()) {
      const res = await t.call({
        method: 'OPTIONS', url: path, key: null,
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      });
      expect([path, res.statusCode, res.headers['access-control-allow-origin']]).toEqual([path, 204, 'https://app.example']);
    }
  });
});

describe('issue 22 item 3: under BASE_PATH', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ basePath: '/patient-api' });
  });
  afterAll(() => t.close());

  it('answers 405 at the prefixed path, and 404 at the bare one', async () => {
    const path = OPERATIONS.getJournalNotes.path;
    expect((await t.call({ method: 'DELETE', url: `/patient-api${path}`, key: null })).statusCode).toBe(405);
    expect((await t.call({ method: 'DELETE', url: path, key: null })).statusCode).toBe(404);
  });
});

/**
 * The pages that are not operations: the OpenAPI document, the docs page, the health checks, the
 * favicon and the root's redirect answer GET and HEAD only, and any other method with 405 and `Allow`
 * in the error shape of every path that is not an operation's, as the contract's table of errors says
 * of any known path; they answered 404 before. Listed here, not read from the routes (the docs page's
 * `static/index.html` is a route of its own, a redirect). Another file below the docs page is no route
 * of its own (a wildcard's handler answers 404 for one that does not exist), so another method there
 * stays 404, whether the file exists or not: a hostile review found `POST /app/../../etc/passwd`
 * answered 405 and `Allow: GET, HEAD` where GET answered 404.
 */
const PAGES = ['/', '/openapi.json', '/docs', '/docs/static/index.html', '/health/live', '/health/ready', '/favicon.ico'];

describe('a page that is not an operation, and a method it does not serve', () => {
  let t: TestApp;
  let port: number | undefined;
  /** The app's port, listening from the first test that sends raw bytes on. */
  const listening = async (): Promise<number> => port ??= Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  beforeAll(async () => {
    t = await startTestApp({ protection: { corsOrigins: ['https://app.example'] } });
  });
  afterAll(() => t.close());

  it.each(PAGES)('%s: served by GET, and 405 with Allow: GET, HEAD for every other method, both slash forms', async (page) => {
    const served = await t.call({ method: 'GET', url: page, key: null });
    expect([page, served.statusCode < 400]).toEqual([page, true]);
    const message = 'Method not allowed: this path takes GET, HEAD.';
    for (const method of ['PUT', 'POST', 'DELETE', 'PATCH', 'TRACE'] as const) {
      for (const url of page === '/' ? [page] : [page, `${page}/`]) {
        const res = await t.call({ method, url, key: null, ...(method === 'TRACE' ? {} : { payload: { a: 1 } }) });
        expect([method, url, res.statusCode, res.headers.allow, res.json()]).toEqual([method, url, 405, 'GET, HEAD', { statusCode: 405, message }]);
      }
    }
  });

  it('answers a path beside the pages, or a file below the docs page, 404 whatever the method: only a route of its own is known', async () => {
    for (const url of ['/health/other', '/openapi.yaml', '/docs-other', '/favicon.png', '/health', '/docs/static/swagger-ui.css', '/docs/static/nothing.js', '/docs/static/../../etc/passwd']) {
      // GET of a docs file is the static files' own answer (a redirect or 404); every other answer here is an unknown path's.
      for (const method of url.startsWith('/docs/static/') ? ['POST', 'DELETE'] as const : ['GET', 'POST', 'DELETE'] as const) {
        const res = await t.call({ method, url, key: null });
        expect([method, url, res.statusCode, res.headers.allow]).toEqual([method, url, 404, undefined]);
      }
    }
  });

  it('answers a path with an up segment 404 in shape 1 wherever it points, the docs page\'s files too: never the static files\' bare 403 (hostile review)', async () => {
    const connection = await RawConnection.open(await listening());
    // Sent as written: a client library (and inject) would resolve the segments before sending.
    const targets = ['/patients/../openapi.json', '/docs/static/../../openapi.json', '/docs/static/x/../index.html',
      '/docs/static/%2e%2e/%2e%2e/openapi.json', '/docs/static/.%2E/index.html', '/docs/static/..%5cindex.html', '/docs/static/..%00/x', '/docs/static/x%00'];
    connection.write(targets.map((target) => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    const answers = await connection.answered(targets.length);
    expect(answers.map((a, i) => [targets[i], a.status, JSON.parse(a.body) as unknown]))
      .toEqual(targets.map((target) => [target, 404, { statusCode: 404, message: 'Not found.' }]));
  });

  it('answers a request target that is no path (`*`) 404, though the router reads `*` as `/`, a page (hostile review)', async () => {
    const connection = await RawConnection.open(await listening());
    const methods = ['POST', 'PUT', 'DELETE', 'PATCH'];
    connection.write(methods.map((m) => `${m} * HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`));
    const answers = await connection.answered(methods.length);
    expect(answers.map((a) => [a.status, a.headers.allow])).toEqual(methods.map(() => [404, undefined]));
  });
});

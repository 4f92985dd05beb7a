/**
 * docs/fhir-api.md, "Errors", "Formats" and "Interactions" (HEAD, other methods): every error is an
 * OperationOutcome with one issue whose code follows the status, never a stack, an upstream text or
 * personal data; the answer is application/fhir+json unless the caller asks for application/json, and
 * 406 when it takes no JSON; HEAD answers as GET without a body; any other method is 405 with Allow.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, FHIR_JSON, get, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN } from './fhir-calls.js';

const PLAIN_JSON = 'application/json; charset=utf-8';

/** What an error body must never hold: a stack frame, a source path, an upstream's words, an identity number. */
function expectNothingLeaked(res: LightMyRequestResponse, upstreamText?: string): void {
  expect(res.body).not.toMatch(/\bat .+:\d+:\d+|\.ts\b|\.js\b|node_modules|Error:/);
  for (const person of DEMO_PEOPLE) expect(res.body).not.toContain(person.id);
  if (upstreamText !== undefined) expect(res.body).not.toContain(upstreamText);
}

describe('FHIR API: errors, formats and methods', () => {
  let t: TestApp;
  let token: string;
  let observationId: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'patient/*.rs');
    observationId = matchesOf(bundleOf(await get(t, '/fhir/Observation?_count=1', token)))[0]?.id ?? '';
  }, 60_000);
  afterAll(async () => t.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('each status\'s OperationOutcome code', () => {
    it('400 invalid: a bad date, _count, id, or an unknown parameter under Prefer: handling=strict', async () => {
      for (const [url, headers] of [
        ['/fhir/Observation?date=yesterday', {}], ['/fhir/Observation?_count=-1', {}], ['/fhir/Observation/bad_id', {}],
        ['/fhir/Observation?no-such-parameter=1', { prefer: 'handling=strict' }], ['/fhir/Observation?patient=Patient/a_b', {}],
        // Issue 45 item 14: impossible days, refused as the COS door refuses them (docs/contract.md#reads).
        ['/fhir/Appointment?date=ge2025-02-30T10:00:00', {}], ['/fhir/Encounter?date=ge2025-04-31', {}],
      ] as const) {
        const res = await get(t, url, token, headers);
        const issue = outcomeOf(res, 400);
        expect([url, issue.code]).toEqual([url, 'invalid']);
        expect(issue.diagnostics.length).toBeGreaterThan(20);
        expectNothingLeaked(res);
      }
      // Lenient by default: the unknown parameter is ignored, and left out of the self link.
      expect(bundleOf(await get(t, '/fhir/Observation?no-such-parameter=1&_count=0', token)).link[0]?.url).not.toContain('no-such-parameter');
    });

    it('issue 52 item 12: an over-long id on every read path is an OperationOutcome (400 invalid), never the COS shape', async () => {
      // Failed before: GET /fhir/AuditEvent/<200 characters> answered the COS error shape.
      const long = 'a'.repeat(200);
      const types = ((await get(t, '/fhir/metadata')).json() as { rest: { resource: { type: string }[] }[] }).rest[0]?.resource.map((r) => r.type) ?? [];
      expect(types).toContain('AuditEvent');
      for (const path of [...types.map((type) => `/fhir/${type}/${long}`), `/fhir/Patient/${long}/$summary`]) {
        const res = await get(t, path, token);
        expect([path.slice(0, 30), res.headers['content-type']]).toEqual([path.slice(0, 30), expect.stringMatching(/^application\/fhir\+json/)]);
        expect([path.slice(0, 30), outcomeOf(res, 400).code]).toEqual([path.slice(0, 30), 'invalid']);
        expectNothingLeaked(res);
      }
    });

    it('401 login with WWW-Authenticate: no token (bare challenge), a malformed one, an expired one', async () => {
      // Expired by the app's clock (NOW), which is the one the verifier reads.
      const expired = await t.personToken(TOLVAN, { client_id: 'app', scope: 'patient/*.rs', iat: Math.floor(NOW / 1000) - 7200, exp: Math.floor(NOW / 1000) - 3600 });
      for (const [label, bearer, challenge] of [
        ['no token', undefined, /^Bearer$/], ['malformed', 'not.a.jwt', /^Bearer error="invalid_token", error_description="[^"]*malformed/],
        ['expired', expired, /^Bearer error="invalid_token", error_description="[^"]*expired/],
      ] as const) {
        const res = await get(t, '/fhir/Observation', bearer);
        expect([label, outcomeOf(res, 401).code]).toEqual([label, 'login']);
        expect(res.headers['www-authenticate']).toMatch(challenge);
        expectNothingLeaked(res);
      }
    });

    it('403 forbidden: a type not granted, a patient one may not act for', async () => {
      const scope = await get(t, '/fhir/Condition', await smartToken(t, TOLVAN, 'patient/Observation.rs'));
      expect(outcomeOf(scope, 403).code).toBe('forbidden');
      const patient = await get(t, `/fhir/Observation?patient=${pid(DEMO_PEOPLE[1]?.id ?? '')}`, await smartToken(t, TOLVAN, 'user/*.rs'));
      expect(outcomeOf(patient, 403)).toEqual({ severity: 'error', code: 'forbidden', diagnostics: 'Access to the requested patient is not allowed.' });
      expectNothingLeaked(patient);
    });

    it('404 not-found: an unknown id, an unknown type, an unknown path below /fhir', async () => {
      for (const url of ['/fhir/Observation/no-such-id', '/fhir/NoSuchType', '/fhir/Observation/x/y', '/api/open/fhir/NoSuchType/1']) {
        expect([url, outcomeOf(await get(t, url, token), 404).code]).toEqual([url, 'not-found']);
      }
    });

    it('405 and 406 not-supported (below), 429 throttled (app-identity.test.ts)', async () => {
      expect(outcomeOf(await t.call({ method: 'DELETE', url: `/fhir/Observation/${observationId}`, key: null, token }), 405).code).toBe('not-supported');
      expect(outcomeOf(await get(t, '/fhir/Observation?_format=xml', token), 406).code).toBe('not-supported');
    });

    it('502 and 503 transient (503 with Retry-After), 504 timeout: the EHR\'s fault, never its words', async () => {
      const upstream = 'upstream said: ORA-00942 at /srv/ehr/Lab.java:42 for 191212121212';
      for (const [failure, status, code] of [['bad-response', 502, 'transient'], ['unavailable', 503, 'transient'], ['timeout', 504, 'timeout']] as const) {
        vi.spyOn(t.ehr.reads, 'getLabResults').mockRejectedValueOnce(new EhrError(failure, upstream, 7));
        const res = await get(t, '/fhir/Observation', token);
        expect([failure, outcomeOf(res, status).code]).toEqual([failure, code]);
        if (status === 503) expect(res.headers['retry-after']).toBe('7');
        expectNothingLeaked(res, upstream);
      }
      // The fault passed: the next search answers.
      expect(bundleOf(await get(t, '/fhir/Observation?_count=0', token)).total).toBeGreaterThan(0);
    });

    it('a fault of the service itself: 500 exception, no stack, no message of the error', async () => {
      const thrown = new Error('secret internals of 191212121212');
      vi.spyOn(t.ehr.reads, 'getLabResults').mockRejectedValueOnce(thrown);
      const res = await get(t, `/fhir/Observation/${observationId}`, token);
      expect(outcomeOf(res, 500)).toEqual({ severity: 'error', code: 'exception', diagnostics: 'Internal server error.' });
      expectNothingLeaked(res, 'secret internals');
      expect(thrown.stack).toMatch(/\.ts:\d+/);
    });
  });

  describe('formats', () => {
    const urls = () => ['/fhir/metadata', '/fhir/Observation?_count=1', `/fhir/Observation/${observationId}`];

    it('application/fhir+json by default, for */* and for application/fhir+json', async () => {
      for (const url of urls()) {
        for (const accept of [undefined, '*/*', 'application/fhir+json', 'application/*', 'application/fhir+json, application/json']) {
          const res = await get(t, url, token, accept === undefined ? {} : { accept });
          expect([url, accept, res.statusCode, res.headers['content-type']]).toEqual([url, accept, 200, FHIR_JSON]);
          expect(() => JSON.parse(res.body) as unknown).not.toThrow();
        }
      }
    });

    it('Accept: application/json answers application/json (the same body)', async () => {
      for (const url of urls()) {
        const plain = await get(t, url, token, { accept: 'application/json' });
        const fhir = await get(t, url, token);
        expect([url, plain.statusCode, plain.headers['content-type'], plain.body]).toEqual([url, 200, PLAIN_JSON, fhir.body]);
      }
      // Admitting JSON among other types is enough.
      expect((await get(t, urls()[1] ?? '', token, { accept: 'text/html, application/json;q=0.5' })).headers['content-type']).toBe(PLAIN_JSON);
    });

    it('_format=json (and its MIME type) is taken', async () => {
      // `+` in a query is a space: the MIME type is sent encoded.
      for (const format of ['json', encodeURIComponent('application/fhir+json')]) {
        const res = await get(t, `/fhir/Observation?_count=1&_format=${format}`, token);
        expect([format, res.statusCode, res.headers['content-type']]).toEqual([format, 200, FHIR_JSON]);
        expect((await get(t, `/fhir/Observation/${observationId}?_format=${format}`, token)).statusCode).toBe(200);
      }
    });

    it('_format=xml or another format is 406 not-supported', async () => {
      for (const format of ['xml', 'application/fhir+xml', 'html', 'ttl']) {
        for (const url of [`/fhir/Observation?_format=${format}`, `/fhir/Observation/${observationId}?_format=${format}`, `/fhir/metadata?_format=${format}`]) {
          const res = await get(t, url, token);
          expect([url, outcomeOf(res, 406).code]).toEqual([url, 'not-supported']);
        }
      }
    });

    it('an Accept that admits no JSON is 406 not-supported: text/html, XML, JSON refused with q=0', async () => {
      for (const accept of ['text/html', 'application/fhir+xml', 'application/xml, text/xml', 'application/json;q=0']) {
        for (const url of urls()) {
          const res = await get(t, url, token, { accept });
          expect([url, accept, outcomeOf(res, 406).code]).toEqual([url, accept, 'not-supported']);
        }
      }
    });
  });

  describe('methods', () => {
    it('HEAD answers as GET, without a body: discovery, a search, a read, a refusal', async () => {
      for (const [url, withToken] of [
        ['/fhir/metadata', undefined], ['/fhir/.well-known/smart-configuration', undefined], ['/fhir/Observation?_count=2', token],
        [`/fhir/Observation/${observationId}`, token], ['/fhir/Observation/no-such-id', token], ['/fhir/Observation', undefined],
      ] as const) {
        const head = await t.call({ method: 'HEAD', url, key: null, ...(withToken === undefined ? {} : { token: withToken }) });
        const got = await get(t, url, withToken);
        expect([url, head.statusCode, head.headers['content-type'], head.body]).toEqual([url, got.statusCode, got.headers['content-type'], '']);
        expect(head.headers['content-length']).toBe(String(Buffer.byteLength(got.body)));
      }
    });

    it('PUT, PATCH, DELETE, POST and TRACE are 405 not-supported with Allow, on every path, with or without a token', async () => {
      const paths = ['/fhir/Observation', `/fhir/Observation/${observationId}`, `/fhir/Patient/${pid(TOLVAN)}`, '/fhir/Organization',
        '/fhir/metadata', '/fhir/.well-known/smart-configuration', '/api/open/fhir/Condition', '/api/open/fhir/Condition/some-id'];
      for (const url of paths) {
        for (const method of ['PUT', 'PATCH', 'DELETE', 'POST', 'TRACE'] as const) {
          for (const withToken of [token, undefined]) {
            const res = await t.call({ method, url, key: null, ...(withToken === undefined ? {} : { token: withToken }) });
            expect([method, url, outcomeOf(res, 405).code, res.headers.allow]).toEqual([method, url, 'not-supported', 'GET, HEAD']);
          }
        }
      }
    });

    it('a FHIR create or update with its resource body is 405, not a complaint about the body', async () => {
      const body = JSON.stringify({ resourceType: 'Observation', status: 'final' });
      for (const [method, url, type] of [
        ['PUT', `/fhir/Observation/${observationId}`, 'application/fhir+json'], ['POST', '/fhir/Observation', 'application/fhir+json'],
        ['PATCH', `/fhir/Observation/${observationId}`, 'application/json-patch+json'], ['PUT', `/fhir/Patient/${pid(TOLVAN)}`, 'application/fhir+xml'],
      ] as const) {
        const res = await t.call({ method, url, key: null, token, headers: { 'content-type': type }, payload: body });
        expect([method, url, type, outcomeOf(res, 405).code]).toEqual([method, url, type, 'not-supported']);
      }
      // The record was not changed: still readable as it was.
      expect((await get(t, `/fhir/Observation/${observationId}`, token)).statusCode).toBe(200);
    });

    it('hostile review: a GET of _search is told to POST a form, not that the API is read-only and takes POST only', async () => {
      // "This API is read-only: POST only." contradicted itself and named nothing a caller could act on.
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.call({ method, url: '/fhir/Observation/_search', key: null, token });
        const outcome = outcomeOf(res, 405);
        expect([method, outcome.code, res.headers.allow]).toEqual([method, 'not-supported', 'POST']);
        expect(outcome.diagnostics).not.toMatch(/read-only/);
        expect(outcome.diagnostics).toMatch(/POST .*form.*GET \/fhir\/Observation\?/);
      }
    });

    it('POST _search with a form body is the search, the same answer as GET', async () => {
      const post = await t.call({
        method: 'POST', url: '/fhir/Observation/_search', key: null, token,
        headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '_count=2',
      });
      const got = await get(t, '/fhir/Observation?_count=2', token);
      expect([post.statusCode, post.body]).toEqual([200, got.body]);
    });

    // The review of 2026-11-29: a form sent as latin1 or utf-16, or holding bytes (or escapes) that are no
    // UTF-8, was searched with U+FFFD in their place (200, `code=%EF%BF%BD` in the self link).
    it('reads a form and a query as UTF-8 alone: another charset is 415, bytes or escapes that are no UTF-8 are 400', async () => {
      const form = (type: string, payload: string | Buffer) => t.call({
        method: 'POST', url: '/fhir/Observation/_search', key: null, token, headers: { 'content-type': type }, payload,
      });
      for (const type of ['application/x-www-form-urlencoded; charset=iso-8859-1', 'application/x-www-form-urlencoded; charset=utf-16', 'application/x-www-form-urlencoded; charset=utf-8; charset=latin1']) {
        const res = await form(type, 'code=abc');
        expect([type, res.statusCode, outcomeOf(res, 415).diagnostics]).toEqual([type, 415, 'A form is UTF-8: send charset=utf-8, or no charset at all.']);
      }
      const bytes = await form('application/x-www-form-urlencoded', Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x3d, 0xe5]));
      expect([bytes.statusCode, outcomeOf(bytes, 400).diagnostics]).toEqual([400, 'The body is not UTF-8: send the form encoded as UTF-8.']);
      const escapes = 'The parameters hold a percent-escape that is no UTF-8: send each character as the escapes of its UTF-8 bytes, e.g. å as %C3%A5.';
      for (const res of [await form('application/x-www-form-urlencoded', 'code=%FF'), await get(t, '/fhir/Observation?code=%FF', token), await get(t, '/fhir/Observation?code=%E5%25', token)]) {
        expect([res.statusCode, outcomeOf(res, 400).diagnostics]).toEqual([400, escapes]);
      }
      // A character that is one, escaped or not, and U+FFFD itself sent as its escapes, are searched as they are.
      for (const query of ['code=%C3%A5', 'code=%EF%BF%BD', 'code=100%25']) {
        expect([query, (await form('application/x-www-form-urlencoded; charset=UTF-8', query)).statusCode, (await get(t, `/fhir/Observation?${query}`, token)).statusCode]).toEqual([query, 200, 200]);
      }
    });
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY, startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { countEhrCalls } from './support/ehr-calls.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { canonicalIdentity, DEMO } from './support/oracles.js';
import { freshGrantee, requestOf, routeByOperation, urlOf, validBodyOf, WRITE_ROUTES, type RouteCase } from './support/routes.js';
import { isCategory } from '../../src/domain/proxies/categories.js';
import { expectDocumentedAnswer } from './support/shape.js';
import { expectDeadlineKept } from '../support/scheduling.js';
import { assertProperty } from '../support/seeds.js';

/**
 * JSON bodies and media types on the two writes and a new grant (threats 17, 18, 19 of docs/threat-model.md#who-may-see-whom-api1-api5): wrong types, extra fields,
 * `__proto__`/`constructor` keys at any depth, a member named twice, nesting up to thousands deep, strings past the 16 KiB
 * limit, numbers, arrays, null and text that is not JSON. An independent oracle says which answer
 * each body must get; the process is never polluted and keeps answering.
 */

const LIMIT = 16 * 1024;
const ID = /^[A-Za-z0-9._-]{1,64}$/;
const used = new UsedSecrets();
used.key(KEY);
used.identity(DEMO.TOLVAN);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysAre = (o: Record<string, unknown>, keys: string[]): boolean => Object.keys(o).sort().join() === [...keys].sort().join();

/** The grantee of the table's valid grant, which each request sends as a fresh one (a repeat would be 409). */
const GRANTEE = String(routeByOperation('grantProxy').body?.grantee);

/**
 * docs/contract.md §11: a grantee that is a valid number of an adult other than the caller, and 1 to 64 categories
 * (the reads' scope names, or *). The optional members (validFrom, validTo, purpose) are never generated here:
 * test/e2e/proxies-cos.e2e.test.ts and the domain's tests check them.
 */
function validGrant(body: Record<string, unknown>): boolean {
  const grantee = typeof body.grantee === 'string' ? canonicalIdentity(body.grantee) : undefined;
  return keysAre(body, ['grantee', 'categories']) && grantee !== undefined && grantee !== DEMO.TOLVAN
    // 18 or over: of the numbers generated, Märta's (1981) is, Lilla's (2017) is not.
    && Number(grantee.slice(0, 4)) <= 2000
    && Array.isArray(body.categories) && body.categories.length >= 1 && body.categories.length <= 64
    && body.categories.every((c) => typeof c === 'string' && isCategory(c));
}

/** docs/contract.md#errors and the spec's request schemas: exactly these fields, these values, nothing else. */
function validBody(route: RouteCase, body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  if (route.operation === 'grantProxy') return validGrant(body);
  if (route.operation === 'changeAppointment') return keysAre(body, ['status']) && body.status === 'arrived';
  return keysAre(body, ['status', 'contactId', 'paymentType']) && body.status === 'PAID'
    && typeof body.contactId === 'string' && ID.test(body.contactId) && (body.paymentType === 'CASH' || body.paymentType === 'CARD');
}

/** What a JSON-typed body must get: 413 past the limit, 400 unless it parses to exactly a valid body, else the route's success. */
function expectedForBody(route: RouteCase, text: string): number {
  if (Buffer.byteLength(text, 'utf8') > LIMIT) return 413;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 400;
  }
  return validBody(route, parsed) && !repeatsAMember(text, parsed) ? route.okStatus : 400;
}

/**
 * Whether an object of `text` names a member twice (refused: JSON.parse keeps the last, another reader
 * the first): the text's members, its colons outside strings, outnumber the parsed value's.
 */
function repeatsAMember(text: string, parsed: unknown): boolean {
  let colons = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') for (i++; text[i] !== '"'; i++) i += text[i] === '\\' ? 1 : 0;
    else if (text[i] === ':') colons++;
  }
  let members = 0;
  const values: unknown[] = [parsed];
  while (values.length > 0) {
    const v = values.pop();
    if (typeof v !== 'object' || v === null) continue;
    const inner = Object.values(v);
    if (!Array.isArray(v)) members += inner.length;
    for (const x of inner) values.push(x);
  }
  return colons > members;
}

// JSON text built by hand, so `__proto__` and `constructor` are real keys of the text at any depth.
const KEYS = ['status', 'contactId', 'paymentType', 'grantee', 'categories', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra', 'access_token', ''];
const jsonKey = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
const jsonLeaf = fc.oneof(
  fc.constantFrom('"arrived"', '"PAID"', '"CARD"', '"CASH"', '"cancelled"', '"paid"', '"99999999999"', `"${GRANTEE}"`, '"20170101-2393"', '["LabResult"]', '["*","Appointment"]', '["AccessLog"]', '"../1"', '""', 'null', 'true', 'false', '0', '-1', '1e309', '1.5', '[]', '{}'),
  fc.string({ maxLength: 30 }).map((s) => JSON.stringify(s)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.integer({ min: 0, max: 20_000 }).map((n) => JSON.stringify('x'.repeat(n))),
);
const { jsonValue } = fc.letrec<{ jsonValue: string; jsonArray: string; jsonObject: string }>((tie) => ({
  jsonValue: fc.oneof({ depthSize: 'small', withCrossShrink: true }, jsonLeaf, tie('jsonArray'), tie('jsonObject')),
  jsonArray: fc.array(tie('jsonValue'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  jsonObject: fc.array(fc.tuple(jsonKey, tie('jsonValue')), { maxLength: 5 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
}));

/** A valid body of the route with one change: a field removed, retyped or added, or a poisoning key placed somewhere. */
const nearlyValid = (route: RouteCase) => fc.tuple(fc.constantFrom('remove', 'retype', 'add', 'proto', 'constructor', 'duplicate', 'valid'), fc.nat(), jsonValue, fc.integer({ min: 1, max: 50 }))
  .map(([change, at, value, depth]) => {
    const entries = Object.entries(route.body ?? {}).map(([k, v]) => [k, JSON.stringify(v)] as [string, string]);
    const i = at % entries.length;
    const nest = (inner: string): string => `${'{"n":'.repeat(depth - 1)}${inner}${'}'.repeat(depth - 1)}`;
    switch (change) {
      case 'remove': entries.splice(i, 1); break;
      case 'retype': entries[i] = [entries[i]?.[0] ?? 'status', value]; break;
      case 'add': entries.splice(i, 0, ['extra', value]); break;
      case 'proto': entries.splice(i, 0, ['x', nest(`{"__proto__":{"polluted":${value}}}`)]); break;
      case 'constructor': entries.splice(i, 0, ['x', nest(`{"constructor":{"prototype":{"polluted":${value}}}}`)]); break;
      case 'duplicate': entries.splice(i, 0, [entries[i]?.[0] ?? 'status', value]); break;
      default: break;
    }
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  });

/** Nesting 1–2000 deep (objects, arrays, mixed), bare or inside an otherwise valid body, sometimes with a poisoning key at the bottom. */
const deeplyNested = (route: RouteCase) => fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.constantFrom('object', 'array', 'mixed'), fc.boolean(), fc.constantFrom('1', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'))
  .map(([depth, kind, wrapped, bottom]) => {
    let open = '';
    let close = '';
    for (let i = 0; i < depth; i++) {
      const object = kind === 'object' || (kind === 'mixed' && i % 2 === 0);
      open += object ? '{"a":' : '[';
      close = (object ? '}' : ']') + close;
    }
    const nested = `${open}${bottom}${close}`;
    return wrapped ? `${JSON.stringify(route.body).slice(0, -1)},"deep":${nested}}` : nested;
  });

const NOT_JSON = ['', ' ', 'status=arrived', '{', '{"status":"arrived"', "{'status':'arrived'}", '{"status":"arrived",}', 'undefined', 'NaN', '[',
  '{"status":"arrived"}garbage', '{"a":1}{"b":2}', '{"status":"arrived"}\u0000', '\u0000', 'nul', '"arrived"', '{"status":"\\ud800"}', '{"status":"arr\\u0069ved"}',
  '{"status":"arrived"} ', '\n{"status":"arrived"}\n', '{"status" : "arrived"}'];

const bodyFor = (route: RouteCase) => fc.oneof(
  { weight: 4, arbitrary: jsonValue },
  { weight: 4, arbitrary: nearlyValid(route) },
  { weight: 2, arbitrary: deeplyNested(route) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 8150 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`) },
  { weight: 2, arbitrary: fc.constantFrom(...NOT_JSON) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: LIMIT - 40, max: 20 * 1024 }).map((n) => `{"status":"${'a'.repeat(n)}"}`) },
);

overBothEhrs((variant) => {
  describe('JSON body fuzzing on the two writes', () => {
    let t: AnyTestApp;
    let token: string;
    let ehrCalls: () => number;
    const objectBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const arrayBefore = Object.getOwnPropertyNames(Array.prototype).sort();

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      token = used.token(await t.personToken(DEMO.TOLVAN));
      ehrCalls = countEhrCalls(t.ehr);
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await t.close();
    });

    it.each(WRITE_ROUTES.map((r) => [r.operation, r] as const))('%s answers every body as the schema says, 413 past 16 KiB, never 500, never a body it did not validate', async (_name, route) => {
      const seen = new Set<number>();
      await assertProperty(fc.asyncProperty(bodyFor(route), async (text) => {
        const expected = expectedForBody(route, text);
        const label = `${route.operation} body ${JSON.stringify(text.slice(0, 120))}… (${text.length} chars)`;
        const before = ehrCalls();
        // Each grant to a new person: the same text with its grantee made fresh (a valid number of an adult, as the one replaced).
        const sent = route.operation === 'grantProxy' ? text.replaceAll(GRANTEE, freshGrantee()) : text;
        const res = await t.call({ method: route.method, url: urlOf(route), token, payload: sent, headers: { 'content-type': 'application/json' } });
        expectDocumentedAnswer(route, res, label, { path: route.path });
        expect([label, res.statusCode]).toEqual([label, expected]);
        if (res.statusCode !== route.okStatus) expect([label, ehrCalls() - before]).toEqual([label, 0]);
        seen.add(res.statusCode);
      }), {
        seeds: [4511, 4512, 4513], numRuns: runsOver(variant, 300),
        // A valid body and one past the limit always among the cases: over fhir-r4 a fuzz seed's 75 runs drew no valid
        // body once (PDAS_FUZZ_SEED=901667608), and the check below that every status was seen failed with nothing wrong.
        examples: [[JSON.stringify(route.body ?? {})], [`{"status":"${'a'.repeat(LIMIT)}"}`]],
      });
      expect([...seen].sort()).toEqual([route.okStatus, 400, 413].sort());
    });

    it('parses 2,000-deep objects and 8,000-deep arrays within the limit without a blow-up, and refuses them with 400', async () => {
      for (const route of WRITE_ROUTES) {
        for (const text of [`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`, `${'['.repeat(8150)}${']'.repeat(8150)}`, `${'{"__proto__":'.repeat(1000)}1${'}'.repeat(1000)}`]) {
          const started = performance.now();
          const res = await t.call({ method: route.method, url: urlOf(route), token, payload: text, headers: { 'content-type': 'application/json' } });
          expect([route.operation, text.slice(0, 12), res.statusCode]).toEqual([route.operation, text.slice(0, 12), 400]);
          expectDeadlineKept(performance.now() - started, 0, 'refused');
        }
      }
    });

    it('never hands a write a body of another media type, whatever the Content-Type says (property over Content-Type strings)', async () => {
      const mediaType = fc.oneof(
        fc.constantFrom(
          'application/json', 'APPLICATION/JSON', 'Application/Json', 'application/json ;charset=utf-8', 'application/json;', 'application/json; charset=latin1',
          'application/json; charset=utf-16', ' application/json', 'application/json\t', 'application/jsonp', 'application/json, text/plain', 'text/json',
          'application/vnd.api+json', 'application/merge-patch+json', 'application/x-json', 'application/json;charset=utf-8;boundary=x', 'application/json;;',
          'application/*', '*/*', 'application/', 'json', '', 'text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x', 'application/octet-stream', 'text/html', 'application/xml', 'application/json; charset="utf-8',
          'application/json\u0000', 'application/json/json', 'application /json', 'application/ json',
        ),
        fc.string({ maxLength: 40, unit: 'grapheme-ascii' }),
        fc.string({ maxLength: 20, unit: 'grapheme-ascii' }).map((params) => `application/json;${params}`),
      );
      await assertProperty(fc.asyncProperty(fc.constantFrom(...WRITE_ROUTES), mediaType, fc.boolean(), async (route, contentType, extraField) => {
        const body = extraField ? { ...validBodyOf(route), extra: 'x' } : validBodyOf(route);
        const label = `${route.operation} Content-Type ${JSON.stringify(contentType)} ${extraField ? 'with' : 'without'} an extra field`;
        const res = await t.call({ method: route.method, url: urlOf(route), token, payload: JSON.stringify(body), headers: { 'content-type': contentType } });
        expectDocumentedAnswer(route, res, label, { path: route.path });
        const essence = contentType.split(';')[0]?.trim().toLowerCase();
        const allowed = extraField ? [400, 415] : essence === 'application/json' ? [route.okStatus, 400, 415] : [415];
        expect([label, allowed.includes(res.statusCode)]).toEqual([label, true]);
      }), { seeds: [4521, 4522, 4523], numRuns: runsOver(variant, 200) });
    });

    it('refuses a body without a Content-Type, and a JSON body that claims a content encoding it does not have', async () => {
      for (const route of WRITE_ROUTES) {
        const none = await t.call({ method: route.method, url: urlOf(route), token, payload: JSON.stringify(route.body) });
        expect([route.operation, none.statusCode]).toEqual([route.operation, 415]);
        for (const encoding of ['gzip', 'deflate', 'br', 'identity, gzip']) {
          const res = await t.call({ method: route.method, url: urlOf(route), token, payload: JSON.stringify({ ...route.body, extra: 1 }), headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
          expectDocumentedAnswer(route, res, `${route.operation} content-encoding ${encoding}`);
          expect([route.operation, encoding, [400, 415].includes(res.statusCode)]).toEqual([route.operation, encoding, true]);
        }
      }
    });

    it('ends with Object.prototype and Array.prototype as they were, still answering a valid write, and clean logs', async () => {
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(objectBefore);
      expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(arrayBefore);
      for (const name of ['polluted', 'n', 'a', 'x', 'deep', 'extra']) expect(({} as Record<string, unknown>)[name]).toBeUndefined();
      const ok = await t.call({ ...requestOf(routeByOperation('changeAppointment')), token });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ ResultCode: 'ERROR', Any: [{ ReasonCode: 'CONTACT_NOT_FOUND' }] });
      expect(malformedLogLines(t.logLines)).toEqual([]);
      expect(used.foundIn(t.logLines)).toEqual([]);
    });
  });
});

import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY, startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { countEhrCalls } from './support/ehr-calls.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import {
  canonicalIdentity, DEMO, DEMO_PEOPLE, expectedForTimeFilter, onTheWire, personMayAct, withCheckDigit,
} from './support/oracles.js';
import { expectedAnswer, requestOf, routeByOperation, ROUTES, TIME_FILTERED_ROUTES, urlOf, type RouteCase } from './support/routes.js';
import { expectDocumentedAnswer } from './support/shape.js';
import { assertProperty } from '../support/seeds.js';

/**
 * Input fuzzing (threats 15, 16, 17 of docs/threat-model.md#who-may-see-whom-api1-api5, API4) over every operation, table-driven from the route
 * list: the `patient` header, `fromDateTime`/`toDateTime`, extra query parameters and random headers.
 * Each answer must be the status an independent oracle says, in the route's documented shape, with
 * nothing internal in the body; a 400 is decided before the EHR is asked anything. JSON bodies and
 * media types are fuzzed in body-fuzzing.test.ts.
 */

const RUNS = 250;
const used = new UsedSecrets();
used.key(KEY);
for (const id of [...DEMO_PEOPLE, DEMO.UNKNOWN]) used.identity(id);

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

// --- the `patient` header -------------------------------------------------------------------

const demoNumber = fc.constantFrom(...DEMO_PEOPLE, DEMO.UNKNOWN);
const hyphenate = (id: string, at = 8): string => `${id.slice(0, at)}-${id.slice(at)}`;

/** A number with a correct check digit on a date that may or may not exist (day 00/32/61/92 and leap days included). */
const syntheticNumber = fc.tuple(
  fc.oneof(
    fc.record({ y: fc.integer({ min: 1800, max: 2099 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) }),
    fc.constantFrom({ y: 2000, m: 2, d: 29 }, { y: 1900, m: 2, d: 29 }, { y: 2024, m: 2, d: 29 }, { y: 2023, m: 2, d: 29 }, { y: 2100, m: 2, d: 29 }),
    fc.record({ y: fc.integer({ min: 1800, max: 2099 }), m: fc.integer({ min: 0, max: 13 }), d: fc.constantFrom(0, 32, 61, 89, 91, 92) }),
  ),
  fc.boolean(), fc.integer({ min: 0, max: 999 }),
).map(([{ y, m, d }, coordination, serial]) => withCheckDigit(`${pad(y, 4)}${pad(m)}${pad(coordination && d <= 31 ? d + 60 : d)}${pad(serial, 3)}`));

const UNICODE_DIGITS = ['０１２３４５６７８９', '٠١٢٣٤٥٦٧٨٩', '۰۱۲۳۴۵۶۷۸۹', '⁰¹²³⁴⁵⁶⁷⁸⁹'];

/** Mutations of a valid number: one digit changed, the hyphen moved or doubled, spaces, unicode digits, 10/11/13 digits, lists. */
const mutatedNumber = fc.tuple(demoNumber, fc.nat(), fc.integer({ min: 1, max: 9 }), fc.nat({ max: 3 }), fc.constantFrom(
  'digit', 'hyphen', 'two-hyphens', 'space', 'space-separator', 'other-separator', 'tab', 'unicode-one', 'unicode-all', 'drop', 'add', 'ten', 'ten-hyphen', 'plus',
  'list', 'swap', 'lead-space', 'trail-space', 'letter', 'nul-free-control',
)).map(([id, at, delta, script, kind]) => {
  const i = at % 12;
  const digits = UNICODE_DIGITS[script] ?? '';
  switch (kind) {
    case 'digit': return `${id.slice(0, i)}${(Number(id[i]) + delta) % 10}${id.slice(i + 1)}`;
    case 'hyphen': return hyphenate(id, i === 8 ? 7 : i);
    case 'two-hyphens': return `${id.slice(0, 8)}--${id.slice(8)}`;
    case 'space': return `${id.slice(0, i + 1)} ${id.slice(i + 1)}`;
    case 'space-separator': return `${id.slice(0, 8)} ${id.slice(8)}`;
    case 'other-separator': return `${id.slice(0, 8)}${'+/._–'[delta % 5] ?? '+'}${id.slice(8)}`;
    case 'tab': return `${id.slice(0, 8)}\t${id.slice(8)}`;
    case 'unicode-one': return `${id.slice(0, i)}${digits[Number(id[i])] ?? ''}${id.slice(i + 1)}`;
    case 'unicode-all': return [...id].map((c) => digits[Number(c)] ?? c).join('');
    case 'drop': return `${id.slice(0, i)}${id.slice(i + 1)}`;
    case 'add': return `${id.slice(0, i)}${delta}${id.slice(i)}`;
    case 'ten': return id.slice(2);
    case 'ten-hyphen': return hyphenate(id.slice(2), 6);
    case 'plus': return `${id.slice(0, 8)}+${id.slice(8)}`;
    case 'list': return `${id},${DEMO.TOLVAN}`;
    case 'swap': return `${id.slice(0, i)}${id[(i + 1) % 12] ?? ''}${id[i] ?? ''}${id.slice(i + 2)}`.slice(0, 12);
    case 'lead-space': return ` ${id}`;
    case 'trail-space': return `${id} `;
    case 'letter': return `${id.slice(0, i)}${'OlIoSB'[delta % 6] ?? 'O'}${id.slice(i + 1)}`;
    default: return `${id.slice(0, i)}\x7f${id.slice(i)}`;
  }
});

const patientHeader = fc.oneof(
  { weight: 3, arbitrary: demoNumber },
  { weight: 1, arbitrary: demoNumber.map((id) => hyphenate(id)) },
  { weight: 3, arbitrary: syntheticNumber },
  { weight: 1, arbitrary: syntheticNumber.map((id) => hyphenate(id)) },
  { weight: 5, arbitrary: mutatedNumber },
  { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{10,13}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 16, unit: 'grapheme-ascii' }) },
  { weight: 1, arbitrary: fc.constant('') },
);

// --- the time filter ---------------------------------------------------------------------------

const wall = (y: number, mo: number, d: number, h: number, mi: number, s: number): string =>
  `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`;

const dateTime = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.integer({ min: 1990, max: 2035 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })).map((p) => wall(...p)) },
  { weight: 3, arbitrary: fc.tuple(fc.integer({ min: 100, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 })).map((p) => wall(...p)) },
  {
    weight: 3, arbitrary: fc.constantFrom(
      // leap days, impossible dates, DST gap and overlap in Europe/Stockholm, day and time edges
      '2024-02-29T12:00:00', '2000-02-29T00:00:00', '2023-02-29T00:00:00', '1900-02-29T00:00:00', '2100-02-29T00:00:00',
      '2025-02-30T00:00:00', '2025-04-31T00:00:00', '2025-13-01T00:00:00', '2025-00-10T00:00:00',
      '2025-03-30T02:30:00', '2025-03-30T02:00:00', '2025-03-30T02:59:59', '2025-03-30T03:00:00', '2025-03-30T01:59:59',
      '2025-10-26T02:30:00', '2025-10-26T02:00:00', '2025-10-26T02:59:59', '2025-10-26T03:00:00', '2025-10-26T01:59:59',
      '2024-03-31T02:30:00', '2024-10-27T02:30:00', '2026-03-29T02:30:00', '2026-10-25T02:30:00',
      '2025-12-31T23:59:59', '2025-06-15T24:00:00', '2025-06-15T23:60:00', '2025-06-15T23:59:60', '9999-12-31T23:59:59', '0100-01-01T00:00:00',
    ),
  },
  {
    weight: 2, arbitrary: fc.constantFrom(
      // wrong forms
      '2025-03-01', '2025-03-01T00:00', '2025-03-01T00:00:00Z', '2025-03-01T00:00:00+01:00', '2025-03-01T00:00:00.000',
      '2025-03-01t00:00:00', '2025-03-01 00:00:00', '2025/03/01T00:00:00', '25-03-01T00:00:00', '+02025-03-01T00:00:00',
      '20250301T000000', '20250301000000', '', ' ', 'now', 'null', '2025-3-1T0:0:0', '２０２５-03-01T00:00:00', '1741000000000',
      '-2025-03-01T00:00:00', '2025-03-01T00:00:00 ', ' 2025-03-01T00:00:00', '2025-03-01T00:00:0', '2025-03-01T00:00:000',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 24 }) },
);

// --- query and headers -----------------------------------------------------------------------

const SPECIAL_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'a[b]', 'a.b', '[]', 'ACCESS_TOKEN', 'Access_Token', 'fromdatetime', 'API-VERSION', 'id ', ' id', '', 'patient', 'Subscription-Key'];
// `subscription-key` itself carries the key (docs/contract.md#token-kinds): test/http/issue-13-vendor-access.test.ts.
const queryKey = fc.oneof(fc.constantFrom(...SPECIAL_KEYS), fc.string({ maxLength: 12 }));
const queryValue = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('v2', '1', '', DEMO.TOLVAN, '2025-03-01T00:00:00', '../x', '%00'));

/** Header names that frame the request itself or carry credentials; the rest must not change the answer. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'content-type', 'content-encoding', 'authorization',
  'ocp-apim-subscription-key', 'patient', 'expect', 'upgrade', 'te', 'trailer', 'keep-alive', 'proxy-connection', 'http2-settings']);
const headerName = fc.oneof(
  fc.constantFrom('x-request-id', 'accept', 'accept-encoding', 'accept-language', 'origin', 'referer', 'user-agent', 'cookie', 'x-forwarded-for',
    'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'x-http-method-override', 'x-original-url', 'x-rewrite-url', 'if-none-match',
    'if-modified-since', 'range', 'cache-control', 'pragma', 'x-api-version', 'api-version', 'x-patient', 'patient-id', 'x-access-token', 'access_token', 'dnt'),
  fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/),
).filter((name) => !FRAMING.has(name.toLowerCase()));
/** Field values as HTTP allows them: visible ASCII, obs-text and inner spaces or tabs (leading and trailing whitespace is not part of a value). */
const headerValue = fc.array(fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f), { maxLength: 60 })
  .map((codes) => String.fromCharCode(...codes).replace(/^[ \t]+|[ \t]+$/g, ''));

overBothEhrs((variant) => {
  describe('input fuzzing over every operation', () => {
    let t: AnyTestApp;
    let person: string;
    let marta: string;
    let kiosk: string;
    let ehrCalls: () => number;
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      person = used.token(await t.personToken(DEMO.TOLVAN));
      marta = used.token(await t.personToken(DEMO.MARTA));
      kiosk = used.token(await t.clientToken());
      ehrCalls = countEhrCalls(t.ehr);
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await t.close();
    });

    /** Sends the request, checks the documented status set and shape, and that a 400 never reached the EHR. */
    async function send(route: RouteCase, options: Parameters<AnyTestApp['call']>[0], label: string): Promise<LightMyRequestResponse> {
      const before = ehrCalls();
      const res = await t.call(options);
      expectDocumentedAnswer(route, res, label, { path: typeof options.url === 'string' ? options.url.split('?')[0] : route.path });
      if (res.statusCode === 400) expect([label, ehrCalls() - before]).toEqual([label, 0]);
      return res;
    }

    it('answers every patient header exactly as the identity rules and the registry say, before any EHR call for a bad one', async () => {
      const seen = new Set<number>();
      await assertProperty(fc.asyncProperty(fc.constantFrom(...ROUTES), patientHeader, fc.constantFrom('client', 'marta'), async (route, raw, caller) => {
        const header = onTheWire(raw);
        const id = canonicalIdentity(header);
        if (id) used.identity(id);
        const who = caller === 'client' ? { allowed: DEMO_PEOPLE.includes(id ?? '') } : { allowed: personMayAct(DEMO.MARTA, id ?? ''), ...(id === DEMO.MARTA ? { self: DEMO.MARTA } : {}) };
        const expected = id === undefined ? 400 : expectedAnswer(route, who);
        const label = `${route.operation} ${caller} patient=${JSON.stringify(raw)}`;
        const res = await send(route, { ...requestOf(route), token: caller === 'client' ? kiosk : marta, patient: header }, label);
        expect([label, res.statusCode]).toEqual([label, expected]);
        seen.add(res.statusCode);
      }), { seeds: [4371, 4372, 4373], numRuns: runsOver(variant, RUNS * 2) });
      expect([...seen].filter((s) => s !== 201 && s !== 404).sort()).toEqual([200, 400, 403]);
    });

    it('answers every fromDateTime/toDateTime pair as the time rules say: invalid dates, leap days, DST gaps and overlaps, wrong forms, from > to', async () => {
      const routes = [...TIME_FILTERED_ROUTES, routeByOperation('getPatient'), routeByOperation('getPatientV2'), routeByOperation('changeAppointment')];
      await assertProperty(fc.asyncProperty(fc.constantFrom(...routes), fc.option(dateTime), fc.option(dateTime), async (route, from, to) => {
        const extra: Array<[string, string]> = [];
        if (from !== null) extra.push(['fromDateTime', from]);
        if (to !== null) extra.push(['toDateTime', to]);
        const expected = TIME_FILTERED_ROUTES.includes(route) ? expectedForTimeFilter(from ?? undefined, to ?? undefined) : extra.length > 0 ? [400] : [200];
        const label = `${route.operation} from=${JSON.stringify(from)} to=${JSON.stringify(to)}`;
        const res = await send(route, { ...requestOf(route, { url: urlOf(route, extra) }), token: person }, label);
        expect([label, expected.includes(res.statusCode)]).toEqual([label, true]);
      }), { seeds: [4381, 4382, 4383], numRuns: runsOver(variant, RUNS * 2) });
    });

    it('answers a bound in the DST gap or overlap as one instant, and one a second later in the right order', async () => {
      const cases: Array<[string | undefined, string | undefined, number]> = [
        ['2025-03-30T02:30:00', undefined, 200], [undefined, '2025-03-30T02:30:00', 200], ['2025-03-30T02:30:00', '2025-03-30T02:30:00', 200],
        ['2025-10-26T02:30:00', '2025-10-26T02:30:00', 200], ['2025-10-26T02:30:00', '2025-10-26T02:30:01', 200], ['2025-10-26T02:30:01', '2025-10-26T02:30:00', 400],
        ['2025-03-30T01:59:59', '2025-03-30T03:00:00', 200], ['2025-10-26T01:59:59', '2025-10-26T03:00:00', 200], ['2024-02-29T00:00:00', '2024-03-01T00:00:00', 200],
        ['2023-02-29T00:00:00', undefined, 400], ['2025-03-30T03:00:00', '2025-03-30T01:59:59', 400],
      ];
      for (const route of TIME_FILTERED_ROUTES) {
        for (const [from, to, status] of cases) {
          const extra: Array<[string, string]> = [...(from ? [['fromDateTime', from] as [string, string]] : []), ...(to ? [['toDateTime', to] as [string, string]] : [])];
          const res = await send(route, { ...requestOf(route, { url: urlOf(route, extra) }), token: person }, `${route.operation} ${from} ${to}`);
          expect([route.operation, from, to, res.statusCode]).toEqual([route.operation, from, to, status]);
        }
      }
    });

    it('refuses every undeclared query parameter, and a repeated declared one, with 400 (all ten operations)', async () => {
      await assertProperty(fc.asyncProperty(
        fc.constantFrom(...ROUTES), fc.array(fc.tuple(queryKey, queryValue), { minLength: 1, maxLength: 4 }), fc.boolean(),
        async (route, pairs, repeatDeclared) => {
          const extra = pairs.filter(([k]) => !route.declaredQuery?.includes(k));
          fc.pre(extra.length > 0 || repeatDeclared);
          const declared = route.declaredQuery?.[0] ?? 'fromDateTime';
          const repeat: Array<[string, string]> = repeatDeclared ? [[declared, route.query[declared] ?? '2025-01-01T00:00:00'], [declared, route.query[declared] ?? '2025-01-01T00:00:00']] : [];
          const query = repeatDeclared ? Object.fromEntries(Object.entries(route.query).filter(([k]) => k !== declared)) : route.query;
          const url = urlOf(route, [...repeat, ...extra], query);
          const label = `${route.operation} ${url}`;
          const res = await send(route, { ...requestOf(route, { url }), token: person }, label);
          // The payment operation declares no query at all and ignores one (finding F5, its own test below).
          const expected = route.declaredQuery === undefined && !extra.some(([k]) => k === 'access_token') ? [200, 400] : [400];
          expect([label, expected.includes(res.statusCode)]).toEqual([label, true]);
        },
      ), { seeds: [4391, 4392, 4393], numRuns: runsOver(variant, RUNS) });
      expect(({} as Record<string, unknown>)['1']).toBeUndefined();
    });

    it('answers the same with any number of unrelated headers of any valid name and value (every operation)', async () => {
      await assertProperty(fc.asyncProperty(
        fc.constantFrom(...ROUTES), fc.uniqueArray(fc.tuple(headerName, headerValue), { maxLength: 8, selector: ([n]) => n.toLowerCase() }),
        async (route, headers) => {
          const base = requestOf(route);
          const label = `${route.operation} headers ${JSON.stringify(headers).slice(0, 200)}`;
          const res = await send(route, { ...base, token: person, headers: { ...Object.fromEntries(headers), ...base.headers } }, label);
          expect([label, res.statusCode]).toEqual([label, expectedAnswer(route, { allowed: true, self: DEMO.TOLVAN })]);
          expect(String(res.headers['x-request-id'])).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);
        },
      ), { seeds: [4401, 4402, 4403], numRuns: runsOver(variant, RUNS) });
    });

    it('answers header values no HTTP parser would pass (CR, LF, NUL, DEL) with a documented status if it answers at all', async () => {
      const evil = ['a\r\nb', 'a\nX-Injected: 1', '\r\n\r\nGET / HTTP/1.1', 'a\u0000b', 'a\u007fb', `${DEMO.TOLVAN}\r\n`];
      for (const route of ROUTES) {
        for (const value of evil) {
          for (const name of ['patient', 'x-request-id', 'user-agent']) {
            let res: LightMyRequestResponse;
            try {
              res = await t.call({ ...requestOf(route), token: person, headers: { ...requestOf(route).headers, [name]: value } });
            } catch {
              continue; // refused before it became a request: not valid HTTP
            }
            expectDocumentedAnswer(route, res, `${route.operation} ${name}=${JSON.stringify(value)}`);
            if (name === 'patient') expect(res.statusCode).toBe(400);
          }
        }
      }
    });

    it('reads years 0001–0099 as themselves, not as 1901–1999 (from 0099 is before to 1950)', async () => {
      const route = routeByOperation('getJournalNotes');
      const res = await t.call({ ...requestOf(route, { url: urlOf(route, [['fromDateTime', '0099-01-01T00:00:00'], ['toDateTime', '1950-01-01T00:00:00']]) }), token: person });
      expect(expectedForTimeFilter('0099-01-01T00:00:00', '1950-01-01T00:00:00')).toEqual([200]);
      expect(res.statusCode).toBe(200);
    });

    it('refuses an undeclared query parameter on the payment operation too (docs/contract.md#errors: unknown field → 400)', async () => {
      const route = routeByOperation('registerPayment');
      const res = await t.call({ ...requestOf(route, { url: urlOf(route, [['unexpected', '1']]) }), token: person });
      expect(res.statusCode).toBe(400);
    });

    it('ends unpolluted, still answering a known-good request, with one JSON log line per entry and no secret in the logs', async () => {
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
      for (const name of ['polluted', 'x', 'status', 'isAdmin', '1']) expect((({}) as Record<string, unknown>)[name]).toBeUndefined();
      const ok = await t.call({ ...requestOf(routeByOperation('getAppointments')), token: person });
      expect(ok.statusCode).toBe(200);
      expect(malformedLogLines(t.logLines)).toEqual([]);
      expect(used.foundIn(t.logLines)).toEqual([]);
    });
  });
});

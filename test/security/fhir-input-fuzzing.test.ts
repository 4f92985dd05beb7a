import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAppOn, TEST_FHIR_IDS, type AnyTestApp } from '../support/test-app.js';
import { identityNumbersIn } from '../support/log-grep.js';
import { validIdentityNumber } from '../support/identity-paths.js';
import { countEhrCalls } from './support/ehr-calls.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { canonicalIdentity, DEMO, DEMO_PEOPLE, onTheWire } from './support/oracles.js';
import {
  APP, expectFhirAnswer, FHIR_ROUTES, FHIR_SEARCH_ROUTES, fhirRequest, flipped, formOf, identityNumbersInAddress, issueOf, pid, type FhirRouteCase,
} from './support/fhir-routes.js';
import { assertProperty } from '../support/seeds.js';

/**
 * Input fuzzing (THREATS 15–19, API4) over the FHIR route table, as test/security/input-fuzzing.test.ts
 * does it over the COS operations: search parameters (names and values, in the query and in a
 * `_search` form body), form bodies and their media types. Whatever comes in: never a 500, every
 * refusal an OperationOutcome whose code follows its status, never a stack or an internal text, never
 * an identity number echoed in an error, an id, a fullUrl or a link (docs/threat-model.md row 50, docs/fhir-api.md#ids), and a
 * 400 decided before the EHR is asked anything. Where one parameter is fuzzed alone, an oracle written
 * from docs/fhir-api.md#search and FHIR R4 (below, not from src/) says the exact status.
 */

const RUNS = 200;
const TOLVAN = DEMO.TOLVAN;
const used = new UsedSecrets();
for (const id of [...DEMO_PEOPLE, DEMO.UNKNOWN]) used.identity(id);

const PERSONNUMMER = 'http://electronichealth.se/identifier/personnummer';
/** The identifier systems §7 takes for a person (FHIR.md: personnummer and samordningsnummer, as URL or OID). */
const PERSON_SYSTEMS = [PERSONNUMMER, 'urn:oid:1.2.752.129.2.1.3.1', 'http://electronichealth.se/identifier/samordningsnummer', 'urn:oid:1.2.752.129.2.1.3.3'];
/** The samordningsnummer's systems (URI and OID); the other two are the personnummer's. */
const COORDINATION_SYSTEMS = ['http://electronichealth.se/identifier/samordningsnummer', 'urn:oid:1.2.752.129.2.1.3.3'];
/** A coordination number has 60 added to its day of birth (twelve digits: YYYYMMDD…, the day at 6–7). */
const isCoordinationNumber = (number: string): boolean => Number(number.slice(6, 8)) > 60;
/** FHIR R4 `id`: 1 to 64 of letters, digits, `-` and `.`. */
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

// --- the oracle: docs/fhir-api.md#search and FHIR R4 search, parameter by parameter -----------------------

/** Whether a text holds a valid identity number (12 digits, maybe hyphenated): never something the API takes as an id, a code or a link. */
const namesAPerson = (value: string): boolean => identityNumbersInAddress(value).length > 0;
/** The demo people's Patient ids: a value holding one names a patient. */
/**
 * Whether a piece of a value has a Patient id's form, genuine or forged (docs/fhir-api.md: judged by its form, so the
 * answer never tells one from the other). PDAS_FUZZ_SEED=993368780 sent `identifier=<Tolvan's id, one character
 * edited>` on Practitioner: the oracle knew only the demo people's genuine ids, and expected 200 for the 400 rightly given.
 */
const hasPatientIdForm = (piece: string): boolean => TEST_FHIR_IDS.hasPatientIdForm(piece);

/** FHIR R4 date/dateTime (§2.24.0.1 of the datatypes), with a search prefix: taken when its day exists (realDay). */
const STRICT_DATE = /^(eq|ge|gt|le|lt)?([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9]|[+-]14:00)?)?)?)?$/;
/** What could be a date at all: anything else is refused. Between the two (minutes without seconds) the server may take or refuse it. */
const DATE_SHAPED = /^(eq|ge|gt|le|lt)?\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

const oneOf = (...statuses: number[]): number[] => statuses;

/** Whether the day a date names exists (29 February of a Gregorian leap year only, no 31 April): an impossible one is 400, as on the COS door. */
function realDay(value: string): boolean {
  const m = /(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (m === null) return true;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** The statuses a search of `route` by the patient's own person token (patient/*.read) may answer with the one parameter `name=value`. */
function expectedFor(route: FhirRouteCase, name: string, value: string, strict: boolean): number[] {
  if (name === '_format') return ['json', 'application/json', 'application/fhir+json'].includes(value) ? [200] : [406];
  // §7: above 500 it is taken as 500. The service refuses 7 digits and more (reported, not changed: test/http/fhir/search-parameters.test.ts holds it to 400).
  if (name === '_count') return /^[0-9]{1,6}$/.test(value) ? [200] : /^[0-9]+$/.test(value) ? oneOf(200, 400) : [400];
  if (name === '_id') {
    // The access log is searched by patient and date only (docs/fhir-api.md#interactions).
    if (route.type === 'AuditEvent') return [400];
    const ids = value.split(',');
    return ids.length <= 100 && ids.every((id) => FHIR_ID.test(id)) && !namesAPerson(value) ? [200] : [400];
  }
  if (name === 'patient' && route.type !== 'Patient') {
    const id = value.startsWith('Patient/') ? value.slice('Patient/'.length) : value;
    if (!FHIR_ID.test(id)) return [400];
    return id === pid(TOLVAN) ? [200] : [403];
  }
  if (name === 'identifier' && route.type === 'Patient') {
    // A number under its own kind's system only (docs/fhir-api.md#search: either under the other's is 400). PDAS_FUZZ_SEED=1940968883
    // sent Tolvan's personnummer under the samordningsnummer system, and the oracle expected 200 for the 400 rightly given.
    const numbers = value.split(',').map((item) => {
      const bar = item.indexOf('|');
      const system = item.slice(0, Math.max(bar, 0));
      const number = bar < 0 || !PERSON_SYSTEMS.includes(system) ? undefined : canonicalIdentity(item.slice(bar + 1));
      return number !== undefined && COORDINATION_SYSTEMS.includes(system) === isCoordinationNumber(number) ? number : undefined;
    });
    if (numbers.some((n) => n === undefined) || new Set(numbers).size !== 1) return [400];
    return numbers[0] === TOLVAN ? [200] : [403];
  }
  if (name === route.dateParam) {
    // Issue 45 item 14 (commit fec3987): a well-formed but impossible day is refused, never read as the next month.
    if (STRICT_DATE.test(value)) return realDay(value) ? [200] : [400];
    return DATE_SHAPED.test(value) ? oneOf(200, 400) : [400];
  }
  if (route.tokenParams.includes(name)) {
    const values = value.split(',');
    if (values.length > 100 || values.some((v) => v.slice(v.indexOf('|') + 1) === '')) return [400];
    return namesAPerson(value) ? [400] : [200];
  }
  if (['_include', '_revinclude', '_include:iterate'].includes(name)) return strict ? oneOf(200, 400) : [200];
  // Whatever Prefer says, 400 for any other parameter on Patient (each picks people) and for one that names a patient (issue 44 item 2).
  if (route.type === 'Patient' || /patient\s*[/?]/i.test(value) || namesAPerson(value) || value.split(/[^A-Za-z0-9.-]+/).some(hasPatientIdForm)) return [400];
  // Any other parameter is ignored (FHIR's lenient default), and refused under Prefer: handling=strict.
  return strict ? [400] : [200];
}

// --- generators --------------------------------------------------------------------------------------

const hyphenated = (id: string): string => `${id.slice(0, 8)}-${id.slice(8)}`;
const person = fc.oneof(fc.constantFrom(...DEMO_PEOPLE, DEMO.UNKNOWN), validIdentityNumber());
/** Values a caller, a fuzzer or an attacker types: identity numbers in every form, Patient ids real and edited, dates, codes, junk. */
const anyValue = fc.oneof(
  { weight: 3, arbitrary: person },
  { weight: 1, arbitrary: person.map(hyphenated) },
  { weight: 1, arbitrary: person.map((id) => `Patient/${id}`) },
  { weight: 2, arbitrary: fc.constantFrom(pid(TOLVAN), `Patient/${pid(TOLVAN)}`, pid(DEMO.MARTA), flipped(pid(TOLVAN)), `Patient/${flipped(pid(DEMO.LILLA))}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...PERSON_SYSTEMS, 'http://other.example/id', ''), person).map(([system, id]) => `${system}|${id}`) },
  {
    weight: 2, arbitrary: fc.constantFrom(
      '2025-01-31', 'ge2025-01-31', 'lt2025-01-31T08:00:00+01:00', 'ne2025-01-01', 'ap2025', '2025-02-30', '2025-13-01', '2025-01-31T25:00:00', '2025-01-31T08:00',
      '9999-12-31T23:59:59Z', '0000', '20250131', '2025-01-31 08:00:00', 'gt', '', 'final', 'laboratory', 'http://terminology.hl7.org/CodeSystem/observation-category|laboratory',
      'a|', '|', ',', 'a,,b', 'json', 'xml', 'application/fhir+json', 'text/html', '0', '500', '501', '1000000', '-1', '1.5', ' 5', '１２', 'Observation:patient',
      'Observation:subject:Patient', '*', '../../etc/passwd', '%00', '\u0000', '<script>', '{"a":1}', 'x'.repeat(65), Array.from({ length: 101 }, (_, i) => `id${i}`).join(','),
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 24, unit: 'binary' }) },
);
const KNOWN_NAMES = ['patient', '_id', '_count', '_format', '_include', '_revinclude', '_include:iterate', '_cursor', 'identifier', '_sort', '_elements',
  '_summary', '_total', '_has', 'subject', '_lastUpdated', '__proto__', 'constructor', 'a[b]', '', 'PATIENT', '_ID', ' patient'];
const anyName = (route: FhirRouteCase): fc.Arbitrary<string> => fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_NAMES, ...route.tokenParams, ...(route.dateParam === undefined ? [] : [route.dateParam])) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const routeAndParams = fc.constantFrom(...FHIR_ROUTES).chain((route) => fc.tuple(
  fc.constant(route), fc.array(fc.tuple(anyName(route), anyValue), { maxLength: 5 }), fc.boolean(),
));

/** One parameter of the kinds the oracle knows, with values of each kind that the oracle tells apart. */
const oneParameter = fc.constantFrom(...FHIR_SEARCH_ROUTES).chain((route) => {
  const names = ['_format', '_count', '_id', 'patient', 'identifier', '_include', 'unknown-param', ...route.tokenParams, ...(route.dateParam === undefined ? [] : [route.dateParam])];
  const value = fc.oneof(
    { weight: 3, arbitrary: anyValue },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{1,9}$/) },
    { weight: 1, arbitrary: fc.array(fc.stringMatching(/^[A-Za-z0-9.-]{1,12}$/), { minLength: 1, maxLength: 4 }).map((ids) => ids.join(',')) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', 'eq', 'ge', 'gt', 'le', 'lt', 'ne'), fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([p, y, m, d]) => `${p}${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PERSON_SYSTEMS, 'urn:oid:1.2.3'), fc.constantFrom(TOLVAN, hyphenated(TOLVAN), DEMO.MARTA, '191212121213'))
      .map(([system, id]) => `${system}|${id}`) },
  );
  return fc.tuple(fc.constant(route), fc.constantFrom(...names), value, fc.boolean());
});

/** Form bodies: what a browser, a client library or an attacker posts to `_search`. */
const formBody = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.tuple(fc.constantFrom('patient', '_count', '_id', 'date', 'status', '_include', 'x', ''), anyValue), { maxLength: 6 }).map((pairs) => formOf(pairs)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 80, unit: 'binary' }) },
  {
    weight: 2, arbitrary: fc.constantFrom(
      '&&&', '=', '==', '=&=', 'a', '%', '%ZZ', '%E0%A4%A', '_count=%31', '_count=1;_count=2', 'patient=%00', '+=+', '_count=1&_count=2', 'a=b=c',
      `patient=${TOLVAN}`, `identifier=${encodeURIComponent(`${PERSONNUMMER}|${TOLVAN}`)}`, '\r\n\r\n', '\u0000', '%C0%AF', 'date=ge%32%30%32%35',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 16 * 1024 - 40, max: 20 * 1024 }).map((n) => `x=${'a'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&')) },
);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'APPLICATION/X-WWW-FORM-URLENCODED', 'application/x-www-form-urlencoded;charset=UTF-8'];
const OTHER_TYPES = ['application/json', 'application/fhir+json', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream'];

overBothEhrs((variant) => {
  describe('FHIR input fuzzing over every route of the table', () => {
    let t: AnyTestApp;
    let token: string;
    let ehrCalls: () => number;
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      token = used.token(await t.personToken(TOLVAN, { client_id: APP, scope: 'patient/*.read' }));
      ehrCalls = countEhrCalls(t.ehr);
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await t.close();
    });

    /** Sends, checks §7's shape, and that nothing of the numbers the request carried comes back but in the patient's own records. */
    async function send(route: FhirRouteCase, options: Parameters<AnyTestApp['call']>[0], label: string, allowed: readonly number[]): Promise<LightMyRequestResponse> {
      const before = ehrCalls();
      const res = await t.call({ ...options, token, key: null });
      expectFhirAnswer(route, res, label, { allowed });
      // No number the request carried comes back, but the patient's own (her Patient) and her delegate's (her RelatedPerson, her log).
      const typed = identityNumbersIn(`${String(options.url)} ${String(options.payload ?? '')}`);
      const echoed = identityNumbersIn(res.body).filter((n) => typed.includes(n) && n !== TOLVAN && n !== DEMO.MARTA);
      expect([label, echoed]).toEqual([label, []]);
      // A bad parameter is refused before anything is read; a cursor is checked against the search it pages, after it.
      if (res.statusCode === 400 && !String(options.url).includes('_cursor') && !String(options.payload ?? '').includes('_cursor')) {
        expect([label, ehrCalls() - before]).toEqual([label, 0]);
      }
      return res;
    }

    it('answers any mix of parameters on any route with a documented status in FHIR\'s shape, echoing no identity number (property)', async () => {
      const seen = new Set<number>();
      await assertProperty(fc.asyncProperty(routeAndParams, async ([route, params, strict]) => {
        for (const [, v] of params) if (canonicalIdentity(v) !== undefined) used.identity(canonicalIdentity(v) as string);
        const headers = strict ? { prefer: 'handling=strict' } : undefined;
        const options = fhirRequest(route, { ...(route.interaction === 'read' ? { id: 'some-id', query: params } : { params }), ...(headers ? { headers } : {}) });
        const label = `${route.label} ${JSON.stringify(params)}${strict ? ' strict' : ''}`;
        const res = await send(route, options, label, [200, 400, 403, 404, 406]);
        seen.add(res.statusCode);
      }), { seeds: [4441, 4442, 4443], numRuns: runsOver(variant, RUNS * 2) });
      // A 403 needs a lone `patient` of someone else, which a mix seldom leaves alone since a parameter naming a
      // patient is 400 (issue 44 item 2); the one-parameter property below sees every status.
      expect([...seen].sort()).toEqual(expect.arrayContaining([200, 400, 404]));
    });

    it('answers one parameter of each kind exactly as §7 and FHIR R4 say, in the query and in a _search body alike (property)', async () => {
      const seen = new Set<number>();
      const byPatient = FHIR_SEARCH_ROUTES.find((r) => r.type !== 'Patient' && r.type !== 'AuditEvent') as FhirRouteCase;
      const eachStatus: [FhirRouteCase, string, string, boolean][] = [
        [byPatient, '_count', '10', false], [byPatient, '_count', 'ten', false], [byPatient, 'patient', pid(DEMO.MARTA), false], [byPatient, '_format', 'xml', false],
      ];
      await assertProperty(fc.asyncProperty(oneParameter, async ([route, name, value, strict]) => {
        const expected = expectedFor(route, name, value, strict);
        const label = `${route.label} ${name}=${JSON.stringify(value)}${strict ? ' strict' : ''}`;
        const res = await send(route, fhirRequest(route, { params: [[name, value]], ...(strict ? { headers: { prefer: 'handling=strict' } } : {}) }), label, [200, 400, 403, 406]);
        expect([label, expected.includes(res.statusCode)]).toEqual([label, true]);
        seen.add(res.statusCode);
      }), {
        seeds: [4451, 4452, 4453], numRuns: runsOver(variant, RUNS * 2),
        // PDAS_FUZZ_SEED=993368780's case (run 323, past what the listed seeds reach): a forged Patient id on a route with no token parameter.
        examples: [
          ...FHIR_SEARCH_ROUTES.filter((r) => r.type === 'Practitioner').map((r): [[FhirRouteCase, string, string, boolean]] => [[r, 'identifier', flipped(pid(TOLVAN)), false]]),
          // PDAS_FUZZ_SEED=1940968883's case: a personnummer under the samordningsnummer system.
          ...FHIR_SEARCH_ROUTES.filter((r) => r.type === 'Patient').map((r): [[FhirRouteCase, string, string, boolean]] => [[r, 'identifier', `${COORDINATION_SYSTEMS[0]}|${TOLVAN}`, false]]),
          // Each status once on every seed, so that the check below never fails for a seed whose few runs over fhir-r4 drew none.
          ...eachStatus.map((example): [[FhirRouteCase, string, string, boolean]] => [example]),
        ],
      });
      expect([...seen].sort()).toEqual([200, 400, 403, 406]);
    });

    it('answers any form body of a _search: 413 past 16 KiB, 415 for any media type but a form, else as the search says; never 500 (property)', async () => {
      const routes = FHIR_ROUTES.filter((r) => r.interaction === 'search-post');
      await assertProperty(fc.asyncProperty(fc.constantFrom(...routes), formBody, fc.oneof(fc.constantFrom(...FORM_TYPES), fc.constantFrom(...OTHER_TYPES)), async (route, body, type) => {
        const bytes = Buffer.from(body, 'latin1');
        const label = `${route.label} ${type} ${JSON.stringify(body.slice(0, 80))} (${bytes.length} bytes)`;
        const form = FORM_TYPES.includes(type);
        const allowed = !form ? [415] : bytes.length > 16 * 1024 ? [413] : [200, 400, 403, 406];
        await send(route, { method: 'POST', url: route.path, payload: bytes, headers: { 'content-type': type } }, label, allowed);
      }), { seeds: [4461, 4462, 4463], numRuns: runsOver(variant, RUNS) });
    });

    it('answers a parameter named after an Object member (__proto__, constructor …), and an include naming one, as any unknown parameter: never 500', async () => {
      // Found by the property above: `Patient?__proto__=…` was a 500 (a lookup of the name in a plain object found Object.prototype).
      const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
      for (const [i, route] of FHIR_SEARCH_ROUTES.entries()) {
        // Every name on every route over the embedded EHR; over fhir-r4 (a FHIR search per request) one name per route, turn about.
        for (const name of names.filter((_, n) => variant !== 'fhir-r4' || (n + i) % names.length === 0)) {
          const label = `${route.label} ${name}=final`;
          // On Patient every parameter the API does not serve picks people: 400 (issue 44 item 2).
          const res = await send(route, fhirRequest(route, { params: [[name, 'final']] }), label, [route.type === 'Patient' ? 400 : 200]);
          if (res.statusCode === 200) expect([label, JSON.parse(res.body).link[0].url]).toEqual([label, expect.not.stringContaining(name)]);
          const include = await send(route, fhirRequest(route, { params: [['_include', `${route.type}:${name}`], ['_revinclude', `Observation:${name}`]] }), `${route.label} _include ${name}`, [200]);
          expect(include.statusCode).toBe(200);
        }
      }
    });

    it('refuses an identity number in _id or in a code with 400, never echoing it in a link (docs/fhir-api.md#ids)', async () => {
      // Found by the property above: `Appointment?service-type=Patient/191212121212` answered a self link holding the number.
      const forms = [TOLVAN, hyphenated(TOLVAN), `Patient/${TOLVAN}`, `${PERSONNUMMER}|${TOLVAN}`, `abc,${DEMO.MARTA}`, '１９１２１２１２１２１２'];
      for (const route of FHIR_SEARCH_ROUTES.filter((r) => r.type !== 'AuditEvent')) {
        for (const name of ['_id', ...route.tokenParams.filter((p) => p !== 'identifier')]) {
          for (const value of forms) {
            const label = `${route.label} ${name}=${value}`;
            const res = await send(route, fhirRequest(route, { params: [[name, value]] }), label, [400]);
            // What is no id at all (`Patient/…`, `system|…`) is refused as such; every other form for the number it holds, saying so.
            if (name !== '_id' || value.split(',').every((id) => FHIR_ID.test(id))) expect([label, issueOf(res).diagnostics]).toEqual([label, expect.stringContaining('identity number')]);
          }
        }
        // A product code of 14 digits (a Swedish NPL id) starts with a date but is nobody's number: taken.
        for (const name of route.tokenParams.filter((p) => p !== 'identifier')) {
          await send(route, fhirRequest(route, { params: [[name, '19870101000077']] }), `${route.label} ${name}=<a 14-digit code>`, [200]);
        }
      }
    });

    it('refuses a _search body of another media type with words that say to send a form', async () => {
      for (const route of FHIR_ROUTES.filter((r) => r.interaction === 'search-post' && r.type === 'Observation')) {
        for (const type of OTHER_TYPES) {
          const res = await t.call({ method: 'POST', url: route.path, token, key: null, payload: '{"patient":"x"}', headers: { 'content-type': type } });
          expectFhirAnswer(route, res, `${route.label} ${type}`, { allowed: [415] });
          expect([type, issueOf(res).diagnostics]).toEqual([type, expect.stringContaining('application/x-www-form-urlencoded')]);
        }
      }
    });

    it('answers header values and Accept/Prefer headers of any kind with a documented status (property)', async () => {
      const headerValue = fc.array(fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f), { maxLength: 60 }).map((codes) => String.fromCharCode(...codes).trim());
      await assertProperty(fc.asyncProperty(fc.constantFrom(...FHIR_ROUTES), fc.constantFrom('accept', 'prefer', 'x-request-id', 'origin', 'x-forwarded-host', 'patient', 'content-type'), headerValue,
        async (route, name, value) => {
          const base = fhirRequest(route, route.interaction === 'read' ? { id: 'some-id' } : {});
          const label = `${route.label} ${name}: ${JSON.stringify(value)}`;
          await send(route, { ...base, headers: { ...base.headers, [name]: onTheWire(value) } }, label, [200, 400, 403, 404, 406, 415]);
        }), { seeds: [4471, 4472, 4473], numRuns: runsOver(variant, RUNS) });
    });

    it('ends unpolluted, still answering, with one JSON log line per entry and no identity number or token in any', async () => {
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
      for (const key of ['polluted', 'a', 'b', 'x', '1']) expect((({}) as Record<string, unknown>)[key]).toBeUndefined();
      expect((await t.call({ method: 'GET', url: '/fhir/Observation', token, key: null })).statusCode).toBe(200);
      expect(malformedLogLines(t.logLines)).toEqual([]);
      expect(used.foundIn(t.logLines)).toEqual([]);
    });
  });
});

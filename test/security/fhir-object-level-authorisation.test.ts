import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FhirType } from '../../src/domain/fhir/search-parameters.js';
import { kindOfNumber } from '../../src/domain/identity/person-number-systems.js';
import { startTestAppOn, TEST_PUBLIC_BASE_URL, type AnyTestApp, type EhrVariant } from '../support/test-app.js';
import { overBothEhrs, STEADY } from './support/runs.js';
import { identityForms, malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO, DEMO_PEOPLE, personMayAct } from './support/oracles.js';
import {
  ALL_REVINCLUDES, APP, entryKeys, expectFhirAnswer, FHIR_READ_ROUTES, FHIR_ROUTES, FHIR_SEARCH_ROUTES, FHIR_TYPES_SERVED, fhirRequest, flipped,
  issueOf, MADE_UP_ID, nextPathOf, pid, READABLE_TYPES, type FhirRouteCase, type SearchBundle,
} from './support/fhir-routes.js';

/**
 * THREATS 51 (API1) over the FHIR API: for every route of the route table (every type served, search,
 * `_search` and read, both prefixes), a person never gets another patient's data — not by naming them
 * in `patient=`, not by reading their resources' ids (404, exactly as an id that does not exist), not
 * through `_include`/`_revinclude`, an `_id` list mixing ids, a cursor of their search, a token whose
 * `smart_patient` names them or a Patient id edited by a character — and a delegate loses access the
 * day the delegation ends. "Another patient" is anyone the person may not act for (the demo registry,
 * test/security/support/oracles.ts), so the matrix is every demo person × every such stranger.
 */

const { TOLVAN, MARTA, LILLA, GOSTA, UNKNOWN } = DEMO;
const PEOPLE = DEMO_PEOPLE;
/** v1 and v2 SMART scopes, of both reaches: a stranger is out of reach of either. */
const SCOPES = ['patient/*.read', 'user/*.rs'] as const;
const used = new UsedSecrets();
for (const id of [...PEOPLE, UNKNOWN]) used.identity(id);
const logs: string[] = [];

/** Every ordered pair (reader, stranger) where the reader may not act for the stranger. */
const STRANGERS: ReadonlyArray<readonly [string, string]> = PEOPLE.flatMap((a) => PEOPLE.filter((b) => b !== a && !personMayAct(a, b)).map((b) => [a, b] as const));
/** People whose answers may name `a` (a delegate, or someone `a` acts for): the log and a RelatedPerson say so by design. */
const related = (a: string, b: string): boolean => personMayAct(a, b) || personMayAct(b, a);

/** A person's resources as a client token reads them: the ids each type's search matches, and every `Type/id` its includes bring too. */
interface Records { matched: Map<FhirType, string[]>; all: Set<string> }

/**
 * Over fhir-r4 every request that passes the edge is one or more searches on a real FHIR server: there
 * the matrix takes every `n`th item by position (so every reader, stranger and type still appears);
 * the embedded run takes every one.
 */
const sampled = <T>(variant: EhrVariant, items: readonly T[], n: number): T[] => (variant === 'fhir-r4' ? items.filter((_, i) => i % n === 0) : [...items]);
/** Whether the combination numbered `i` is checked: every one over the embedded EHR, every `n`th over fhir-r4 (numbers rotate, so each type is met). */
const takes = (variant: EhrVariant, n: number) => (i: number): boolean => variant !== 'fhir-r4' || i % n === 0;
const routeOf = (type: FhirType, i: number, interactions: ReadonlyArray<FhirRouteCase['interaction']>): FhirRouteCase => {
  const routes = FHIR_ROUTES.filter((r) => r.type === type && interactions.includes(r.interaction));
  return routes[i % routes.length] as FhirRouteCase;
};

overBothEhrs((variant) => {
  // One service per EHR for both blocks (a start over fhir-r4 brings up a FHIR server too); the delegation block
  // puts back the clock and the registry it changes.
  const shared: { app?: AnyTestApp } = {};
  const app = (): AnyTestApp => shared.app as AnyTestApp;
  beforeAll(async () => {
    shared.app = await startTestAppOn(variant, STEADY);
  }, 60_000);
  afterAll(async () => {
    logs.push(...app().logLines);
    await app().close();
  });

  describe('FHIR BOLA: every type × every reader × every stranger', () => {
    let t: AnyTestApp;
    const records = new Map<string, Records>();
    const matchedOf = (person: string, type: FhirType): string[] => records.get(person)?.matched.get(type) ?? [];
    const tokens = new Map<string, string>();
    const tokenOf = (person: string, scope: string): string => tokens.get(`${person} ${scope}`) as string;
    const call = (token: string, options: ReturnType<typeof fhirRequest>): Promise<LightMyRequestResponse> => t.call({ ...options, token, key: null });

    /**
     * `Type/id` of everything `a` may see with `scope`: their own records and Patient, and under user/
     * those of everyone they may act for (a Location a child's visit names is the guardian's to read).
     */
    const reachOf = (a: string, scope: string): Set<string> => {
      const people = PEOPLE.filter((p) => p === a || (scope.startsWith('user/') && personMayAct(a, p)));
      return new Set(people.flatMap((p) => [`Patient/${pid(p)}`, ...(records.get(p)?.all ?? [])]));
    };
    /** The ids of `b`'s resources of `type` that `a` cannot reach with `scope` (a shared Organization is both of theirs). */
    const onlyOf = (b: string, a: string, scope: string, type: FhirType): string[] => {
      const reach = reachOf(a, scope);
      return [...(records.get(b)?.all ?? [])].filter((key) => key.startsWith(`${type}/`) && !reach.has(key)).map((key) => key.slice(type.length + 1));
    };
    /** Entries of an answer to `a` that `a` cannot reach: none may be there. The access log's AuditEvents are `a`'s own by construction. */
    const foreignEntries = (res: LightMyRequestResponse, a: string, scope: string): string[] => {
      const reach = reachOf(a, scope);
      return entryKeys(res).filter((key) => !key.startsWith('AuditEvent/') && !reach.has(key));
    };
    /** Demo people an answer to `a` names by Patient id though they are neither `a` nor related to `a`. */
    const strangersNamed = (body: string, a: string): string[] => PEOPLE.filter((b) => b !== a && !related(a, b) && body.includes(pid(b)));
    /**
     * The answer to a read of MADE_UP_ID by `token` on `route` with `query`: the oracle a read of a stranger's id must equal.
     * Asked once per (token, route, query) and kept, as every case with the same three asks the same request (the app's
     * clock and records stay put in this block). Over the embedded EHR 2,091 asks were 1,193 requests: 898 fewer.
     * The block's last test asks a share of them again and compares the bytes: an answer that changed between asks fails there.
     */
    const notFound = new Map<string, { token: string; options: ReturnType<typeof fhirRequest>; answer: Promise<LightMyRequestResponse> }>();
    const notFoundOf = (token: string, route: FhirRouteCase, query: ReadonlyArray<readonly [string, string]> = []): Promise<LightMyRequestResponse> => {
      const options = fhirRequest(route, { id: MADE_UP_ID, query });
      const key = `${token} ${options.method} ${options.url}`;
      let kept = notFound.get(key);
      if (kept === undefined) {
        kept = { token, options, answer: call(token, options) };
        notFound.set(key, kept);
      }
      return kept.answer;
    };

    beforeAll(async () => {
      t = app();
      const kiosk = used.token(await t.clientToken({ scope: 'system/*.read' }));
      for (const person of PEOPLE) {
        for (const scope of SCOPES) tokens.set(`${person} ${scope}`, used.token(await t.personToken(person, { client_id: APP, scope })));
      }
      tokens.set('kiosk', kiosk);
      for (const person of PEOPLE) {
        const own: Records = { matched: new Map(), all: new Set() };
        for (const type of READABLE_TYPES) {
          const route = FHIR_ROUTES.find((r) => r.type === type && r.interaction === 'search') as FhirRouteCase;
          const params: Array<[string, string]> = [
            type === 'Patient' ? ['_id', pid(person)] : ['patient', pid(person)], ['_count', '500'],
            ...route.includes.map((inc) => ['_include:iterate', inc] as [string, string]), ...ALL_REVINCLUDES.map((inc) => ['_revinclude', inc] as [string, string]),
          ];
          const res = await t.call({ ...fhirRequest(route, { params }), token: kiosk, key: null });
          expect([person, type, res.statusCode]).toEqual([person, type, 200]);
          const entries = (JSON.parse(res.body) as SearchBundle).entry ?? [];
          own.matched.set(type, entries.filter((e) => e.search.mode === 'match').map((e) => e.resource.id));
          for (const e of entries) own.all.add(`${e.resource.resourceType}/${e.resource.id}`);
        }
        records.set(person, own);
      }
    }, 180_000);

    it('has records of several types for every demo person, and strangers for every reader', () => {
      for (const person of PEOPLE) {
        const types = READABLE_TYPES.filter((type) => matchedOf(person, type).length > 0);
        expect([person, types.length >= 8]).toEqual([person, true]);
      }
      expect(STRANGERS.length).toBe(PEOPLE.length * (PEOPLE.length - 1) - 3);
    });

    it('answers patient=<a stranger> with 403 and no data on every search route, and a Patient search by their _id or identifier with nothing of theirs', async () => {
      let checked = 0;
      for (const [i, [a, b]] of sampled(variant, STRANGERS, 3).entries()) {
        for (const [j, route] of FHIR_SEARCH_ROUTES.entries()) {
          // Every route with both scopes over the embedded EHR; over fhir-r4 one scope per route, turn about.
          for (const scope of variant === 'fhir-r4' ? [SCOPES[(i + j) % 2] as string] : SCOPES) {
            const label = `${a} → ${b} ${scope} ${route.label}`;
            if (route.type === 'Patient') {
              const byId = await call(tokenOf(a, scope), fhirRequest(route, { params: [['_id', pid(b)]] }));
              expectFhirAnswer(route, byId, label, { allowed: [200] });
              expect([label, entryKeys(byId)]).toEqual([label, []]);
              const byNumber = await call(tokenOf(a, scope), fhirRequest(route, { params: [['identifier', `${kindOfNumber(b).uri}|${b}`]] }));
              expectFhirAnswer(route, byNumber, label, { allowed: [403] });
              expect([label, byNumber.body.includes(pid(b)) || byNumber.body.includes(b)]).toEqual([label, false]);
            } else {
              const res = await call(tokenOf(a, scope), fhirRequest(route, { params: [['patient', route.prefix === '/fhir' ? `Patient/${pid(b)}` : pid(b)]] }));
              expectFhirAnswer(route, res, label, { allowed: [403] });
              expect([label, PEOPLE.filter((p) => res.body.includes(pid(p)))]).toEqual([label, []]);
            }
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(variant === 'fhir-r4' ? 500 : 3000);
    });

    it('answers a read of any resource only a stranger has exactly as a read of an id that does not exist: 404, the same body', async () => {
      let checked = 0;
      const pair = takes(variant, 3);
      const half = takes(variant, 2);
      for (const [i, [a, b]] of STRANGERS.entries()) {
        if (!pair(i)) continue;
        for (const [k, type] of READABLE_TYPES.entries()) {
          if (!half(i + k)) continue;
          const scope = SCOPES[(i + k) % 2] as string;
          const ids = type === 'Patient' ? [pid(b)] : onlyOf(b, a, scope, type);
          for (const [n, id] of (variant === 'fhir-r4' ? ids.slice(0, 1) : ids).entries()) {
            const route = routeOf(type, i + k + n, ['read']);
            // The read alone, and with the patient parameter naming the stranger or the reader.
            const variation = [[], [['patient', `Patient/${pid(b)}`]], [['patient', pid(a)]]][(i + k + n) % 3] as Array<[string, string]>;
            const res = await call(tokenOf(a, scope), fhirRequest(route, { id, query: variation }));
            const none = await notFoundOf(tokenOf(a, scope), route, variation);
            const label = `${a} reads ${b}'s ${type}/${id} ${scope} ${JSON.stringify(variation)}`;
            expectFhirAnswer(route, res, label, { allowed: [404] });
            expect([label, res.statusCode, res.body, res.headers['content-type']]).toEqual([label, none.statusCode, none.body, none.headers['content-type']]);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(variant === 'fhir-r4' ? 60 : 1000);
    });

    it('never brings a stranger\'s resource in through any _include, _include:iterate or _revinclude, on any search route', async () => {
      const third = takes(variant, 3);
      for (const [i, a] of PEOPLE.entries()) {
        for (const [k, type] of FHIR_TYPES_SERVED.entries()) {
          if (!third(i + k)) continue;
          const route = routeOf(type, i + k, ['search', 'search-post']);
          for (const scope of variant === 'fhir-r4' ? [SCOPES[(i + k) % 2] as string] : SCOPES) {
            const params: Array<[string, string]> = [
              ...route.includes.map((inc) => ['_include', inc] as [string, string]),
              ...route.includes.map((inc) => ['_include:iterate', inc] as [string, string]),
              ...ALL_REVINCLUDES.map((inc) => ['_revinclude', inc] as [string, string]),
              ['_count', '500'],
            ];
            const res = await call(tokenOf(a, scope), fhirRequest(route, { params }));
            const label = `${a} ${scope} ${route.label} with every include`;
            expectFhirAnswer(route, res, label, { allowed: [200] });
            // Every entry is the reader's to see (under user/ scopes, of everyone they may act for), and no stranger is named.
            expect([label, foreignEntries(res, a, scope), strangersNamed(res.body, a)]).toEqual([label, [], []]);
          }
        }
      }
    });

    it('answers an _id list mixing the reader\'s ids with strangers\' with the reader\'s alone', async () => {
      const third = takes(variant, 3);
      for (const [i, a] of PEOPLE.entries()) {
        const strangers = PEOPLE.filter((b) => b !== a && !personMayAct(a, b));
        for (const [k, type] of READABLE_TYPES.entries()) {
          if (!third(i + k)) continue;
          const scope = SCOPES[(i + k) % 2] as string;
          const own = type === 'Patient' ? [pid(a)] : matchedOf(a, type).slice(0, 1);
          const theirs = strangers.flatMap((b) => (type === 'Patient' ? [pid(b)] : onlyOf(b, a, scope, type).slice(0, 2)));
          if (theirs.length === 0) continue;
          const route = routeOf(type, i + k, ['search', 'search-post']);
          const res = await call(tokenOf(a, scope), fhirRequest(route, { params: [['_id', [...theirs, ...own, flipped(theirs[0] as string)].join(',')]] }));
          const label = `${a} ${scope} ${route.label} _id of ${theirs.length} strangers' and ${own.length} own`;
          expectFhirAnswer(route, res, label, { allowed: [200] });
          expect([label, entryKeys(res).sort()]).toEqual([label, own.map((id) => `${type}/${id}`).sort()]);
        }
      }
    });

    it('refuses a stranger\'s next link, an edited cursor, and a cursor carried to another patient: 400, never a page', async () => {
      let followed = 0;
      for (const [i, b] of PEOPLE.entries()) {
        const a = STRANGERS.find(([, s]) => s === b)?.[0] as string;
        for (const [k, type] of FHIR_TYPES_SERVED.entries()) {
          if (!takes(variant, 4)(i + k)) continue;
          const route = routeOf(type, i + k, ['search']);
          const own = await call(tokenOf(b, 'patient/*.read'), fhirRequest(route, { params: [['_count', '1']] }));
          const next = nextPathOf(own, TEST_PUBLIC_BASE_URL);
          if (next === undefined) continue;
          const label = `${a} follows ${b}'s next link of ${type}`;
          for (const scope of SCOPES) {
            const res = await t.call({ method: 'GET', url: next, token: tokenOf(a, scope), key: null });
            expectFhirAnswer(route, res, label, { allowed: [400] });
            expect([label, PEOPLE.filter((p) => res.body.includes(pid(p)))]).toEqual([label, []]);
          }
          // The owner's own cursor, edited anywhere: 400 (the access log's cursor and the search's alike).
          const cursor = new URL(next, 'http://x').searchParams.get('_cursor') as string;
          for (const at of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
            const edited = next.replace(`_cursor=${encodeURIComponent(cursor)}`, `_cursor=${encodeURIComponent(flipped(cursor, at))}`);
            expect(edited).not.toBe(next);
            const res = await t.call({ method: 'GET', url: edited, token: tokenOf(b, 'patient/*.read'), key: null });
            expectFhirAnswer(route, res, `${label}, edited at ${at}`, { allowed: [400] });
          }
          followed++;
        }
      }
      expect(followed).toBeGreaterThan(variant === 'fhir-r4' ? 10 : 40);
      // Märta's own cursor of her child's search, carried to her other charge's: another patient, 400.
      const marta = tokenOf(MARTA, 'user/*.rs');
      for (const type of ['Encounter', 'Appointment', 'AuditEvent'] as const) {
        const lilla = await t.call({ method: 'GET', url: `/fhir/${type}?patient=${pid(LILLA)}&_count=1`, token: marta, key: null });
        const next = nextPathOf(lilla, TEST_PUBLIC_BASE_URL) as string;
        expect([type, next]).toEqual([type, expect.stringContaining('_cursor=')]);
        const carried = next.replace(encodeURIComponent(pid(LILLA)), encodeURIComponent(pid(TOLVAN)));
        expect(carried).not.toBe(next);
        const res = await t.call({ method: 'GET', url: carried, token: marta, key: null });
        expectFhirAnswer(undefined, res, `${type} cursor carried from Lilla to Tolvan`, { allowed: [400] });
        expect(res.body).not.toContain(pid(LILLA));
      }
    });

    it('refuses a token whose smart_patient names a stranger: every search 403 (under user/ the Patient list is the reader\'s people), reads as an id that does not exist', async () => {
      for (const [i, [a, b]] of sampled(variant, STRANGERS, 3).entries()) {
        for (const scope of SCOPES) {
          const launched = used.token(await t.personToken(a, { client_id: APP, scope, smart_patient: pid(b) }));
          for (const [k, type] of FHIR_TYPES_SERVED.entries()) {
            const route = routeOf(type, i + k, ['search', 'search-post']);
            const res = await call(launched, fhirRequest(route));
            const label = `${a} launched on ${b} ${scope} ${route.label}`;
            // user/ scopes reach everyone the user may act for, whoever the launch names: the Patient list is theirs, never the stranger.
            const listing = type === 'Patient' && scope.startsWith('user/');
            expectFhirAnswer(route, res, label, { allowed: [listing ? 200 : 403] });
            expect([label, foreignEntries(res, a, scope), res.body.includes(pid(b))]).toEqual([label, [], false]);
            // patient/ scopes reach the launch patient only: never the reader in the stranger's place.
            if (!listing) expect([label, res.body.includes(pid(a))]).toEqual([label, false]);
          }
          const type = READABLE_TYPES.find((ty) => ty !== 'Patient' && onlyOf(b, a, scope, ty).length > 0) as FhirType;
          const route = routeOf(type, i, ['read']);
          const [theirs] = onlyOf(b, a, scope, type);
          const [mine] = scope.startsWith('patient/') ? matchedOf(a, type) : [];
          for (const id of [theirs, mine, pid(b)]) {
            if (id === undefined) continue;
            const read = id === pid(b) ? routeOf('Patient', i, ['read']) : route;
            const res = await call(launched, fhirRequest(read, { id }));
            const none = await notFoundOf(launched, read);
            const label = `${a} launched on ${b} ${scope} reads ${read.type}/${id}`;
            expect([label, res.statusCode, res.body]).toEqual([label, none.statusCode, none.body]);
            expectFhirAnswer(read, res, label, { allowed: [404] });
          }
        }
      }
    });

    it('gives a Patient id edited by one character nothing anywhere: patient=, _id, a read, smart_patient', async () => {
      for (const person of PEOPLE) {
        for (const at of [0, 10, pid(person).length - 1]) {
          const forged = flipped(pid(person), at);
          expect(forged).not.toBe(pid(person));
          for (const scope of SCOPES) {
            const token = tokenOf(person, scope);
            const search = await call(token, fhirRequest(routeOf('Observation', at, ['search']), { params: [['patient', forged]] }));
            expectFhirAnswer(undefined, search, `patient=${forged}`, { allowed: [403] });
            // A Patient id of no one answers as a patient one may not act for: the same body as a stranger's.
            if (scope === 'user/*.rs') {
              const stranger = STRANGERS.find(([a]) => a === person)?.[1] as string;
              const real = await call(token, fhirRequest(routeOf('Observation', at, ['search']), { params: [['patient', pid(stranger)]] }));
              expect([forged, search.body]).toEqual([forged, real.body]);
            }
            const byId = await call(token, fhirRequest(routeOf('Patient', at, ['search']), { params: [['_id', forged]] }));
            expect([forged, byId.statusCode, entryKeys(byId)]).toEqual([forged, 200, []]);
            const read = await call(token, fhirRequest(routeOf('Patient', at, ['read']), { id: forged }));
            const none = await notFoundOf(token, routeOf('Patient', at, ['read']));
            expect([forged, read.statusCode, read.body]).toEqual([forged, none.statusCode, none.body]);
            // A read by id naming the forged patient: refused, no data (403 or 404; the id opens to no one).
            const [obs] = matchedOf(person, 'Observation');
            const named = await call(token, fhirRequest(routeOf('Observation', at, ['read']), { id: obs as string, query: [['patient', forged]] }));
            expectFhirAnswer(undefined, named, `Observation/${obs} patient=${forged}`, { allowed: [403, 404] });
            expect(named.body).not.toContain(obs as string);
          }
          const launched = used.token(await t.personToken(person, { client_id: APP, scope: 'patient/*.read', smart_patient: forged }));
          const res = await call(launched, fhirRequest(routeOf('Observation', at, ['search'])));
          expectFhirAnswer(undefined, res, `smart_patient ${forged}`, { allowed: [403] });
          expect(res.body).not.toContain(pid(person));
        }
      }
    });

    it('gives a client token that names one patient nothing of another, and nothing of a patient the EHR does not know', async () => {
      const kiosk = tokens.get('kiosk') as string;
      for (const [i, [a, b]] of sampled(variant, STRANGERS, 3).entries()) {
        for (const [k, type] of READABLE_TYPES.entries()) {
          if (!takes(variant, 6)(i + k)) continue;
          const [theirs] = type === 'Patient' ? [] : onlyOf(b, a, 'patient/*.read', type);
          if (theirs === undefined) continue;
          const route = routeOf(type, i + k, ['read']);
          const res = await call(kiosk, fhirRequest(route, { id: theirs, query: [['patient', pid(a)]] }));
          const none = await notFoundOf(kiosk, route, [['patient', pid(a)]]);
          expect([`kiosk for ${a} reads ${b}'s ${type}`, res.statusCode, res.body]).toEqual([`kiosk for ${a} reads ${b}'s ${type}`, 404, none.body]);
        }
      }
      for (const [k, type] of FHIR_TYPES_SERVED.filter((ty) => ty !== 'Patient').entries()) {
        const route = routeOf(type, k, ['search', 'search-post']);
        const res = await call(kiosk, fhirRequest(route, { params: [['patient', pid(UNKNOWN)]] }));
        expectFhirAnswer(route, res, `kiosk for an unknown patient on ${route.label}`, { allowed: [403] });
      }
    });

    it('audits a refused search for a stranger as denied, naming the stranger', async () => {
      const before = t.audit.records.length;
      const res = await call(tokenOf(TOLVAN, 'user/*.rs'), fhirRequest(routeOf('Observation', 0, ['search']), { params: [['patient', pid(LILLA)]] }));
      expect(res.statusCode).toBe(403);
      expect(t.audit.records.slice(before).map((r) => [r.patientId, r.outcome, r.status])).toEqual([[LILLA, 'denied', 403]]);
      expect(issueOf(res).diagnostics).toBe('Access to the requested patient is not allowed.');
    });

    it('answers a kept read of an id that does not exist, asked again now, with the same status, body and content type', async () => {
      expect(notFound.size).toBeGreaterThan(variant === 'fhir-r4' ? 100 : 1000);
      // Every 8th kept answer (each reader, scope and type still met): asking them all again would cost what keeping saved.
      for (const [key, { token, options, answer }] of [...notFound].filter((_, i) => i % 8 === 0)) {
        const [kept, again] = [await answer, await call(token, options)];
        expect([key, again.statusCode, again.body, again.headers['content-type']]).toEqual([key, kept.statusCode, kept.body, kept.headers['content-type']]);
      }
    });
  });

  describe('FHIR: a delegate after the delegation ended, and after the registry revoked it', () => {
    let t: AnyTestApp;
    beforeAll(() => {
      t = app();
    });

    /** Noon, local time, on `yyyymmdd`, and the day after. */
    const noonOn = (yyyymmdd: string): number => Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)), 11);
    const dayAfter = (yyyymmdd: string): number => noonOn(yyyymmdd) + 86_400_000;

    it('reads the principal on the last day of the power of attorney, and from the next day on nothing of theirs by any route', async () => {
      const start = t.clock.now();
      try {
        await endOfAttorney();
      } finally {
        t.clock.set(start);
      }
    });

    async function endOfAttorney(): Promise<void> {
      const attorney = (await t.ehr.relationshipsOf(MARTA)).find((r) => r.patient === TOLVAN && r.type === 'power-of-attorney');
      const lastDay = attorney?.validTo ?? '';
      expect(lastDay).toMatch(/^\d{8}$/);
      const tokenAt = async (when: number, claims: Record<string, unknown> = {}): Promise<string> => {
        const nowS = Math.floor(when / 1000);
        return used.token(await t.personToken(MARTA, { client_id: APP, scope: 'user/*.rs', iat: nowS, exp: nowS + 600, ...claims }));
      };
      t.clock.set(noonOn(lastDay));
      const during = await tokenAt(noonOn(lastDay));
      const nowS = Math.floor(noonOn(lastDay) / 1000);
      const kiosk = used.token(await t.clientToken({ scope: 'system/*.read', iat: nowS, exp: nowS + 3600 }));
      const theirs = new Map<FhirType, string>();
      for (const type of READABLE_TYPES.filter((ty) => ty !== 'Patient')) {
        const res = await t.call({ method: 'GET', url: `/fhir/${type}?patient=${pid(TOLVAN)}`, token: during, key: null });
        expect([type, res.statusCode]).toEqual([type, 200]);
        const [first] = entryKeys(res).filter((key) => key.startsWith(`${type}/`));
        if (first !== undefined) theirs.set(type, first.slice(type.length + 1));
      }
      expect(theirs.size).toBeGreaterThan(8);
      // The read routes asked after the end (over fhir-r4 every other type, turn about between the prefixes).
      const reads = FHIR_READ_ROUTES.filter((r) => takes(variant, 2)(READABLE_TYPES.indexOf(r.type) + (r.prefix === '/fhir' ? 0 : 1)));
      // What Märta may still read after the end: her own records and those of the people she still acts for.
      const hers = new Set<string>();
      for (const person of DEMO_PEOPLE.filter((p) => p !== TOLVAN && personMayAct(MARTA, p))) {
        for (const type of [...theirs.keys()].filter((ty) => reads.some((r) => r.type === ty))) {
          const res = await t.call({ method: 'GET', url: `/fhir/${type}?patient=${pid(person)}&_count=500`, token: kiosk, key: null });
          entryKeys(res).forEach((key) => hers.add(key));
        }
      }
      expect([...theirs].filter(([type, id]) => reads.some((r) => r.type === type) && !hers.has(`${type}/${id}`)).length).toBeGreaterThan(3);

      t.clock.set(dayAfter(lastDay));
      const after = await tokenAt(dayAfter(lastDay));
      for (const route of FHIR_SEARCH_ROUTES.filter((r, i) => r.type !== 'Patient' && takes(variant, 3)(i))) {
        const res = await t.call({ ...fhirRequest(route, { params: [['patient', pid(TOLVAN)]] }), token: after, key: null });
        expectFhirAnswer(route, res, `after the end: ${route.label}`, { allowed: [403] });
      }
      for (const route of reads) {
        const id = route.type === 'Patient' ? pid(TOLVAN) : theirs.get(route.type);
        if (id === undefined || hers.has(`${route.type}/${id}`)) continue;
        const res = await t.call({ ...fhirRequest(route, { id }), token: after, key: null });
        const none = await t.call({ ...fhirRequest(route, { id: MADE_UP_ID }), token: after, key: null });
        expect([route.label, res.statusCode, res.body]).toEqual([route.label, 404, none.body]);
      }
      const listed = await t.call({ method: 'GET', url: '/fhir/Patient', token: after, key: null });
      expect(entryKeys(listed)).not.toContain(`Patient/${pid(TOLVAN)}`);
      expect(entryKeys(listed)).toContain(`Patient/${pid(LILLA)}`);
      const launched = await tokenAt(dayAfter(lastDay), { smart_patient: pid(TOLVAN), scope: 'patient/*.read' });
      expect((await t.call({ method: 'GET', url: '/fhir/Observation', token: launched, key: null })).statusCode).toBe(403);

      // The clock back on the last day: the same token reads again (decided now, never cached).
      t.clock.set(noonOn(lastDay));
      expect((await t.call({ method: 'GET', url: `/fhir/Observation?patient=${pid(TOLVAN)}`, token: during, key: null })).statusCode).toBe(200);
    }

    it('refuses the very next FHIR call once the registry no longer lists the relation, by every route of one type', async () => {
      const marta = used.token(await t.personToken(MARTA, { client_id: APP, scope: 'user/*.rs' }));
      const rows = await t.ehr.relationshipsOf(MARTA);
      const encounter = entryKeys(await t.call({ method: 'GET', url: `/fhir/Encounter?patient=${pid(GOSTA)}`, token: marta, key: null }))[0] as string;
      expect(encounter).toMatch(/^Encounter\//);
      const registry = vi.spyOn(t.ehr, 'relationshipsOf').mockImplementation(async () => rows.filter((r) => r.patient !== GOSTA));
      try {
        for (const route of FHIR_ROUTES.filter((r) => r.type === 'Encounter')) {
          const res = route.interaction === 'read'
            ? await t.call({ ...fhirRequest(route, { id: encounter.slice('Encounter/'.length) }), token: marta, key: null })
            : await t.call({ ...fhirRequest(route, { params: [['patient', pid(GOSTA)]] }), token: marta, key: null });
          expectFhirAnswer(route, res, `revoked: ${route.label}`, { allowed: [route.interaction === 'read' ? 404 : 403] });
        }
        expect(registry).toHaveBeenCalled();
      } finally {
        registry.mockRestore();
      }
      expect((await t.call({ method: 'GET', url: `/fhir/Encounter?patient=${pid(GOSTA)}`, token: marta, key: null })).statusCode).toBe(200);
    });
  });
});

describe('the logs of every FHIR request above', () => {
  it('are one JSON line each and hold no token or identity number, though every request named a person', () => {
    expect(logs.length).toBeGreaterThan(1000);
    expect(malformedLogLines(logs)).toEqual([]);
    expect(used.foundIn(logs)).toEqual([]);
    expect(used.all()).toEqual(expect.arrayContaining(identityForms(LILLA)));
  });
});

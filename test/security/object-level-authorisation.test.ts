import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { scopeAliases } from '../../src/domain/access/scopes.js';
import { OPERATIONS } from '../../src/domain/operations/table.js';
import { SHARING_REFUSED } from '../../src/http/sharing-refusals.js';
import { ALL_SCOPES, KEY, OTHER_KEY, startTestAppOn, TEST_FHIR_IDS, ZONE, type AnyTestApp } from '../support/test-app.js';
import { overBothEhrs, STEADY } from './support/runs.js';
import { identityForms, malformedLogLines, UsedSecrets } from './support/logs.js';
import { notAPersonNorAClient } from './support/token-kinds.js';
import { DEMO, DEMO_PEOPLE, personMayAct } from './support/oracles.js';
import { expectedAnswer, READ_ROUTES, requestOf, routeByOperation, ROUTES, UNKNOWN_CONTACT_ID, urlOf } from './support/routes.js';
import type { RouteCase } from './support/routes.js';
import { errorText, expectDocumentedAnswer } from './support/shape.js';

/**
 * threats 11–14 of docs/threat-model.md#who-may-see-whom-api1-api5 (API1, API5): every operation, for every demo patient, called by every demo
 * person and by a client token. Only self and live registry relations get data; another patient's
 * ids answer exactly like unknown ids and change nothing; a protected identity is never delegated
 * and a client token never sees its addresses, phones or e-mail.
 */

const { TOLVAN, MARTA, LILLA, ANTON, SARA, UNKNOWN } = DEMO;
const PEOPLE = DEMO_PEOPLE;
const KNOWN = new Set(PEOPLE);
const hyphenated = (id: string): string => `${id.slice(0, 8)}-${id.slice(8)}`;
const used = new UsedSecrets();
for (const id of [...PEOPLE, UNKNOWN]) used.identity(id);
used.key(KEY);
used.key(OTHER_KEY);
/** The log lines of every app of this file, checked at the end (threats 33, 34 of docs/threat-model.md#audit-and-logs-v16-pdl). */
const logs: string[] = [];

/** Identity numbers of other demo people in an answer: the data of one patient names no one else but `also`. */
function strangersIn(body: string, target: string, also: readonly string[] = []): string[] {
  return [...PEOPLE, UNKNOWN].filter((id) => id !== target && !also.includes(id) && (body.includes(id) || body.includes(hyphenated(id))));
}

/**
 * Who else a 200 of `route` may name (docs/contract.md#what-the-law-gives-the-patient): the access log shows a delegate's number to the
 * patient and to that delegate only; a client token, like any other reader, sees none.
 */
function mayAlsoName(route: RouteCase, reader: string | undefined, target: string): string[] {
  if (route.operation !== 'getAccessLog' || reader === undefined) return [];
  return reader === target ? PEOPLE.filter((p) => personMayAct(p, target)) : [reader];
}

overBothEhrs((variant) => {
  describe('broken object-level authorisation: every operation and the access log × every caller × every patient', () => {
    let t: AnyTestApp;
    let denied403: Set<string>;
    /** Sharing's refusals of anyone acting for another: one body too, whoever the patient is. */
    let sharingDenied: Set<string>;

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      denied403 = new Set();
      sharingDenied = new Set();
    });
    afterAll(async () => {
      logs.push(...t.logLines);
      await t.close();
    });

    async function check(
      route: RouteCase, token: string, patient: string | undefined, expected: number, target: string | undefined, label: string, reader?: string,
    ) {
      const res = await t.call({ ...requestOf(route), token, ...(patient === undefined ? {} : { patient }) });
      expectDocumentedAnswer(route, res, label, { path: route.path });
      expect([label, res.statusCode]).toEqual([label, expected]);
      if (res.statusCode === 403) {
        // One body for every refusal (docs/contract.md#errors), naming nobody. A person refused a grant of their own
        // (a child, a protected identity) is told why, about themselves only.
        if (!route.proxy) denied403.add(errorText(res));
        else if (target !== reader) sharingDenied.add(errorText(res));
        expect(strangersIn(res.body, '')).toEqual([]);
      }
      if ((res.statusCode === 200 || res.statusCode === 201) && target !== undefined) {
        expect([label, strangersIn(res.body, target, mayAlsoName(route, reader, target))]).toEqual([label, []]);
      }
      return res;
    }

    it('gives a person token data only for self and live registry relations, on every operation, with and without the header', async () => {
      for (const actor of [...PEOPLE, UNKNOWN]) {
        const token = used.token(await t.personToken(actor));
        for (const header of [undefined, ...PEOPLE, UNKNOWN]) {
          const target = header ?? actor;
          const who = { allowed: personMayAct(actor, target), ...(target === actor ? { self: actor } : {}) };
          for (const route of ROUTES) {
            await check(route, token, header, expectedAnswer(route, who), target, `${actor} as ${header ?? '(no header)'} on ${route.operation}`, actor);
          }
        }
        // The hyphenated form of a header is the same patient, with the same answer.
        for (const patient of [LILLA, SARA, ANTON]) {
          const expected = personMayAct(actor, patient) ? 200 : 403;
          await check(routeByOperation('getAppointments'), token, hyphenated(patient), expected, patient, `${actor} as ${hyphenated(patient)}`);
        }
      }
      expect([...denied403]).toEqual(['Access to the requested patient is not allowed.']);
      expect([...sharingDenied]).toEqual([SHARING_REFUSED.patientHeader]);
    });

    it('issue 52 item 2: lets every patient/ form of every operation\'s scope reach the launch patient only, the same 403 for everyone else', async () => {
      const launchForms = (route: RouteCase): string[] => {
        const scope = OPERATIONS[route.operation].scope.name;
        return [...scopeAliases()].filter(([form, to]) => to === scope && form.startsWith('patient/')).map(([form]) => form);
      };
      // Märta launched for Lilla (smart_patient), and without a launch patient (the person herself).
      const launches: Array<[string, Record<string, string>, string]> = [
        ['launched for Lilla', { smart_patient: TEST_FHIR_IDS.patientId(LILLA) }, LILLA], ['no smart_patient', {}, MARTA],
      ];
      for (const route of ROUTES) {
        const forms = launchForms(route);
        expect([route.operation, forms.length > 0]).toEqual([route.operation, true]);
        for (const form of forms) {
          for (const [kind, claims, launch] of launches) {
            const token = used.token(await t.personToken(MARTA, { client_id: 'smart-app', scope: form, ...claims }));
            for (const header of [undefined, ...PEOPLE, UNKNOWN]) {
              const target = header ?? MARTA;
              const who = { allowed: target === launch, ...(target === MARTA && launch === MARTA ? { self: MARTA } : {}) };
              await check(route, token, header, expectedAnswer(route, who), target, `${kind} ${form} as ${header ?? '(no header)'} on ${route.operation}`, MARTA);
            }
          }
        }
      }
      expect([...denied403]).toEqual(['Access to the requested patient is not allowed.']);
      expect([...sharingDenied]).toEqual([SHARING_REFUSED.patientHeader]);
    });

    it('gives a client token data for every known patient it names, 403 for an unknown one, and 400 without the header; never sharing', async () => {
      const kiosk = used.token(await t.clientToken());
      // A client is told why apart from a person naming someone else: the body depends on the caller, never on the patient named.
      sharingDenied.clear();
      for (const route of ROUTES) {
        const missing = await t.call({ ...requestOf(route), token: kiosk });
        expectDocumentedAnswer(route, missing, `client without header on ${route.operation}`, { path: route.path });
        // Sharing is a person's own: a client token is refused whatever it names.
        expect([route.operation, missing.statusCode]).toEqual([route.operation, route.proxy ? 403 : 400]);
        if (!route.proxy) expect(errorText(missing)).toMatch(/patient/);
        for (const patient of [...PEOPLE, UNKNOWN]) {
          await check(route, kiosk, patient, expectedAnswer(route, { allowed: KNOWN.has(patient) }), patient, `client as ${patient} on ${route.operation}`);
        }
      }
      expect([...sharingDenied]).toEqual([SHARING_REFUSED.notAPerson]);
    });

    it('issue 12 item 1: answers a token that is neither a valid person token nor a listed client token with 401 for every patient, never with data', async () => {
      for (const [kind, claims] of notAPersonNorAClient(TOLVAN)) {
        const token = used.token(await t.issuer.sign({ scope: ALL_SCOPES, sub: 'kind-case', ...claims }));
        for (const header of [undefined, ...PEOPLE, UNKNOWN]) {
          for (const route of ROUTES) {
            const res = await check(route, token, header, 401, undefined, `${kind} as ${header ?? '(no header)'} on ${route.operation}`);
            expect(strangersIn(res.body, '')).toEqual([]);
          }
        }
      }
    });

    it('records every one of these decisions in the audit trail with the patient and the outcome', async () => {
      const before = t.audit.records.length;
      const token = used.token(await t.personToken(TOLVAN));
      await t.call({ ...requestOf(routeByOperation('getAppointments')), token, patient: LILLA });
      await t.call({ ...requestOf(routeByOperation('getAppointments')), token, patient: TOLVAN });
      expect(t.audit.records.slice(before).map((r) => [r.patientId, r.outcome, r.status])).toEqual([[LILLA, 'denied', 403], [TOLVAN, 'allowed', 200]]);
    });
  });
});

interface Ids { contactIds: string[]; otherIds: string[] }

overBothEhrs((variant) => {
  describe('another patient\'s ids in a write are indistinguishable from unknown ids and change nothing', () => {
    let t: AnyTestApp;
    const ids = new Map<string, Ids>();
    const ID = /^[A-Za-z0-9._-]{1,64}$/;

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      const kiosk = await t.clientToken();
      for (const patient of PEOPLE) {
        const get = async (url: string) => (await t.call({ method: 'GET', url, token: kiosk, patient })).json() as unknown;
        const bookings = await get('/patients/appointments/') as Array<{ Booking?: Array<{ ContactId: string }>; RegisteredBooking?: Array<{ BookingId: string }> }>;
        const contacts = await get('/patients/contacts/') as Array<{ contactEHRExtract: Array<{ contact?: { contactInternalID?: string } }> }>;
        const meetings = await get('/patients/videomeetings/') as Array<{ actionId: number }>;
        const contactIds = bookings.flatMap((r) => (r.Booking ?? []).map((b) => b.ContactId));
        const otherIds = [
          ...bookings.flatMap((r) => (r.RegisteredBooking ?? []).map((b) => b.BookingId)),
          ...contacts.flatMap((c) => c.contactEHRExtract.map((e) => e.contact?.contactInternalID ?? '')), ...meetings.map((m) => String(m.actionId)),
        ].filter((id) => !contactIds.includes(id));
        ids.set(patient, { contactIds, otherIds: [...new Set(otherIds)].filter((id) => ID.test(id)) });
      }
    });
    afterAll(async () => {
      logs.push(...t.logLines);
      await t.close();
    });

    /** Every id some patient other than `patient` owns, and `patient` does not. */
    function foreignIds(patient: string): string[] {
      const own = new Set([...(ids.get(patient)?.contactIds ?? []), ...(ids.get(patient)?.otherIds ?? [])]);
      return [...new Set(PEOPLE.filter((p) => p !== patient).flatMap((p) => [...(ids.get(p)?.contactIds ?? []), ...(ids.get(p)?.otherIds ?? [])]))]
        .filter((id) => !own.has(id));
    }

    const arrive = (token: string, id: string, patient?: string) => t.call({
      method: 'PUT', url: urlOf(routeByOperation('changeAppointment'), [], { id }), token, payload: { status: 'arrived' }, ...(patient ? { patient } : {}),
    });
    const pay = (token: string, contactId: string, patient?: string) => t.call({
      method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId, paymentType: 'CARD' }, ...(patient ? { patient } : {}),
    });

    /**
     * Over fhir-r4 each of these writes is a search on a real FHIR server: a sample of the foreign ids
     * (every third, by position, so every owner and every kind of id still appears) keeps the suite
     * within its time; the embedded run swaps every one.
     */
    const sampled = (foreign: string[]): string[] => (variant === 'fhir-r4' ? foreign.filter((_, i) => i % 3 === 0) : foreign);
    const SWAPS = variant === 'fhir-r4' ? 100 : 300;

    /** Every foreign id, written by the patient (person token) and for the patient (client token, and Märta as delegate where she may act). */
    async function swapEveryId(): Promise<number> {
      const kiosk = used.token(await t.clientToken());
      let checked = 0;
      for (const patient of PEOPLE) {
        const callers: Array<[string, string | undefined]> = [[used.token(await t.personToken(patient)), undefined], [kiosk, patient]];
        if (personMayAct(MARTA, patient) && patient !== MARTA) callers.push([used.token(await t.personToken(MARTA)), patient]);
        for (const [token, header] of callers) {
          const unknownArrival = await arrive(token, UNKNOWN_CONTACT_ID, header);
          const unknownPayment = await pay(token, UNKNOWN_CONTACT_ID, header);
          expect(unknownArrival.statusCode).toBe(200);
          expect(unknownArrival.json()).toMatchObject({ ResultCode: 'ERROR', Any: [{ ReasonCode: 'CONTACT_NOT_FOUND' }] });
          for (const id of sampled(foreignIds(patient))) {
            const a = await arrive(token, id, header);
            const p = await pay(token, id, header);
            expect([patient, header, id, a.statusCode, a.body]).toEqual([patient, header, id, unknownArrival.statusCode, unknownArrival.body]);
            expect([patient, header, id, p.statusCode, p.body]).toEqual([patient, header, id, unknownPayment.statusCode, unknownPayment.body]);
            checked++;
          }
        }
      }
      return checked;
    }

    it('answers every foreign id like an unknown one, before and after the owners arrive, and the owners\' state is untouched', async () => {
      expect([...ids.values()].every((v) => v.contactIds.length > 0)).toBe(true);
      expect(await swapEveryId()).toBeGreaterThan(SWAPS);

      // The owners arrive: OK (not INFO), so no foreign call arrived for them.
      const now = t.clock.now();
      const inWindow = async (patient: string): Promise<string[]> => {
        const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(patient) });
        return (res.json() as Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>).flatMap((r) => r.Booking)
          .filter((b) => now >= Date.parse(b.TypedStartDateTime) - 120 * 60_000 && now <= Date.parse(b.TypedStartDateTime) + 30 * 60_000)
          .map((b) => b.ContactId);
      };
      const arrived: Array<[string, string]> = [];
      for (const patient of [TOLVAN, LILLA]) {
        const open = await inWindow(patient);
        expect([patient, open.length > 0]).toEqual([patient, true]);
        for (const id of open) {
          expect((await arrive(await t.personToken(patient), id)).json()).toMatchObject({ ResultCode: 'OK' });
          arrived.push([patient, id]);
        }
      }
      // Arrived bookings are now payable by their owners: foreign payments must still look unknown.
      expect(await swapEveryId()).toBeGreaterThan(SWAPS);
      for (const [patient, id] of arrived) {
        expect((await pay(await t.personToken(patient), id)).json()).toMatchObject([{ ResultCode: 'OK' }]);
      }
    });
  });
});

overBothEhrs((variant) => {
  describe('a protected identity (197305242385)', () => {
    let t: AnyTestApp;
    let dir: string;
    let contactValues: string[];
    /** What her own reads show: over fhir-r4 the comments on an address, a phone or an e-mail, which FHIR has no member for (docs/upstream-fhir.md#3-the-reads), are absent. */
    let shownToHer: string[];

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      // The contact details as the EHR holds them: the text of every address, phone and e-mail element of her patient.xml.
      dir = await mkdtemp(path.join(tmpdir(), 'pdas-protected-'));
      await generateDemoData(dir, { now: t.clock.now(), zone: ZONE });
      const xml = await readFile(path.join(dir, 'patients', SARA, 'patient.xml'), 'utf8');
      const blocks = ['PhoneNumbers', 'PatientAddresses', 'EmailAddresses'].flatMap((name) => [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => m[1] ?? ''));
      const texts = blocks.flatMap((block) => [...block.matchAll(/<(\w+)>([^<]+)<\/\1>/g)].map((m) => [m[1] ?? '', (m[2] ?? '').replace(/&amp;/g, '&').trim()] as const));
      // Types and the country are shared vocabulary (also on every care unit's address); the rest is hers.
      const details = texts.filter(([element, text]) => text !== '' && !/Type$|Country(?:Code)?$/.test(element));
      contactValues = details.map(([, text]) => text);
      shownToHer = details.filter(([element]) => variant !== 'fhir-r4' || !/Comment$/.test(element)).map(([, text]) => text);
    });
    afterAll(async () => {
      logs.push(...t.logLines);
      await t.close();
      await rm(dir, { recursive: true, force: true });
    });

    /** Every string in the JSON answer that contains one of her contact values. */
    function contactDetailsIn(body: string): string[] {
      const found: string[] = [];
      const walk = (v: unknown): void => {
        if (typeof v === 'string') found.push(...contactValues.filter((c) => v.includes(c)));
        else if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => { walk(k); walk(x); });
      };
      walk(JSON.parse(body) as unknown);
      found.push(...contactValues.filter((c) => body.includes(c)));
      return [...new Set(found)];
    }

    it('has street, postcode, city, phones and e-mail to hide (the search can find them in her own reads)', async () => {
      expect(contactValues).toEqual(expect.arrayContaining(['Skyddsvägen 7', '411 01', 'Göteborg', '0705242385', '031-7305240', 'sara.skyddad@example.se']));
      const own = used.token(await t.personToken(SARA));
      const seen = new Set<string>();
      for (const route of READ_ROUTES) {
        const res = await t.call({ ...requestOf(route), token: own });
        expect([route.operation, res.statusCode]).toEqual([route.operation, expectedAnswer(route, { allowed: true, self: SARA })]);
        for (const value of contactDetailsIn(res.body)) seen.add(value);
      }
      expect([...seen].sort()).toEqual([...shownToHer].sort());
    });

    it('never shows a client token any of her addresses, phones or e-mail, in any read, filtered or not', async () => {
      const kiosk = used.token(await t.clientToken());
      const queries: Array<ReadonlyArray<readonly [string, string]>> = [[], [['fromDateTime', '2000-01-01T00:00:00']], [['toDateTime', '2100-01-01T00:00:00']]];
      for (const route of ROUTES) {
        for (const extra of route.declaredQuery?.includes('fromDateTime') ? queries : [[]]) {
          const res = await t.call({ ...requestOf(route, { url: urlOf(route, extra) }), token: kiosk, patient: SARA });
          expect([route.operation, res.statusCode]).toEqual([route.operation, expectedAnswer(route, { allowed: true })]);
          expect([route.operation, extra, contactDetailsIn(res.body)]).toEqual([route.operation, extra, []]);
        }
      }
      // The hyphenated header is the same patient, masked the same way.
      const v2 = await t.call({ ...requestOf(routeByOperation('getPatientV2')), token: kiosk, patient: hyphenated(SARA) });
      expect(v2.json()[0].patientEHRExtract[0].patient).toMatchObject({
        patientID: { extension: SARA }, patientProtectedId: true, patientAddresses: [], phoneNumbers: { phone: [] }, emailAddresses: { Email: [] },
      });
      expect(contactDetailsIn(v2.body)).toEqual([]);
    });

    it('never lets a delegate, or anyone but herself and a client, get any of her data on any operation', async () => {
      for (const actor of PEOPLE.filter((p) => p !== SARA)) {
        const token = used.token(await t.personToken(actor));
        for (const route of ROUTES) {
          for (const patient of [SARA, hyphenated(SARA)]) {
            const res = await t.call({ ...requestOf(route), token, patient });
            expect([actor, route.operation, res.statusCode]).toEqual([actor, route.operation, 403]);
            expect(contactDetailsIn(res.body)).toEqual([]);
            expect(res.body).not.toMatch(/Skyddad|Sara/);
          }
        }
      }
    });
  });
});

overBothEhrs((variant) => {
  describe('a relation is resolved on every request: it ends on its last day, to the day', () => {
    let t: AnyTestApp;
    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
    });
    afterAll(async () => {
      logs.push(...t.logLines);
      await t.close();
    });

    /** Noon, local time, on `yyyymmdd` (noon is the same calendar day in Stockholm and UTC). */
    const noonOn = (yyyymmdd: string): number => Date.UTC(Number(yyyymmdd.slice(0, 4)), Number(yyyymmdd.slice(4, 6)) - 1, Number(yyyymmdd.slice(6, 8)), 11);
    const dayAfter = (yyyymmdd: string): number => noonOn(yyyymmdd) + 86_400_000;

    it('refuses the very next call once the power of attorney or the guardianship has ended, and allows it again if the clock goes back', async () => {
      const start = t.clock.now();
      const rows = await t.ehr.relationshipsOf(MARTA);
      const attorney = rows.find((r) => r.patient === TOLVAN && r.type === 'power-of-attorney');
      expect(attorney?.validTo).toMatch(/^\d{8}$/);
      // The guardianship of Lilla (born 2017-01-01) ends the day before she turns 18.
      for (const [patient, lastDay] of [[TOLVAN, attorney?.validTo ?? ''], [LILLA, '20341231']] as const) {
        for (const [when, expected] of [[noonOn(lastDay), 200], [dayAfter(lastDay), 403], [noonOn(lastDay), 200]] as const) {
          t.clock.set(when);
          const nowS = Math.floor(when / 1000);
          const token = used.token(await t.personToken(MARTA, { iat: nowS, exp: nowS + 600 }));
          for (const route of ROUTES) {
            const res = await t.call({ ...requestOf(route), token, patient });
            const answer = expectedAnswer(route, { allowed: expected === 200 });
            expect([patient, new Date(when).toISOString(), route.operation, res.statusCode]).toEqual([patient, new Date(when).toISOString(), route.operation, answer]);
          }
        }
      }
      t.clock.set(start);
    });

    it('follows the registry from one call to the next: a revoked relation refuses the very next call, a new one allows it', async () => {
      const marta = used.token(await t.personToken(MARTA));
      const tolvan = used.token(await t.personToken(TOLVAN));
      const registry = vi.spyOn(t.ehr, 'relationshipsOf');
      try {
        const read = routeByOperation('getJournalNotes');
        const calls = registry.mock.calls.length;
        expect((await t.call({ ...requestOf(read), token: marta, patient: LILLA })).statusCode).toBe(200);
        expect(registry.mock.calls.length - calls).toBe(1); // asked on the request itself, not cached
        const rows = await t.ehr.relationshipsOf(MARTA);
        registry.mockResolvedValueOnce(rows.filter((r) => r.patient !== LILLA));
        const revoked = await t.call({ ...requestOf(read), token: marta, patient: LILLA });
        expect(revoked.statusCode).toBe(403);
        for (const route of ROUTES) {
          // Sharing refuses anyone acting for another before the registry is asked.
          if (!route.proxy) registry.mockResolvedValueOnce(rows.filter((r) => r.patient !== LILLA));
          expect([route.operation, (await t.call({ ...requestOf(route), token: marta, patient: LILLA })).statusCode]).toEqual([route.operation, 403]);
        }
        expect((await t.call({ ...requestOf(read), token: marta, patient: LILLA })).statusCode).toBe(200);
        // A relation registered between two calls counts from the next call; and a protected identity never does.
        expect((await t.call({ ...requestOf(read), token: tolvan, patient: ANTON })).statusCode).toBe(403);
        registry.mockResolvedValueOnce([{ patient: ANTON, type: 'power-of-attorney', validFrom: '20000101' }]);
        expect((await t.call({ ...requestOf(read), token: tolvan, patient: ANTON })).statusCode).toBe(200);
        registry.mockResolvedValueOnce([{ patient: SARA, type: 'power-of-attorney', validFrom: '20000101' }]);
        expect((await t.call({ ...requestOf(read), token: tolvan, patient: SARA })).statusCode).toBe(403);
        expect((await t.call({ ...requestOf(read), token: tolvan, patient: ANTON })).statusCode).toBe(403);
      } finally {
        registry.mockRestore();
      }
    });

  });
});

describe('the logs of every request above', () => {
  it('are one JSON line each and hold no token, key or identity number', () => {
    expect(logs.length).toBeGreaterThan(1000);
    expect(malformedLogLines(logs)).toEqual([]);
    expect(used.foundIn(logs)).toEqual([]);
    expect(used.all()).toEqual(expect.arrayContaining(identityForms(SARA)));
  });
});

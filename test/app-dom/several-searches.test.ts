/**
 * A section that one FHIR search cannot fetch (src/reads/app-view.ts: `search` as a list): attention
 * signals are AllergyIntolerance and Flag, and a search has one type. The app sends each search with
 * the patient's id, following its `next` links; the section is what they found together, marked as
 * leaving something out when any page of any was, and it fails as one search does when one fails,
 * with the status of the first in the read's order. The list view shows both types, each a card with
 * what it is, when and its status, in Swedish and English; an allergy not confirmed says so beside
 * its status, and its notes are shown as written (the reason a signal was made inactive is one).
 * Failed before: a section had one search (`search: string`), and attention signals had no section;
 * the list view showed no verification status and no note, so Tolvan's unconfirmed Plåster read "Inactive" alone.
 */
import { APP_READS, type AppRead } from 'virtual:access-log-names';
import type Client from 'fhirclient/lib/Client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Resource } from '../../app/src/fhir-types.js';
import { LABELS } from '../../app/src/i18n.js';
import { loadRecord, type PatientRecord } from '../../app/src/load.js';
import { recordView } from '../../app/src/view.js';
import { all, fakeDocument, type FakeElement } from './fake-document.js';

const SIGNALS = APP_READS.find((r) => r.read === 'getAttentionSignals') as AppRead;
const BASE = 'https://pdas.example/fhir/';
const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };

const ALLERGY = {
  resourceType: 'AllergyIntolerance', id: 'a1', code: { text: 'Penicilliner' }, recordedDate: '2024-12-20T14:22:00+01:00',
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
};
const FLAG = { resourceType: 'Flag', id: 'f1', status: 'inactive', code: { text: 'MRSA' }, period: { start: '2025-10-26T02:30:00+01:00' } };
const FLAG_2 = { resourceType: 'Flag', id: 'f2', status: 'active', code: { text: 'Vårdbegränsning' }, period: { start: '2026-09-28T16:05:00+02:00' } };
const STAFF = { resourceType: 'Practitioner', id: 'p1', name: [{ text: 'Included, not an item' }] };

const bundle = (resources: Resource[], more: Partial<Bundle> = {}): Bundle => ({ resourceType: 'Bundle', entry: resources.map((resource) => ({ resource })), ...more });
const ALLERGIES = 'AllergyIntolerance?patient=p%2F1';
const FLAGS = 'Flag?patient=p%2F1';

/**
 * The FHIR API as the page meets it: each URL (relative to the base) answered from `answers`, a Bundle
 * or a failed status, any other with no match; every URL asked noted. fhirclient gives the page each
 * Bundle it answers (`onPage`); `fetch` is what the page reads keeping digits with.
 */
function fakeApi(answers: Readonly<Record<string, Bundle | number>>): { client: Client; asked: string[] } {
  const asked: string[] = [];
  const answer = (url: string): Bundle | number => {
    const relative = url.replace(BASE, '');
    asked.push(relative);
    return answers[relative] ?? bundle([]);
  };
  const client = {
    state: { serverUrl: BASE },
    getAuthorizationHeader: () => 'Bearer t',
    // A token still in its lifetime: nothing to renew (fhirclient's Client.refreshIfNeeded).
    refreshIfNeeded: () => Promise.resolve(),
    request: (query: string, options?: { onPage?: (page: unknown) => void }) => {
      const page = answer(query);
      if (typeof page === 'number') return Promise.reject(Object.assign(new Error(`${page}`), { status: page }));
      options?.onPage?.(page);
      return Promise.resolve(page);
    },
  } as unknown as Client;
  vi.stubGlobal('fetch', (url: string) => {
    const page = answer(url);
    return Promise.resolve(typeof page === 'number' ? new Response('{}', { status: page }) : new Response(JSON.stringify(page), { status: 200 }));
  });
  return { client, asked };
}

const load = async (answers: Readonly<Record<string, Bundle | number>>, read: AppRead = SIGNALS) => {
  const api = fakeApi(answers);
  const record = await loadRecord(api.client, 'p/1', undefined, [read]);
  return { asked: api.asked, found: record.reads[0]?.found };
};

describe('a section of several searches: attention signals\' AllergyIntolerance and Flag', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it('sends each search once, with the patient\'s id, and gives the section what they found together', async () => {
    const { asked, found } = await load({ [ALLERGIES]: bundle([ALLERGY, STAFF]), [FLAGS]: bundle([FLAG]) });
    expect([ALLERGIES, FLAGS].map((q) => asked.filter((a) => a === q).length)).toEqual([1, 1]);
    expect(found).toEqual({ ok: true, value: { resources: [ALLERGY, STAFF, FLAG], filtered: false } });
  });

  it('follows each search\'s next links, and is marked as leaving something out when one page of one was', async () => {
    const next = `${BASE}Flag?patient=p%2F1&_page=2`;
    const answers = { [ALLERGIES]: bundle([ALLERGY]), [FLAGS]: bundle([FLAG], { link: [{ relation: 'next', url: next }] }), [next.replace(BASE, '')]: bundle([FLAG_2], { meta: { tag: [SUBSETTED] } }) };
    // Both ways the page reads: through fhirclient, and keeping digits (its own paging, decimals.ts).
    expect((await load({ ...answers, [FLAGS]: bundle([FLAG], { meta: { tag: [SUBSETTED] } }) })).found).toEqual({ ok: true, value: { resources: [ALLERGY, FLAG], filtered: true } });
    const { asked, found } = await load(answers, { ...SIGNALS, keepsDigits: true });
    expect(asked).toEqual(expect.arrayContaining([ALLERGIES, FLAGS, 'Flag?patient=p%2F1&_page=2']));
    expect(found).toEqual({ ok: true, value: { resources: [ALLERGY, FLAG, FLAG_2], filtered: true } });
  });

  it('fails as one search does when either fails, with the status of the first that failed in the read\'s order, each sent', async () => {
    const refused = await load({ [ALLERGIES]: bundle([ALLERGY]), [FLAGS]: 403 });
    expect(refused.found).toMatchObject({ ok: false, status: 403 });
    expect(refused.asked).toEqual(expect.arrayContaining([ALLERGIES, FLAGS]));
    // Whichever answer comes back first: the read's order decides.
    expect((await load({ [ALLERGIES]: 503, [FLAGS]: 403 })).found).toMatchObject({ ok: false, status: 503 });
    expect((await load({ [ALLERGIES]: 503, [FLAGS]: 403 }, { ...SIGNALS, keepsDigits: true })).found).toMatchObject({ ok: false, status: 503 });
  });
});

describe('the attention signals\' section in the list view', () => {
  beforeEach(() => { vi.stubGlobal('document', fakeDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  const NONE = { ok: false, message: '', notShared: true } as const;
  const page = (found: PatientRecord['reads'][number]['found'], lang: 'sv' | 'en'): FakeElement[] =>
    (recordView({ patient: NONE, reads: [{ read: SIGNALS, found }], summary: NONE, accessLog: NONE }, lang, []) as unknown as FakeElement[])
      .filter((n) => n.tag === 'section');

  it.each([
    ['en', 'Attention signals', [['MRSA', '26 Oct 2025, 02:30', 'Inactive'], ['Penicilliner', '20 Dec 2024, 14:22', 'Active']]],
    ['sv', 'Uppmärksamhetssignaler', [['MRSA', '26 okt. 2025 02:30', 'Inaktiv'], ['Penicilliner', '20 dec. 2024 14:22', 'Aktiv']]],
  ] as const)('in %s: a card each, newest first, with what it is, when and its status in words', (lang, title, cards) => {
    const sections = page({ ok: true, value: { resources: [ALLERGY, STAFF, FLAG], filtered: false } }, lang);
    expect(sections.map((s) => all(s, 'h2')[0]?.text())).toEqual([title]);
    const shown = all(sections[0] as FakeElement, 'li').map((c) => [all(c, 'h3')[0]?.text(), ...all(c, 'dd').map((d) => d.text())]);
    expect(shown).toEqual(cards);
  });

  // Tolvan's Plåster (src/reads/attention-signals/demo-data.ts) as the API writes it (as-fhir-allergy.ts).
  const DELETION = 'Ej verifierad vid lapptest \u2013 makulerad';
  const PLASTER = {
    resourceType: 'AllergyIntolerance', id: 'a2', code: { text: 'Plåster (kolofonium)' }, recordedDate: '2024-04-26T11:03:00+02:00',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'inactive' }] },
    verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'unconfirmed' }] },
    note: [{ extension: [{ url: 'http://example.org/fhir/pdas/StructureDefinition/signal-deletion-comment', valueBoolean: true }], time: '2024-05-13T08:30:00+02:00', text: DELETION }],
  };
  const CONFIRMED = { ...ALLERGY, verificationStatus: { coding: [{ code: 'confirmed' }] }, note: [{ text: 'Anafylaxi  efter V-penicillin.\nUndvik betalaktamer.' }] };

  it.each([
    ['en', ['Inactive', 'Unconfirmed'], 'Noted 13 May 2024, 08:30'],
    ['sv', ['Inaktiv', 'Ej bekräftad'], 'Antecknat 13 maj 2024 08:30'],
  ] as const)('in %s: says an allergy that is not confirmed is not, beside its status, and shows its notes as written, with when they were noted', (lang, status, noted) => {
    const [section] = page({ ok: true, value: { resources: [PLASTER, CONFIRMED], filtered: false } }, lang);
    const [penicillin, plaster] = all(section as FakeElement, 'li');
    expect(all(plaster as FakeElement, 'dd').map((d) => d.text()).slice(1)).toEqual(status);
    expect(all(plaster as FakeElement, 'p').map((p) => p.text())).toEqual([noted, DELETION]);
    // Confirmed is what a status says unqualified: no word of its own.
    expect(all(penicillin as FakeElement, 'dd').map((d) => d.text()).slice(1)).toEqual([status[0] === 'Inactive' ? 'Active' : 'Aktiv']);
    expect(all(penicillin as FakeElement, 'p').map((p) => p.text())).toEqual(['Anafylaxi  efter V-penicillin.\nUndvik betalaktamer.']);
  });

  it('says a verification FHIR has no code for as written', () => {
    const [section] = page({ ok: true, value: { resources: [{ ...PLASTER, verificationStatus: { text: 'Enligt anhörig' } }], filtered: false } }, 'en');
    expect(all(section as FakeElement, 'dd').map((d) => d.text()).slice(1)).toEqual(['Inactive', 'Enligt anhörig']);
  });

  it('says a refusal in its own section, in the app\'s words', () => {
    const [section] = page({ ok: false, status: 403, message: '403 Forbidden' }, 'en');
    expect(section?.text()).toContain(`Could not be read (403): ${LABELS.failedRefused.en}`);
  });
});

/**
 * Issue 57 item 2: the record's sections come from the reads' descriptions (src/reads/app-view.ts,
 * through `virtual:access-log-names`): a read registered with a description and no code in app/ is
 * searched as it says (its `{id}` the patient's) and is a section of the page, titled with the access log's name of it, its items shown by the list view all
 * reads share; a read's own view is one its folder names and the app has (app/src/views.ts).
 * Failed before: app/src/load.ts and view.ts read and rendered the five reads they named, and no other.
 */
import { APP_READS, type AppRead } from 'virtual:access-log-names';
import type Client from 'fhirclient/lib/Client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Resource } from '../../app/src/fhir-types.js';
import { loadRecord, type PatientRecord } from '../../app/src/load.js';
import { LABELS } from '../../app/src/i18n.js';
import { recordView } from '../../app/src/view.js';
import { OWN_VIEWS } from '../../app/src/views.js';
import { OWN_VIEWS as DECLARED_VIEWS } from '../../src/reads/app-view.js';
import { all, fakeDocument, type FakeElement } from './fake-document.js';

const VACCINATIONS: AppRead = {
  read: 'getVaccinations', title: { sv: 'Vaccinationer', en: 'Vaccinations' }, searches: ['Immunization?patient={id}'], view: 'list', types: ['Immunization'], keepsDigits: false,
};
const found = (...resources: Resource[]) => ({ ok: true, value: { resources, filtered: false } }) as const;
const NOT_SHARED = { ok: false, message: '', notShared: true } as const;

describe('issue 57 item 2: the record\'s sections are the reads\' descriptions', () => {
  beforeEach(() => { vi.stubGlobal('document', fakeDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('has each view a read\'s folder may name, and no other', () => {
    expect(Object.keys(OWN_VIEWS).sort()).toEqual([...DECLARED_VIEWS].sort());
    for (const r of APP_READS) expect([r.read, r.view === 'list' || r.view in OWN_VIEWS]).toEqual([r.read, true]);
  });

  it('shows a read with a description and no app code as its own section, each item a card of the list view', () => {
    const record: PatientRecord = {
      patient: { ok: true, value: { resourceType: 'Patient', name: [{ text: 'Tolvan Tolvansson' }] } },
      reads: [
        ...APP_READS.map((read) => ({ read, found: NOT_SHARED })),
        { read: VACCINATIONS, found: found(
          { resourceType: 'Immunization', id: 'i1', status: 'completed', vaccineCode: { text: 'Influensa 2025/2026' }, occurrenceDateTime: '2025-10-20' },
          { resourceType: 'Immunization', id: 'i2', status: 'completed', vaccineCode: { coding: [{ code: 'J07BB02', display: 'Influensa <2024>' }] }, occurrenceDateTime: '2024-10-02' },
          { resourceType: 'Practitioner', id: 'p1', name: [{ text: 'Included, not an item' }] },
        ) },
      ],
      summary: NOT_SHARED, accessLog: NOT_SHARED,
    };
    const page = recordView(record, 'en', []) as unknown as FakeElement[];
    const sections = page.filter((n) => n.tag === 'section');
    expect(sections.map((s) => all(s, 'h2')[0]?.text())).toEqual(['Vaccinations']);
    const cards = all(sections[0] as FakeElement, 'li');
    // Newest first, each in the record's words, the included Practitioner no item of its own.
    expect(cards.map((c) => all(c, 'h3')[0]?.text())).toEqual(['Influensa 2025/2026', 'Influensa <2024>']);
    expect(cards[0]?.text()).toContain('Completed');
    expect(cards[0]?.text()).toContain('20 Oct 2025');
  });

  it('says so in the read\'s own section when its search failed, the others standing', () => {
    const record: PatientRecord = {
      patient: NOT_SHARED,
      reads: [{ read: VACCINATIONS, found: { ok: false, status: 500, message: 'Internal Server Error' } }, ...APP_READS.map((read) => ({ read, found: found() }))],
      summary: NOT_SHARED, accessLog: NOT_SHARED,
    };
    const sections = (recordView(record, 'sv', []) as unknown as FakeElement[]).filter((n) => n.tag === 'section');
    expect(sections.map((s) => all(s, 'h2')[0]?.text())).toEqual(['Vaccinationer', ...APP_READS.map((r) => r.title.sv)]);
    // In the app's own words, never the error's message (view.ts `failure`).
    expect(sections[0]?.text()).toContain(`Kunde inte läsas (500): ${LABELS.failedLater.sv}`);
    expect(sections[0]?.text()).not.toContain('Internal Server Error');
    expect(sections[1]?.text()).toContain('Inga uppgifter.');
  });
});

describe('issue 57 item 2: the app reads each described read', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  /** The FHIR API as the page meets it: every search answered with one resource of the type it searches, each URL noted. */
  function fakeApi(): { client: Client; asked: string[] } {
    const asked: string[] = [];
    const bundle = (url: string): Bundle => ({ resourceType: 'Bundle', entry: [{ resource: { resourceType: url.replace(/^.*\/fhir\//, '').split(/[?/]/)[0] ?? '', id: 'x1' } }] });
    const client = {
      state: { serverUrl: 'https://pdas.example/fhir' },
      getAuthorizationHeader: () => 'Bearer t',
      // A token still in its lifetime: nothing to renew (fhirclient's Client.refreshIfNeeded).
      refreshIfNeeded: () => Promise.resolve(),
      request: (query: string, options?: { onPage?: (page: unknown) => void }) => {
        asked.push(query);
        const page = bundle(`https://pdas.example/fhir/${query}`);
        options?.onPage?.(page);
        return Promise.resolve(page);
      },
    } as unknown as Client;
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url.replace('https://pdas.example/fhir/', ''));
      return Promise.resolve(new Response(JSON.stringify(bundle(url)), { status: 200 }));
    });
    return { client, asked };
  }

  it('sends a new read\'s search with the patient\'s id, once, among the others\', and gives its section what it found', async () => {
    const vaccinations: AppRead = { ...VACCINATIONS, searches: ['Immunization?patient={id}&_include=Immunization:performer'] };
    const reads = [...APP_READS, vaccinations];
    const { client, asked } = fakeApi();
    const record = await loadRecord(client, 'p/1', undefined, reads);
    expect(asked).toContain('Immunization?patient=p%2F1&_include=Immunization:performer');
    for (const search of APP_READS.flatMap((r) => r.searches)) expect(asked.filter((q) => q === search.replace('{id}', 'p%2F1'))).toHaveLength(1);
    expect(record.reads.map((p) => p.read.read)).toEqual(reads.map((r) => r.read));
    expect(record.reads.at(-1)?.found).toEqual({ ok: true, value: { resources: [{ resourceType: 'Immunization', id: 'x1' }], filtered: false } });
    // The access log last, so it names the reads just made.
    expect(asked.at(-1)).toBe('AuditEvent?patient=Patient/p%2F1');
  });
});

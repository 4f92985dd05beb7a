/**
 * The patient app follows a search's `next` links with the person's token (app/src/load.ts), through
 * fhirclient or through its own paging where a read keeps its digits. The token goes only to the FHIR
 * server the app signed in to: a link that leads elsewhere fails the section, and nothing is sent
 * there, whichever way the read is fetched. And a chain of pages that never ends fails the section
 * after MAX_PAGES pages, rather than fetching for ever or showing the pages read so far as the whole.
 * Driven through fhirclient's own Client (2.6.3) as the page's bundle runs it: its browser build reads
 * `fetch` from `window` (FHIRCLIENT_PURE), here a stub; its Node build would fetch with cross-fetch.
 * Runs isolated (vitest.config.ts): fhirclient takes its `fetch` once, when first loaded. Every address
 * is a loopback one, so that nothing could leave the machine should the stub not be in place.
 * Failed before: fhirclient sent the token to the other origin's link and followed an endless chain
 * without bound; the app's own paging answered the first 100 pages as if they were all.
 * Beneath both, no request with the token leaves for anywhere else (app/src/token-guard.ts), not even
 * the one fhirclient makes to a 201 answer's Location (second hostile review). Failed before: the token
 * reached 127.0.0.2 that way.
 * And a token that has expired (a page reloaded after its lifetime) is renewed before any read, the
 * app's own paging included. Failed before: that paging sent the expired token while fhirclient renewed
 * it for the other reads, so the sections read keeping digits failed (401) beside the rest.
 */
import { APP_READS, type AppRead } from 'virtual:access-log-names';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bundle } from '../../app/src/fhir-types.js';
import { loadRecord, MAX_PAGES } from '../../app/src/load.js';

vi.hoisted(() => {
  Object.assign(globalThis, {
    FHIRCLIENT_PURE: true, window: { fetch: (...args: Parameters<typeof fetch>) => globalThis.fetch(...args), Response }, location: { href: 'http://127.0.0.1:9/app/' },
  });
});
// As main.ts does: the guard first, so that the fetch fhirclient takes as it loads is the guard's.
const { sendTokensOnlyTo } = await import('../../app/src/token-guard.js');
const { default: Client } = await import('fhirclient/lib/Client');

const BASE = 'http://127.0.0.1:9/fhir';
const SIGNALS = APP_READS.find((r) => r.read === 'getAttentionSignals') as AppRead;
const FLAG = { resourceType: 'Flag', id: 'f1', status: 'active', code: { text: 'MRSA' } };
const WAYS: readonly [string, AppRead][] = [['through fhirclient', { ...SIGNALS, keepsDigits: false }], ['keeping digits', { ...SIGNALS, keepsDigits: true }]];

interface Sent { url: string; authorization: string | null }

/** fhirclient's Client of a person signed in at BASE, every request answered by `answer` through a stubbed fetch; what was sent, noted. */
function signedIn(answer: (url: URL) => Bundle): { client: InstanceType<typeof Client>; sent: Sent[] } {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push({ url: url.href, authorization: new Headers(init?.headers).get('authorization') });
    return new Response(JSON.stringify(answer(url)), { status: 200, headers: { 'content-type': 'application/fhir+json' } });
  });
  const client = new Client({} as never, { serverUrl: BASE, tokenResponse: { access_token: 'the-persons-token', token_type: 'Bearer' } } as never);
  sendTokensOnlyTo([BASE]);
  return { client, sent };
}

const page = (next?: string): Bundle => ({ resourceType: 'Bundle', entry: [{ resource: FLAG }], ...(next === undefined ? {} : { link: [{ relation: 'next', url: next }] }) });

describe('the app follows next links to the FHIR server it signed in to only, and not for ever', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it.each(WAYS)('%s: a next link to another origin fails the section, and nothing is sent there', async (_way, read) => {
    const { client, sent } = signedIn((url) => (url.pathname.endsWith('/Flag') && !url.searchParams.has('_page') ? page('http://127.0.0.2:9/fhir/Flag?_page=2') : page()));
    const record = await loadRecord(client, 'p1', undefined, [read]);
    expect(record.reads[0]?.found).toMatchObject({ ok: false, message: expect.stringMatching(/leads away from the FHIR server: http:\/\/127\.0\.0\.2:9/) });
    expect(sent.filter((s) => !s.url.startsWith(`${BASE}/`))).toEqual([]);
    expect(sent.every((s) => s.authorization === 'Bearer the-persons-token')).toBe(true);
  });

  it.each(WAYS)('%s: a link to another path of the same origin is refused too', async (_way, read) => {
    const { client, sent } = signedIn((url) => (url.pathname === '/fhir/Flag' ? page('http://127.0.0.1:9/fhir-elsewhere/Flag?_page=2') : page()));
    const record = await loadRecord(client, 'p1', undefined, [read]);
    expect(record.reads[0]?.found).toMatchObject({ ok: false });
    expect(sent.map((s) => s.url).filter((u) => u.includes('fhir-elsewhere'))).toEqual([]);
  });

  // The hostile review's two ways past the first check: fhirclient finds the link it follows by `==`
  // (so a relation written as an array is one), and asks an `http:` URL without `//` as written.
  const DISGUISED: readonly [string, (url: URL) => Bundle['link']][] = [
    ['a relation written as an array', () => [{ relation: ['next'], url: 'http://127.0.0.2:9/fhir/Flag?_page=2' }] as never],
    ['a relation written as an array before a next link on the server', (url) => [{ relation: ['next'], url: 'http://127.0.0.2:9/fhir/Flag?_page=2' },
      { relation: 'next', url: `${BASE}${url.pathname.replace('/fhir', '')}?_page=2` }] as never],
    ['an http: URL without its slashes', () => [{ relation: 'next', url: 'http:127.0.0.2:9/fhir/Flag?_page=2' }]],
    ['an http: URL with one slash', () => [{ relation: 'next', url: 'http:/127.0.0.2:9/fhir/Flag?_page=2' }]],
    ['a URL written as an array', () => [{ relation: 'next', url: ['http://127.0.0.2:9/fhir/Flag?_page=2'] }] as never],
    ['a dot segment written with percent signs', () => [{ relation: 'next', url: `${BASE}/%2e%2e/elsewhere/Flag?_page=2` }]],
  ];
  for (const [way, read] of WAYS) {
    it.each(DISGUISED)(`${way}: %s fails the section, and nothing leaves the FHIR server`, async (_case, links) => {
      const { client, sent } = signedIn((url) => (url.searchParams.has('_page') ? page() : { ...page(), link: links(url) }));
      const record = await loadRecord(client, 'p1', undefined, [read]);
      expect(record.reads[0]?.found).toMatchObject({ ok: false, message: expect.stringMatching(/leads away from the FHIR server/) });
      expect(record.accessLog).toMatchObject({ ok: false });
      expect(sent.map((s) => s.url).filter((u) => !u.startsWith(`${BASE}/`))).toEqual([]);
    });
  }

  it.each(WAYS)('%s: next links that never end fail the section after MAX_PAGES pages of a search', async (_way, read) => {
    const { client, sent } = signedIn((url) => page(`${BASE}${url.pathname.replace('/fhir', '')}?_page=${Number(url.searchParams.get('_page') ?? 1) + 1}`));
    const record = await loadRecord(client, 'p1', undefined, [read]);
    expect(record.reads[0]?.found).toMatchObject({ ok: false, message: expect.stringMatching(new RegExp(`more than ${MAX_PAGES} pages`)) });
    for (const type of ['AllergyIntolerance', 'Flag']) expect(sent.filter((s) => s.url.includes(`/fhir/${type}`)).length).toBe(MAX_PAGES);
  });

  it.each(WAYS)('%s: a page whose link is false ends its search, as fhirclient ends it', async (_way, read) => {
    const { client } = signedIn(() => ({ ...page(), link: false } as never));
    const record = await loadRecord(client, 'p1', undefined, [read]);
    expect((record.reads[0]?.found as { value: { resources: unknown[] } }).value.resources).toHaveLength(2);
  });

  it.each(WAYS)('%s: a search of a few pages on the server is read whole', async (_way, read) => {
    const { client } = signedIn((url) => {
      const n = Number(url.searchParams.get('_page') ?? 1);
      return page(n < 3 ? `${BASE}${url.pathname.replace('/fhir', '')}?_page=${n + 1}` : undefined);
    });
    const record = await loadRecord(client, 'p1', undefined, [read]);
    expect(record.reads[0]?.found).toMatchObject({ ok: true });
    expect((record.reads[0]?.found as { value: { resources: unknown[] } }).value.resources).toHaveLength(6);
  });
});

describe('no request with the token leaves for anywhere but the FHIR server, whatever fhirclient is led to', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  // The second hostile review: fhirclient asks a 201 answer's Location with the token, unchecked (lib.js).
  it.each(['http://127.0.0.2:9/fhir/Flag', '//127.0.0.2:9/fhir/Flag', 'http:127.0.0.2:9/fhir/Flag'])('a 201 answer with an empty body and Location %s fails the read, and nothing is sent there', async (location) => {
    const sent: Sent[] = [];
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://127.0.0.1:9/app/');
      sent.push({ url: url.href, authorization: new Headers(init?.headers).get('authorization') });
      return url.href.startsWith(`${BASE}/Flag`) ? new Response(null, { status: 201, headers: { location } }) : new Response(JSON.stringify(page()), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const client = new Client({} as never, { serverUrl: BASE, tokenResponse: { access_token: 'the-persons-token', token_type: 'Bearer' } } as never);
    sendTokensOnlyTo([BASE]);
    const record = await loadRecord(client, 'p1', undefined, [{ ...SIGNALS, keepsDigits: false }]);
    expect(record.reads[0]?.found).toMatchObject({ ok: false });
    expect(sent.filter((s) => !s.url.startsWith(`${BASE}/`))).toEqual([]);
  });

  it('a request without the token goes anywhere: the guard stops the token, nothing else', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (input: string) => { sent.push(String(input)); return new Response('{}'); });
    sendTokensOnlyTo([BASE]);
    await window.fetch('http://127.0.0.2:9/.well-known/openid-configuration');
    await expect(window.fetch('http://127.0.0.2:9/x', { headers: { authorization: 'Bearer t' } })).rejects.toThrow(/not to http:\/\/127\.0\.0\.2:9/);
    await expect(window.fetch(new Request('http://127.0.0.2:9/y', { headers: { Authorization: 'Bearer t' } }))).rejects.toThrow(TypeError);
    expect(sent).toEqual(['http://127.0.0.2:9/.well-known/openid-configuration']);
  });
});

describe('an expired access token is renewed before any read, whichever way the read is fetched', () => {
  afterEach(() => { vi.unstubAllGlobals(); });

  it.each(WAYS)('%s: every FHIR request carries the renewed token, and it was renewed once', async (_way, read) => {
    const sent: Sent[] = [];
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push({ url: url.href, authorization: new Headers(init?.headers).get('authorization') });
      const body = url.pathname === '/auth/token' ? { access_token: 'renewed', token_type: 'Bearer', expires_in: 300, scope: 'offline_access' } : page();
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const environment = { options: {}, getStorage: () => ({ set: async () => undefined }) };
    const client = new Client(environment as never, {
      serverUrl: BASE, clientId: 'patient-app', tokenUri: 'http://127.0.0.1:9/auth/token', expiresAt: Math.floor(Date.now() / 1000) - 60,
      tokenResponse: { access_token: 'expired', refresh_token: 'r', token_type: 'Bearer', scope: 'offline_access' },
    } as never);
    const record = await loadRecord(client, 'p1', undefined, [read]);
    expect(record.reads[0]?.found).toMatchObject({ ok: true });
    const fhir = sent.filter((s) => s.url.startsWith(`${BASE}/`));
    expect(fhir.length).toBeGreaterThan(0);
    expect(fhir.filter((s) => s.authorization !== 'Bearer renewed')).toEqual([]);
    expect(sent.filter((s) => s.url.endsWith('/auth/token'))).toHaveLength(1);
  });
});

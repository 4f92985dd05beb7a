/**
 * Another patient's records slipped into a FHIR answer under the id of one of the patient's own
 * (threat 29 of docs/threat-model.md#the-upstream-ehr-api10, docs/upstream-fhir.md#search-and-paging):
 * a proxy in front of the development FHIR server adds a protected person's Condition or
 * Composition (or the Encounter or Observation a read fetches by `_id`) carrying the `Type/id` and
 * the `fullUrl` of Tolvan's own, in the same page, on a next page, as a match beside an include of
 * his, or among what is fetched; or adds a record whose subject names Tolvan's Patient id on another
 * server. Asked through the real app (EHR_ADAPTER=fhir-r4), every one is a malformed answer (502):
 * each entry is checked on its own, never through an index that keeps one resource per id, and no
 * word of hers reaches the body.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { MID_2025, TOLVAN } from '../adapters/ehr-fhir/support/demo-bundle.js';
import { fhirReply, type FhirProxy, type Hook, type Reply } from '../adapters/ehr-fhir/support/fhir-proxy.js';

/** Nora (demo-bundle.json's protected patient): her id, her number, and the word every text of her records carries here. */
const HER = /pat-nora|200404122384|Nora|HENNES-JOURNAL/;
const MARK = 'HENNES-JOURNAL';
const FOREIGN_PATIENT = 'https://other-region.example/fhir/Patient/pat-tolvan';

interface Entry {
  fullUrl?: string;
  resource: Record<string, unknown> & { resourceType: string; id: string };
  search?: { mode: string };
}
interface Bundle {
  resourceType: 'Bundle';
  entry?: Entry[];
  link?: { relation: string; url: string }[];
}

const bundleOf = (reply: Reply): Bundle => JSON.parse(reply.body.toString()) as Bundle;

/** Her copy of his `resource`: about her (or, with `subject`, about whoever that names), every text marked as hers. */
function hers(resource: Entry['resource'], subject = 'Patient/pat-nora'): Entry['resource'] {
  const text = JSON.stringify({ ...resource, subject: { reference: subject } })
    .replaceAll('"text":"', `"text":"${MARK} `).replaceAll('"display":"', `"display":"${MARK} `)
    .replaceAll('"title":"', `"title":"${MARK} `).replaceAll('xhtml\\">', `xhtml\\">${MARK} `);
  return JSON.parse(text) as Entry['resource'];
}

interface Read {
  name: string;
  url: string;
  /** The read's own search, and a search of what it fetches by `_id`. */
  search: string;
  fetched: string;
}

const READS: Read[] = [
  { name: 'diagnoses', url: '/patients/diagnoses/?fromDateTime=2025-01-01T00:00:00', search: '/Condition?', fetched: '/Encounter?_id=' },
  { name: 'journal notes', url: '/patients/journalnotes/?fromDateTime=2025-01-01T00:00:00', search: '/Composition?', fetched: '/Observation?_id=' },
];

/** Where the proxy answers a page of its own making (never forwarded). */
const OWN_PAGE = '&_page=hers';

/** The ways her record gets into his answer; each changes what `search` answers (or `fetched`, for the last). */
const TRICKS: [string, (read: Read, proxyUrl: () => string) => Hook][] = [
  ['a duplicate id within a page', (read) => changing(read.search, (b) => {
    const first = (b.entry ?? [])[0] as Entry;
    b.entry?.push({ ...first, resource: hers(first.resource) });
  })],
  ['a duplicate id on the next page', (read, proxyUrl) => {
    let his: Entry | undefined;
    return async (seen, forward) => {
      if (seen.url.endsWith(OWN_PAGE) && his !== undefined) {
        changed++;
        return fhirReply(200, { resourceType: 'Bundle', type: 'searchset', entry: [{ ...his, resource: hers(his.resource) }] });
      }
      const reply = await forward();
      if (!seen.url.includes(read.search)) return reply;
      const b = bundleOf(reply);
      his = b.entry?.[0];
      b.link = [...(b.link ?? []).filter((l) => l.relation !== 'next'), { relation: 'next', url: `${new URL(proxyUrl()).origin}${seen.url}${OWN_PAGE}` }];
      return fhirReply(200, b);
    };
  }],
  ['a match that duplicates an include of his', (read) => changing(read.search, (b) => {
    const first = (b.entry ?? [])[0] as Entry;
    b.entry = [{ ...first, search: { mode: 'include' } }, { ...first, resource: hers(first.resource), search: { mode: 'match' } }, ...(b.entry ?? []).slice(1)];
  })],
  ['a duplicate id among what is fetched by _id', (read) => changing(read.fetched, (b) => {
    const first = (b.entry ?? [])[0] as Entry;
    b.entry?.push({ ...first, resource: hers(first.resource) });
  })],
  ['a patient reference that names another server', (read) => changing(read.search, (b) => {
    const first = (b.entry ?? [])[0] as Entry;
    const id = `${first.resource.id}-elsewhere`;
    b.entry?.push({ fullUrl: first.fullUrl?.replace(first.resource.id, id), resource: { ...hers(first.resource, FOREIGN_PATIENT), id } });
  })],
];

/** How many answers a hook has changed: a case whose hook changed nothing proves nothing. */
let changed = 0;
function changing(where: string, change: (b: Bundle) => void): Hook {
  return async (seen, forward) => {
    const reply = await forward();
    if (!seen.url.includes(where) || reply.status !== 200) return reply;
    const b = bundleOf(reply);
    if ((b.entry ?? []).length === 0) return reply;
    change(b);
    changed++;
    return fhirReply(200, b);
  };
}

describe('another patient\'s record under the id of the patient\'s own (EHR_ADAPTER=fhir-r4, through a proxy)', () => {
  let t: FhirTestApp;
  let token: string;

  beforeAll(async () => {
    t = await startFhirTestApp({ proxied: true, now: MID_2025 });
    const issuedAt = Math.floor(t.clock.now() / 1000);
    token = await t.personToken(TOLVAN, { iat: issuedAt, exp: issuedAt + 3600 });
  });
  afterEach(async () => {
    (t.proxy as FhirProxy).hook = undefined;
    for (const read of READS) expect((await t.call({ method: 'GET', url: read.url, token })).statusCode, `${read.name} unchanged`).toBe(200);
  });
  afterAll(() => t.close());

  it('answers his own records without a trick, none of hers', async () => {
    for (const read of READS) {
      const res = await t.call({ method: 'GET', url: read.url, token });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(HER);
    }
  });

  describe.each(READS)('$name', (read) => {
    it.each(TRICKS)('refuses %s (502), and nothing of hers is in the body', async (_, trick) => {
      (t.proxy as FhirProxy).hook = trick(read, () => (t.proxy as FhirProxy).url);
      const before = changed;
      const res = await t.call({ method: 'GET', url: read.url, token });
      expect(changed, 'the hook changed an answer').toBeGreaterThan(before);
      expect(res.body).not.toMatch(HER);
      expect(res.statusCode).toBe(502);
      // The read's error shape (1 or 2) with the documented words.
      const { message, error } = res.json() as { message?: string; error?: string };
      expect(message ?? error).toBe("The EHR answered with an error, or with data this service cannot show exactly as written, so nothing is shown. If it is the same later, tell the region's support, giving the X-Request-Id of this answer.");
    });
  });
});

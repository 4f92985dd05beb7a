/**
 * Issue 34 item 5 (docs/upstream-fhir.md#search-and-paging, "Bounded cost"): a proxy answering
 * Condition searches with ~10 MiB pages and next links took one read from 166 to 862 MB, three at
 * once to 1.6 GB. The bytes of the pages a read holds now count against the answer-memory budget the
 * XML adapter's documents count against (src/adapters/ehr-xml-http/documents-in-flight.ts), so large
 * answers wait their turn. Three patients' diagnoses are read at once through the real app, each
 * search answered with two pages of ~3.9 MiB by the proxy in front of the development server; the
 * first read's second page is held back. Observed by the budget's own counters and by what the proxy
 * is asked: the other two reads wait with their first page in hand, unparsed, and ask for nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_DOCUMENT_BYTES } from '../../src/adapters/ehr-xml-http/documents-in-flight.js';
import { MID_2025, TOLVAN } from '../adapters/ehr-fhir/support/demo-bundle.js';
import type { FhirProxy, Hook, Reply } from '../adapters/ehr-fhir/support/fhir-proxy.js';
import { MIB } from '../adapters/ehr-fhir/support/large-page.js';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { pollUntil } from '../support/poll.js';

const PATIENTS = [TOLVAN, '201212121212', '200404122384'];
const DIAGNOSES = '/patients/diagnoses/?fromDateTime=2025-01-01T00:00:00';
const PAGE_BYTES = 3.9 * MIB;
const PAGE = /[?&]pdas-page=(\d+)/;

/**
 * Page `page` of a search, of about `bytes`: the server's own entries on the first (a match of
 * another patient would fail the read) and Organizations included beside them, each its own id;
 * each page but the last links to the next.
 */
function pageOf(reply: Reply, patient: string, page: number, bytes: number, last: number): Buffer {
  const bundle = JSON.parse(reply.body.toString()) as { entry?: unknown[] };
  const entries = page > 1 ? [] : (bundle.entry ?? []).map((e) => JSON.stringify(e));
  const name = 'x'.repeat(900);
  for (let i = 0, size = 0; size < bytes - 2000; i++) {
    const id = `org-pad-${patient}-${page}-${i}`;
    const entry = JSON.stringify({ fullUrl: `Organization/${id}`, resource: { resourceType: 'Organization', id, name }, search: { mode: 'include' } });
    size += entry.length + 1;
    entries.push(entry);
  }
  const link = page === last ? [] : [{ relation: 'next', url: `Condition?patient=Patient/${patient}&pdas-page=${page + 1}` }];
  return Buffer.from(`{"resourceType":"Bundle","type":"searchset","link":${JSON.stringify(link)},"entry":[${entries.join(',')}]}`);
}

/** Who asked for which page of a Condition search, and a hook that answers them with `pageOf` pages, holding back the request `holds` picks. */
function pagedConditions(bytes: number, last: number, holds: (patient: string, page: number) => boolean) {
  const asked: { patient: string; page: number; bytes: number }[] = [];
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hook: Hook = async (seen, forward) => {
    const reply = await forward();
    const patient = /[?&]patient=Patient\/([A-Za-z0-9.-]+)/.exec(seen.url)?.[1];
    if (!seen.url.includes('/Condition?') || patient === undefined) return reply;
    const page = Number(PAGE.exec(seen.url)?.[1] ?? 1);
    const body = pageOf(reply, patient, page, bytes, last);
    asked.push({ patient, page, bytes: body.length });
    if (holds(patient, page)) await held;
    expect(body.length).toBeLessThan(4 * MIB);
    return { ...reply, body };
  };
  return { asked, hook, release };
}

describe('large FHIR pages of three patients at once (EHR_ADAPTER=fhir-r4)', () => {
  let t: FhirTestApp;
  beforeAll(async () => {
    t = await startFhirTestApp({ proxied: true, now: MID_2025, adapter: { timeoutMs: 30_000 } });
  });
  afterAll(() => t.close());

  it('lets one read hold its pages while the others wait their turn, their first page in hand and unparsed', { timeout: 60_000 }, async () => {
    // The first read to ask for its second page is held there: it holds its first page meanwhile.
    let first: string | undefined;
    const { asked, hook, release } = pagedConditions(PAGE_BYTES, 2, (patient, page) => page === 2 && (first ??= patient) === patient);
    (t.proxy as FhirProxy).hook = hook;
    const tokens = await Promise.all(PATIENTS.map((patient) => t.personToken(patient)));
    const answers = Promise.all(tokens.map((token) => t.call({ method: 'GET', url: DIAGNOSES, token })));
    const memory = t.ehr.answerMemory;
    const seconds = (): number => asked.filter((a) => a.page === 2).length;

    try {
      // Every read has its first page; one is let into the budget and asks for its second, the other two
      // wait with theirs (without a budget, all three parsed theirs at once and asked for their second).
      // The first pages of the two reads that did not ask for a second: what they wait with in hand.
      const waitingWith = (): number => asked.filter((a) => a.page === 1 && a.patient !== first).reduce((sum, a) => sum + a.bytes, 0);
      // Once all three asked for their first page: before that, nothing waits yet, and a read that parsed its
      // first page quickly had asked for its second while the others had not asked at all (a loaded CI run).
      const firsts = (): number => asked.filter((a) => a.page === 1).length;
      await pollUntil(async () => seconds() > 1 || (seconds() === 1 && firsts() === PATIENTS.length && memory.bytesWaiting >= waitingWith()), Boolean, 30_000, 20);
      expect(asked.filter((a) => a.page === 1).map((a) => a.patient).sort()).toEqual(['pat-nora', 'pat-tolvan', 'pat-tolve']);
      expect(seconds(), 'only the read let into the budget asked for more').toBe(1);
      expect(waitingWith()).toBeGreaterThan(2 * PAGE_BYTES - 4096);
      expect(memory.bytesWaiting, 'the other two wait, their first page in hand').toBeGreaterThanOrEqual(waitingWith());
      expect(memory.bytesInFlight, 'the budget is held by that read alone').toBe(MIB);
    } finally {
      release();
    }
    expect((await answers).map((res) => res.statusCode)).toEqual([200, 200, 200]);
    expect(seconds()).toBe(3);
    expect([memory.bytesInFlight, memory.bytesWaiting, memory.room.bytesHeld, memory.recordsAnswering]).toEqual([0, 0, 0, 0]);
  });

  it('counts a read\'s small pages together once they add up to a large document', async () => {
    // Pages of 120 KB, each small alone (SMALL_DOCUMENT_BYTES); the fourth is held back.
    const { asked, hook, release } = pagedConditions(120_000, 4, (_patient, page) => page === 4);
    (t.proxy as FhirProxy).hook = hook;
    const answer = t.call({ method: 'GET', url: DIAGNOSES, token: await t.personToken(TOLVAN) });
    const memory = t.ehr.answerMemory;
    try {
      await pollUntil(async () => asked.length, (n) => n === 4, 30_000, 20);
      // Two pages were taken at once; the third made them large, and the three are counted as one document.
      const three = asked.slice(0, 3).reduce((sum, a) => sum + a.bytes, 0);
      expect(memory.bytesInFlight).toBeGreaterThanOrEqual(three);
      expect(memory.bytesInFlight).toBeLessThan(three + 64 * 1024);
    } finally {
      release();
    }
    expect((await answer).statusCode).toBe(200);
    expect(memory.bytesInFlight).toBe(0);
    expect(SMALL_DOCUMENT_BYTES).toBeGreaterThan(2 * 120_000);
    expect(SMALL_DOCUMENT_BYTES).toBeLessThan(3 * 120_000);
  });
});

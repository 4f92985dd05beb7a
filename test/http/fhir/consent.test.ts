/**
 * docs/contract.md §11 "FHIR": the grants a person gave as R4 Consents. A grant posted as a Consent
 * is read back by the same mapping (status, scope, category, patient and performer, policyRule, one
 * permit with period, agent, action and classes); the grantor alone sees, lists and revokes it (a
 * grantee, or anyone else, gets 404); what cannot be a grant is 400 naming the element; each change is
 * audited under the proxy operations with its grant; and with PROXY_GRANTS off nothing is listed and
 * every Consent route is 403.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import { delegationRelatedPersonId } from '../../../src/http/fhir/delegate-related-person.js';
import { KEY, startTestApp, TEST_FHIR_IDS, TEST_PUBLIC_BASE_URL, type TestApp } from '../../support/test-app.js';
import { ANTON, bundleOf, FHIR_JSON, forgedLike, get, MARTA, matchesOf, NOW, outcomeOf, PERSONNUMMER, pid, SARA, SHARING, smartToken, TOLVAN, type Resource } from './fhir-calls.js';

const GOSTA = '194608632396';
const SAMORDNINGSNUMMER = 'http://electronichealth.se/identifier/samordningsnummer';
const RESOURCE_TYPES = 'http://hl7.org/fhir/resource-types';
const PROXY_CATEGORY = 'http://example.org/fhir/pdas/CodeSystem/proxy-category';
const AGNT = { system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT' };
const WRITE = 'patient/Consent.cud patient/Consent.rs user/*.rs';

/** A Consent as an app posts it: the grantee by number, the classes, the period. */
const posted = (grantee: string, classes: string[], period?: Record<string, string>, system = PERSONNUMMER): Record<string, unknown> => ({
  resourceType: 'Consent', status: 'proposed',
  scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
  category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }] }],
  patient: { reference: `Patient/${pid(TOLVAN)}` },
  provision: {
    type: 'permit', ...(period === undefined ? {} : { period }),
    actor: [{ role: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT' }] }, reference: { identifier: { system, value: grantee } } }],
    action: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access' }] }],
    class: classes.map((code) => ({ system: RESOURCE_TYPES, code })),
  },
});

const post = (t: TestApp, body: unknown, token: string): Promise<LightMyRequestResponse> =>
  t.call({ method: 'POST', url: '/fhir/Consent', key: null, token, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(body) });
const del = (t: TestApp, id: string, token: string): Promise<LightMyRequestResponse> => t.call({ method: 'DELETE', url: `/fhir/Consent/${id}`, key: null, token });
const resourceOf = (res: LightMyRequestResponse, status = 200): Resource => {
  expect(res.statusCode, res.body.slice(0, 400)).toBe(status);
  expect(res.headers['content-type']).toBe(FHIR_JSON);
  return JSON.parse(res.body) as Resource;
};

describe('FHIR Consent, PROXY_GRANTS on', () => {
  let t: TestApp;
  let tolvan: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, proxies: SHARING });
    tolvan = await smartToken(t, TOLVAN, WRITE);
  }, 60_000);
  afterAll(async () => t.close());

  it('is listed in the CapabilityStatement with read, search-type, create, delete, _id and patient, and its scopes in the SMART configuration', async () => {
    const statement = JSON.parse((await get(t, '/fhir/metadata')).body) as { rest: { resource: { type: string; interaction: { code: string }[]; searchParam: { name: string }[] }[] }[] };
    const consent = statement.rest[0]?.resource.find((r) => r.type === 'Consent');
    expect(consent?.interaction.map((i) => i.code)).toEqual(['read', 'search-type', 'create', 'delete']);
    expect(consent?.searchParam.map((p) => p.name)).toEqual(['_id', 'patient']);
    const smart = JSON.parse((await get(t, '/fhir/.well-known/smart-configuration')).body) as { scopes_supported: string[] };
    expect(smart.scopes_supported).toEqual(expect.arrayContaining(['patient/Consent.rs', 'patient/Consent.cud', 'user/Consent.read', 'user/Consent.write']));
  });

  it('grants by a posted Consent and reads it back by the same mapping; the grantor lists and reads it, nobody else', async () => {
    const res = await post(t, posted(ANTON, ['Observation', 'DiagnosticReport'], { start: '2026-11-22T08:00:00+01:00', end: '2026-12-31T23:59:59+01:00' }), tolvan);
    const consent = resourceOf(res, 201);
    expect(res.headers.location).toBe(`${TEST_PUBLIC_BASE_URL}/fhir/Consent/${consent.id}`);
    const tolvanRef = { reference: `Patient/${pid(TOLVAN)}` };
    expect(consent).toEqual({
      resourceType: 'Consent', id: consent.id, status: 'proposed',
      scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' }] },
      category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }] }],
      patient: tolvanRef, performer: [tolvanRef], dateTime: '2026-11-21T09:00:00+01:00',
      policyRule: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTIN' }] },
      provision: {
        type: 'permit', period: { start: '2026-11-22T08:00:00+01:00', end: '2026-12-31T23:59:59+01:00' },
        actor: [{ role: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT' }] }, reference: { identifier: { system: PERSONNUMMER, value: ANTON } } }],
        action: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access' }] }],
        class: [{ system: RESOURCE_TYPES, code: 'DiagnosticReport' }, { system: RESOURCE_TYPES, code: 'Observation' }],
      },
    });
    expect(resourceOf(await get(t, `/fhir/Consent/${consent.id}`, tolvan))).toEqual(consent);
    expect(matchesOf(bundleOf(await get(t, `/fhir/Consent?patient=Patient/${pid(TOLVAN)}`, tolvan)))).toEqual([consent]);
    // The grantee, and a third person, find nothing of it.
    const anton = await smartToken(t, ANTON, 'user/Consent.read user/Consent.write');
    const probed = t.audit.records.length;
    outcomeOf(await get(t, `/fhir/Consent/${consent.id}`, anton), 404);
    outcomeOf(await del(t, consent.id, anton), 404);
    // Each probe is audited under the prober, naming the id probed (hostile review).
    expect(t.audit.records.slice(probed).filter((r) => !('phase' in r)).map((r) => [r.patientId, r.proxyGrantId]))
      .toEqual([[ANTON, consent.id], [ANTON, consent.id]]);
    expect(matchesOf(bundleOf(await get(t, '/fhir/Consent', anton)))).toEqual([]);
    // Someone else named: recorded under them, never `self` (hostile review), and with no basis: looking it
    // up for a real Patient id and not for a made-up one would tell them apart by timing (helper-80).
    const named = t.audit.records.length;
    outcomeOf(await get(t, `/fhir/Consent?patient=${pid(TOLVAN)}`, anton), 403);
    outcomeOf(await get(t, `/fhir/Consent?patient=${pid(TOLVAN)}`, await smartToken(t, MARTA, 'user/Consent.read')), 403);
    // And when a parameter beside it is refused (helper-78, F3: recorded as the caller, `self`); named
    // by a Patient id, no basis is looked up before the answer, whose timing would tell a real id (helper-79).
    outcomeOf(await get(t, `/fhir/Consent?patient=${pid(TOLVAN)}&_count=x`, anton), 400);
    outcomeOf(await get(t, `/fhir/Consent?patient=${pid(TOLVAN)}&_count=x`, await smartToken(t, MARTA, 'user/Consent.read')), 400);
    expect(t.audit.records.slice(named).map((r) => [r.actor?.personId, r.patientId, r.delegation]))
      .toEqual([[ANTON, TOLVAN, undefined], [MARTA, TOLVAN, undefined], [ANTON, TOLVAN, undefined], [MARTA, TOLVAN, undefined]]);
    outcomeOf(await get(t, `/fhir/Consent/${consent.id}`, await smartToken(t, MARTA, 'user/Consent.read')), 404);
    // Audited under grantProxy, the attempt first, naming the grant and its grantor.
    const records = t.audit.records.filter((r) => r.proxyGrantId === consent.id && r.operation === 'grantProxy');
    expect(records.map((r) => [r.patientId, 'phase' in r ? r.phase : 'outcome'])).toEqual([[TOLVAN, 'attempt'], [TOLVAN, 'outcome']]);
    expect(t.audit.records.some((r) => r.operation === 'getProxy' && r.proxyGrantId === consent.id && r.patientId === TOLVAN)).toBe(true);
  });

  it('names the grantee as the pair\'s RelatedPerson once accepted, and revokes by DELETE, the next request of the proxy refused', async () => {
    const consent = resourceOf(await post(t, posted(GOSTA, ['Observation', 'DiagnosticReport'], undefined, SAMORDNINGSNUMMER), tolvan), 201);
    const grants = t.proxyGrants as ProxyGrants;
    await grants.accept(GOSTA, consent.id, async () => undefined);
    const active = resourceOf(await get(t, `/fhir/Consent/${consent.id}`, tolvan));
    expect(active.status).toBe('active');
    const { actor } = active.provision as { actor: { reference: Record<string, unknown> }[] };
    expect(actor[0]?.reference).toEqual({
      reference: `RelatedPerson/${delegationRelatedPersonId(TEST_FHIR_IDS, GOSTA, TOLVAN)}`,
      identifier: { system: SAMORDNINGSNUMMER, value: GOSTA }, display: 'Gösta Partnersson',
    });
    const gosta = await smartToken(t, GOSTA, 'user/*.rs');
    const labs = `/fhir/Observation?patient=${pid(TOLVAN)}`;
    expect((await get(t, labs, gosta)).statusCode).toBe(200);
    const revoked = resourceOf(await del(t, consent.id, tolvan));
    expect(revoked.status).toBe('inactive');
    expect((revoked.provision as { actor: { reference: Record<string, unknown> }[] }).actor[0]?.reference).toEqual({ identifier: { system: SAMORDNINGSNUMMER, value: GOSTA }, display: 'Gösta Partnersson' });
    outcomeOf(await get(t, labs, gosta), 403);
    // Harmless to repeat: the same object, no second attempt.
    const attempts = t.audit.records.filter((r) => r.operation === 'revokeProxy' && 'phase' in r).length;
    expect(resourceOf(await del(t, consent.id, tolvan))).toEqual(revoked);
    expect(t.audit.records.filter((r) => r.operation === 'revokeProxy' && 'phase' in r).length).toBe(attempts);
  });

  it('refuses what cannot be a grant with 400 naming the element, and a Consent about someone else with 403', async () => {
    const cases: [unknown, string][] = [
      [{ resourceType: 'Patient' }, 'Consent resource'],
      [posted(ANTON, ['Observation']), 'Consent.provision.class'],
      [posted(ANTON, ['Basic']), 'Consent.provision.class'],
      [posted(TOLVAN, ['Observation', 'DiagnosticReport']), 'Consent.provision.actor'],
      [posted('191212121213', ['Observation', 'DiagnosticReport']), 'Consent.provision.actor'],
      [posted(ANTON, ['Observation', 'DiagnosticReport'], undefined, 'urn:example'), 'Consent.provision.actor.reference.identifier'],
      // Each number is of one kind: a coordination number is no personnummer, nor the other way round.
      [posted(GOSTA, ['Observation', 'DiagnosticReport'], undefined, PERSONNUMMER), 'Consent.provision.actor.reference.identifier'],
      [posted(ANTON, ['Observation', 'DiagnosticReport'], undefined, SAMORDNINGSNUMMER), 'Consent.provision.actor.reference.identifier'],
      [posted(ANTON, ['Observation', 'DiagnosticReport'], undefined, 'urn:oid:1.2.752.129.2.1.3.3'), 'Consent.provision.actor.reference.identifier'],
      [posted(ANTON, ['Observation', 'DiagnosticReport'], { start: 'tomorrow' }), 'Consent.provision.period.start'],
      [posted(ANTON, ['Observation', 'DiagnosticReport'], { end: '2020-01-01' }), 'Consent.provision.period.end'],
      [{ ...posted(ANTON, ['Observation']), status: 'rejected' }, 'Consent.status'],
    ];
    for (const [body, element] of cases) {
      const issue = outcomeOf(await post(t, body, tolvan), 400);
      expect(issue.code).toBe('invalid');
      expect(issue.diagnostics).toContain(element);
    }
    // The same rules and limits as the COS door: a second open grant to one person is a conflict, said so.
    const first = await post(t, posted(MARTA, ['Condition', 'Procedure']), tolvan);
    expect(first.statusCode, first.body.slice(0, 300)).toBe(201);
    const again = outcomeOf(await post(t, posted(MARTA, ['Observation', 'DiagnosticReport']), tolvan), 409);
    expect([again.code, again.diagnostics]).toEqual(['conflict', expect.stringContaining('You already share your record with this person')]);
    const someoneElse = { ...posted(ANTON, ['Observation', 'DiagnosticReport']), patient: { reference: `Patient/${pid(MARTA)}` } };
    outcomeOf(await post(t, someoneElse, tolvan), 403);
  });

  it('refuses a restriction it cannot hold (a data period, named records, a modifier extension …) with 400 naming it, never a wider grant (hostile review)', async () => {
    // Gösta, to whom Tolvan shares nothing yet: a Consent taken would be a grant (201), not a conflict.
    const lab = (): Record<string, unknown> => posted(GOSTA, ['Observation', 'DiagnosticReport'], undefined, SAMORDNINGSNUMMER);
    const within = (extra: Record<string, unknown>): Record<string, unknown> => {
      const body = lab();
      return { ...body, provision: { ...(body.provision as Record<string, unknown>), ...extra } };
    };
    const modifier = [{ url: 'http://example.org/only-this-visit', valueBoolean: true }];
    const cases: [Record<string, unknown>, string][] = [
      [within({ dataPeriod: { start: '2026-10-01' } }), 'Consent.provision.dataPeriod'],
      [within({ data: [{ meaning: 'instance', reference: { reference: 'Observation/x' } }] }), 'Consent.provision.data'],
      [within({ securityLabel: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }] }), 'Consent.provision.securityLabel'],
      [within({ code: [{ coding: [{ system: 'http://loinc.org', code: '718-7' }] }] }), 'Consent.provision.code'],
      [within({ purpose: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActReason', code: 'TREAT' }] }), 'Consent.provision.purpose'],
      [within({ modifierExtension: modifier }), 'Consent.provision.modifierExtension'],
      [{ ...lab(), modifierExtension: modifier }, 'Consent.modifierExtension'],
      // A modifier extension changes the meaning of what holds it, wherever it is (hostile review): never passed over.
      [{ ...lab(), scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy', modifierExtension: modifier }] } }, 'Consent.scope.coding[0].modifierExtension'],
      [{ ...lab(), meta: { modifierExtension: modifier } }, 'Consent.meta.modifierExtension'],
      [{ ...lab(), extension: [{ url: 'http://example.org/x', valueString: 'x', modifierExtension: modifier }] }, 'Consent.extension[0].modifierExtension'],
      [within({ class: [{ system: RESOURCE_TYPES, code: 'Observation', modifierExtension: modifier }, { system: RESOURCE_TYPES, code: 'DiagnosticReport' }] }), 'Consent.provision.class[0].modifierExtension'],
      [within({ action: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access' }], modifierExtension: modifier }] }), 'Consent.provision.action[0].modifierExtension'],
      [within({ actor: [{ role: { coding: [AGNT], modifierExtension: modifier }, reference: { identifier: { system: SAMORDNINGSNUMMER, value: GOSTA } } }] }), 'Consent.provision.actor[0].role.modifierExtension'],
      [{ ...lab(), implicitRules: 'http://example.org/rules' }, 'Consent.implicitRules'],
      [{ ...lab(), policy: [{ uri: 'http://example.org/policy' }] }, 'Consent.policy'],
      // A local time in spring's gap, as the COS door refuses it (second hostile review): not an hour later.
      [within({ period: { end: '2027-03-28T02:30:00' } }), 'Consent.provision.period.end'],
      [within({ period: { start: '2027-03-28T02:00:00', end: '2027-03-29T00:00:00' } }), 'Consent.provision.period.start'],
      [within({ period: { end: '2027-03-29T00:00:00', _end: { extension: [] } } }), 'Consent.provision.period._end'],
      [within({ actor: [{ reference: { reference: 'RelatedPerson/x', identifier: { system: SAMORDNINGSNUMMER, value: GOSTA } } }] }), 'Consent.provision.actor.reference.reference'],
      [within({ action: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access' }, { system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'correct' }] }] }), 'Consent.provision.action'],
      // A concept and a coding hold their own members and no other (third hostile review): never dropped.
      [{ ...lab(), scope: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy', foo: 1 }] } }, 'Consent.scope.coding.foo'],
      [{ ...lab(), category: [{ coding: [{ system: 'http://loinc.org', code: '59284-0' }], foo: 1 }] }, 'Consent.category.foo'],
      [within({ class: [{ system: RESOURCE_TYPES, code: 'Observation', foo: 1 }, { system: RESOURCE_TYPES, code: 'DiagnosticReport' }] }), 'Consent.provision.class.foo'],
      [within({ action: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access', foo: 1 }] }] }), 'Consent.provision.action.coding.foo'],
      [within({ actor: [{ role: { coding: [{ ...AGNT, foo: 1 }] }, reference: { identifier: { system: SAMORDNINGSNUMMER, value: GOSTA } } }] }), 'Consent.provision.actor.role.coding.foo'],
      // A role is the agent's alone, as an action is access alone: another coding beside it would qualify who may read.
      [within({ actor: [{ role: { coding: [AGNT, { system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: 'GUARD' }] }, reference: { identifier: { system: SAMORDNINGSNUMMER, value: GOSTA } } }] }), 'Consent.provision.actor.role'],
      [within({ actor: [{ role: { coding: [AGNT, { system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT', userSelected: false, version: 'x', display: 'Agent' }, { code: 'AGNT' }] }, reference: { identifier: { system: SAMORDNINGSNUMMER, value: GOSTA } } }] }), 'Consent.provision.actor.role'],
      [within({ actor: [{ role: { text: 'agent' }, reference: { identifier: { system: SAMORDNINGSNUMMER, value: GOSTA } } }] }), 'Consent.provision.actor.role'],
      // The grantee's identifier is its system and number: an old one (use, a period that ended) or a modifier would say otherwise (hostile review).
      ...[{ use: 'old' }, { period: { end: '2000-01-01' } }, { modifierExtension: modifier }, { assigner: { display: 'x' } }, { type: { text: 'x' } }, { bogus: 1 }].map((extra): [Record<string, unknown>, string] => [
        within({ actor: [{ reference: { identifier: { system: SAMORDNINGSNUMMER, value: GOSTA, ...extra } } }] }),
        'modifierExtension' in extra ? 'Consent.provision.actor[0].reference.identifier.modifierExtension' : `Consent.provision.actor.reference.identifier.${Object.keys(extra)[0] ?? ''}`,
      ]),
    ];
    const grants = t.proxyGrants as ProxyGrants;
    const before = (await grants.list(TOLVAN)).length;
    for (const [body, element] of cases) {
      const issue = outcomeOf(await post(t, body, tolvan), 400);
      expect([element, issue.code, issue.diagnostics]).toEqual([element, 'invalid', expect.stringContaining(element)]);
    }
    expect((await grants.list(TOLVAN)).length).toBe(before);
    // What does not restrict is taken: an id, meta, narrative and plain extensions.
    const taken = await post(t, { ...within({ id: 'p1', extension: [{ url: 'http://example.org/note', valueString: 'x' }] }), id: 'c1', meta: { tag: [] }, text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">x</div>' } }, tolvan);
    expect(taken.statusCode, taken.body.slice(0, 300)).toBe(201);
    expect((await del(t, resourceOf(taken, 201).id as string, tolvan)).statusCode).toBeLessThan(300);
  });

  it('never repeats an identity number in a refusal, whichever member holds it (hostile review)', async () => {
    const body = posted(ANTON, ['Observation', 'DiagnosticReport']);
    const provision = body.provision as Record<string, unknown>;
    for (const [refused, element] of [
      // A class beside the lab pair, so that the refusal is about the class that holds the number.
      ...[GOSTA, `x${GOSTA.slice(0, 8)}-${GOSTA.slice(8)}`, `${GOSTA.slice(0, 8)}\u2212${GOSTA.slice(8)}`, GOSTA.replace(/\d/g, (d) => String.fromCodePoint(0x660 + Number(d))),
        `${GOSTA[0] ?? ''}\u0301${GOSTA.slice(1)}`, `${GOSTA.slice(0, 8)}~${GOSTA.slice(8)}`, `${GOSTA.slice(0, 8)}\u034f-${GOSTA.slice(8)}`,
        `${GOSTA.slice(0, 8)}*${GOSTA.slice(8)}`, `${'a'.repeat(52)}${GOSTA}1`, `0 ${GOSTA}`]
        .map((code) => [posted(ANTON, ['Observation', 'DiagnosticReport', code]), 'Consent.provision.class'] as const),
      [{ ...body, [GOSTA]: 1 }, 'Consent'],
      // A number split across nested members' names (hostile review).
      [{ ...body, [GOSTA.slice(0, 8)]: { [GOSTA.slice(8)]: { modifierExtension: [] } } }, 'Consent'],
      [{ ...body, provision: { ...provision, [`x-${GOSTA}`]: 1 } }, 'Consent.provision'],
    ] as const) {
      const issue = outcomeOf(await post(t, refused, tolvan), 400);
      expect([element, issue.diagnostics.startsWith(element), issue.diagnostics.includes('an identity number'), /\p{Nd}\p{M}?\p{Nd}{7}\P{Nd}{0,2}\p{Nd}{4}/u.test(issue.diagnostics)])
        .toEqual([element, true, true, false]);
    }
  });

  // Hostile review (helper-71): the COS door refuses a body on revoke, the FHIR door revoked and passed it over.
  it('refuses a DELETE with a body, as the COS door\'s revoke does, and revokes nothing', async () => {
    const consent = resourceOf(await post(t, posted(SARA, ['Observation', 'DiagnosticReport']), tolvan), 201);
    const res = await t.call({ method: 'DELETE', url: `/fhir/Consent/${consent.id}`, key: null, token: tolvan, headers: { 'content-type': 'application/fhir+json' }, payload: '{"resourceType":"Consent"}' });
    expect(outcomeOf(res, 400).diagnostics).toBe('DELETE /fhir/Consent/{id} takes no body: send none.');
    expect(resourceOf(await get(t, `/fhir/Consent/${consent.id}`, tolvan)).status).toBe('proposed');
    expect(resourceOf(await del(t, consent.id, tolvan)).status).toBe('inactive');
  });

  // Hostile review (helper-71): a NUL, an escape sequence, a line separator and a right-to-left override in a
  // member's name reached the diagnostics raw, where the COS door escapes them.
  it('shows a member\'s name with its control characters escaped, as the COS door does', async () => {
    const body = posted(ANTON, ['Observation', 'DiagnosticReport']);
    const name = 'a\u0000\u001b[31m\u2028\u202eb';
    const issue = outcomeOf(await post(t, { ...body, provision: { ...(body.provision as Record<string, unknown>), [name]: 1 } }, tolvan), 400);
    expect(issue.diagnostics).toMatch(/^Consent\.provision\.a\\u0000\\u001b\[31m\\u2028\\u202eb is not something a grant can hold/);
  });

  // Hostile review helper-126: a grantee named by a literal reference was refused as though it restricted the
  // grant ("share less by naming fewer classes"), which sent the app looking for the wrong fault.
  it('refuses a grantee named by reference, saying to name them by their identity number', async () => {
    const body = posted(ANTON, ['Observation']);
    const provision = body.provision as { actor: { reference: Record<string, unknown> }[] };
    for (const reference of [{ reference: `Patient/${pid(ANTON)}` }, { reference: 'RelatedPerson/x', identifier: { system: PERSONNUMMER, value: ANTON } }]) {
      const actor = { ...provision.actor[0], reference };
      const issue = outcomeOf(await post(t, { ...body, provision: { ...provision, actor: [actor] } }, tolvan), 400);
      expect(issue.diagnostics).toBe('Consent.provision.actor.reference.reference is not taken: name the person you share with by their identity number '
        + '(reference.identifier, system http://electronichealth.se/identifier/personnummer), not by a reference.');
    }
  });

  it('a search takes patient (once), _id, _count and _format; any other way of naming a patient is 400, and strict handling refuses the rest (hostile review)', async () => {
    const gosta = `Patient/${pid(GOSTA)}`;
    for (const query of [
      `patient:identifier=${encodeURIComponent(`${SAMORDNINGSNUMMER}|${GOSTA}`)}`, `subject=${gosta}`, `PATIENT=${gosta}`, `actor=${gosta}`,
      `identifier=${GOSTA}`, `_id=${GOSTA}`, `patient=Patient/${pid(TOLVAN)}&patient=Patient/${pid(TOLVAN)}`, '_count=abc', 'patient=not%20an%20id',
      // One value each, as on every search (docs/fhir-api.md#search): never one of two taken (hostile review).
      '_count=5&_count=6', '_format=json&_format=json',
    ]) {
      const issue = outcomeOf(await get(t, `/fhir/Consent?${query}`, tolvan), 400);
      expect([query, issue.code, issue.diagnostics.includes(GOSTA)]).toEqual([query, 'invalid', false]);
    }
    expect((await get(t, '/fhir/Consent?foo=bar', tolvan, { prefer: 'handling=strict' })).statusCode).toBe(400);
    // A Patient id elsewhere is refused by its form: a forged one of that form the same, or the answer tells a genuine id (hostile review).
    const genuine = pid(GOSTA);
    const answers = new Set<string>();
    for (const id of [genuine, forgedLike(genuine)]) {
      for (const prefer of [{}, { prefer: 'handling=strict' }] as Array<Record<string, string>>) answers.add((await get(t, `/fhir/Consent?performer=${id}`, tolvan, prefer)).body);
    }
    expect([...answers]).toEqual([expect.stringContaining('names a patient in a way this API does not serve on Consent')]);
    // The review of 887bd42: the subscription key sent as its query parameter is the credentials', taken
    // out before anything reads the query, here as on a search (docs/contract.md). Failed before: 400.
    const keyed = await t.call({ method: 'GET', url: `/fhir/Consent?subscription-key=${KEY}`, key: null, token: tolvan, headers: { prefer: 'handling=strict' } });
    expect(keyed.statusCode).toBe(200);
    // FHIR's lenient default: a parameter that names nobody is passed over, and left out of the self link.
    const selfOf = async (query: string) => bundleOf(await get(t, `/fhir/Consent${query}`, tolvan)).link.find((l) => l.relation === 'self')?.url;
    expect(await selfOf('?foo=bar&_count=5&_format=json')).toBe(await selfOf(''));
    // _count=0 asks for the total alone, as on every search (hostile review: every entry came). Failed before: entries.
    const all = bundleOf(await get(t, '/fhir/Consent', tolvan));
    const counted = bundleOf(await get(t, '/fhir/Consent?_count=0', tolvan));
    expect(all.total).toBeGreaterThan(0);
    expect([counted.total, counted.entry ?? [], counted.link.find((l) => l.relation === 'self')?.url]).toEqual([all.total, [], `${await selfOf('')}&_count=0`]);
  });

  it('a read or revocation by id names no other patient: another way of naming one is 400, another patient 403, and nothing is revoked (hostile review)', async () => {
    const made = resourceOf(await post(t, posted(SARA, ['Condition', 'Procedure']), tolvan), 201);
    const marta = `Patient/${pid(MARTA)}`;
    for (const method of ['GET', 'DELETE'] as const) {
      const at = (query: string) => t.call({ method, url: `/fhir/Consent/${made.id}?${query}`, key: null, token: tolvan });
      for (const query of [`subject=${marta}`, `identifier=${MARTA}`, `patient=${marta}&patient=${marta}`]) outcomeOf(await at(query), 400);
      outcomeOf(await at(`patient=${marta}`), 403);
    }
    expect((resourceOf(await get(t, `/fhir/Consent/${made.id}?patient=Patient/${pid(TOLVAN)}`, tolvan))).status).toBe('proposed');
    expect((await del(t, made.id, tolvan)).statusCode).toBe(200);
  });

  it('reads back a period in autumn\'s repeated hour at the instants it was given, offsets and all', async () => {
    // 2027-10-31 02:00–03:00 comes twice in Stockholm, first at +02:00, then at +01:00. Failed before: the
    // period was written from the 14-digit local time, so both read back as the first hour, +02:00.
    const period = { start: '2027-10-31T02:30:00+01:00', end: '2027-10-31T02:50:00+01:00' };
    const made = resourceOf(await post(t, posted(SARA, ['Condition', 'Procedure'], period), tolvan), 201);
    const read = resourceOf(await get(t, `/fhir/Consent/${made.id}?patient=Patient/${pid(TOLVAN)}`, tolvan));
    const listed = bundleOf(await get(t, `/fhir/Consent?patient=Patient/${pid(TOLVAN)}`, tolvan)).entry?.find((e) => e.resource.id === made.id)?.resource;
    for (const resource of [made, read, listed]) expect((resource?.provision as { period: unknown }).period).toEqual(period);
    expect((await del(t, made.id as string, tolvan)).statusCode).toBe(200);
    // From the first hour's 02:10 to the second's 02:20: an hour and ten minutes.
    const across = { start: '2027-10-31T02:10:00+02:00', end: '2027-10-31T02:20:00+01:00' };
    const spanning = resourceOf(await post(t, posted(SARA, ['Condition', 'Procedure'], across), tolvan), 201);
    expect((spanning.provision as { period: unknown }).period).toEqual(across);
    expect((await del(t, spanning.id as string, tolvan)).statusCode).toBe(200);
  });

  it('refuses a permit without classes (never everything by omission), and reads a `*` grant back as every type the reads serve', async () => {
    const martaToken = await smartToken(t, MARTA, WRITE);
    const { provision, ...rest } = posted(ANTON, []) as { provision: Record<string, unknown> };
    const refused = outcomeOf(await post(t, { ...rest, patient: { reference: `Patient/${pid(MARTA)}` }, provision: { ...provision, class: undefined } }, martaToken), 400);
    expect(refused.diagnostics).toContain('Consent.provision.class must name what you share');
    const given = await t.proxyGrants?.give(MARTA, { grantee: ANTON, categories: ['*'] }, async () => undefined);
    const consent = resourceOf(await get(t, `/fhir/Consent/${given?.id ?? ''}`, martaToken), 200);
    const classes = (consent.provision as { class: { code: string }[] }).class.map((c) => c.code);
    expect(classes).toEqual(expect.arrayContaining(['Patient', 'Observation', 'Condition', 'MedicationRequest', 'Appointment', 'Encounter', 'Composition', 'Flag']));
    expect(classes).not.toContain('AuditEvent');
    // And the code `*`, so a FHIR app sees the grant reaches reads added later, and can give one (second hostile review:
    // it read back as today's types alone, and posting them back gave today's categories). Failed before: no `*` class.
    const codes = (consent.provision as { class: { system: string; code: string }[] }).class;
    expect(codes.at(-1)).toEqual({ system: PROXY_CATEGORY, code: '*' });
    const { provision: again, ...head } = consent as unknown as { provision: Record<string, unknown> } & Record<string, unknown>;
    expect((await del(t, consent.id as string, martaToken)).statusCode).toBe(200);
    const repost = { ...head, id: undefined, status: 'proposed', dateTime: undefined, performer: undefined, provision: { ...again, period: undefined, actor: [{ role: { coding: [AGNT] }, reference: { identifier: { system: PERSONNUMMER, value: ANTON } } }] } };
    const whole = resourceOf(await post(t, repost, martaToken), 201);
    expect((await t.proxyGrants?.get(MARTA, whole.id as string))?.categories).toEqual(['*']);
    expect((await del(t, whole.id as string, martaToken)).statusCode).toBe(200);
    // A grant is ended and given anew, never changed.
    const put = await t.call({ method: 'PUT', url: `/fhir/Consent/${consent.id}`, key: null, token: martaToken, headers: { 'content-type': 'application/fhir+json' }, payload: '{}' });
    expect([outcomeOf(put, 405).diagnostics, put.headers.allow]).toEqual(['A Consent is given (POST) and ended (DELETE), never changed: GET, HEAD, DELETE only.', 'GET, HEAD, DELETE']);
  });

  // Hostile review: video meetings are Appointments on this door, so class Appointment was taken as both
  // categories (their join links shared unasked), and a grant of video meetings alone read back as Appointment.
  // Failed before: categories ["Appointment", "VideoMeeting"], and class Appointment for the meetings alone.
  it('takes class Appointment as the bookings alone; the video meetings are their own class, both ways', async () => {
    const categoriesOf = async (id: string): Promise<readonly string[] | undefined> => (await t.proxyGrants?.get(TOLVAN, id))?.categories;
    const bookings = resourceOf(await post(t, posted(GOSTA, ['Appointment'], undefined, SAMORDNINGSNUMMER), tolvan), 201);
    expect(await categoriesOf(bookings.id as string)).toEqual(['Appointment']);
    expect((bookings.provision as { class: unknown }).class).toEqual([{ system: RESOURCE_TYPES, code: 'Appointment' }]);
    expect((await del(t, bookings.id as string, tolvan)).statusCode).toBe(200);

    const meetingsClass = { system: PROXY_CATEGORY, code: 'VideoMeeting' };
    const meetingsOnly = posted(GOSTA, [], undefined, SAMORDNINGSNUMMER) as { provision: Record<string, unknown> };
    const meetings = resourceOf(await post(t, { ...meetingsOnly, provision: { ...meetingsOnly.provision, class: [meetingsClass] } }, tolvan), 201);
    expect(await categoriesOf(meetings.id as string)).toEqual(['VideoMeeting']);
    expect((meetings.provision as { class: unknown }).class).toEqual([meetingsClass]);
    expect((await del(t, meetings.id as string, tolvan)).statusCode).toBe(200);

    const given = await t.proxyGrants?.give(TOLVAN, { grantee: GOSTA, categories: ['VideoMeeting', 'Appointment'] }, async () => undefined);
    const both = resourceOf(await get(t, `/fhir/Consent/${given?.id ?? ''}`, tolvan), 200);
    expect((both.provision as { class: unknown }).class).toEqual([{ system: RESOURCE_TYPES, code: 'Appointment' }, meetingsClass]);
    expect((await del(t, given?.id ?? '', tolvan)).statusCode).toBe(200);

    const unknown = posted(GOSTA, ['Appointment'], undefined, SAMORDNINGSNUMMER) as { provision: Record<string, unknown> };
    const refused = await post(t, { ...unknown, provision: { ...unknown.provision, class: [{ system: PROXY_CATEGORY, code: 'AccessLog' }] } }, tolvan);
    expect(outcomeOf(refused, 400).diagnostics).toContain(`${PROXY_CATEGORY}|VideoMeeting`);
  });

  // Hostile review helper-162 F2: a prescriptions grant opens MedicationRequest and Medication (docs/proxies.md's table), but
  // its Consent read back MedicationRequest alone. Failed before: class [MedicationRequest].
  it('writes a prescriptions grant as MedicationRequest and Medication, and takes either back, never Medication alone', async () => {
    const categoriesOf = async (id: string): Promise<readonly string[] | undefined> => (await t.proxyGrants?.get(TOLVAN, id))?.categories;
    const given = await t.proxyGrants?.give(TOLVAN, { grantee: GOSTA, categories: ['MedicationPrescription'] }, async () => undefined);
    const read = resourceOf(await get(t, `/fhir/Consent/${given?.id ?? ''}`, tolvan), 200);
    expect((read.provision as { class: unknown }).class).toEqual([{ system: RESOURCE_TYPES, code: 'MedicationRequest' }, { system: RESOURCE_TYPES, code: 'Medication' }]);
    expect((await del(t, given?.id ?? '', tolvan)).statusCode).toBe(200);
    for (const classes of [['MedicationRequest', 'Medication'], ['MedicationRequest']]) {
      const consent = resourceOf(await post(t, posted(GOSTA, classes, undefined, SAMORDNINGSNUMMER), tolvan), 201);
      expect([classes, await categoriesOf(consent.id as string)]).toEqual([classes, ['MedicationPrescription']]);
      expect((await del(t, consent.id as string, tolvan)).statusCode).toBe(200);
    }
    const alone = outcomeOf(await post(t, posted(GOSTA, ['Medication'], undefined, SAMORDNINGSNUMMER), tolvan), 400);
    expect(alone.diagnostics).toContain(`${RESOURCE_TYPES}|Medication", which cannot be shared alone`);
  });

  it('refuses a body of another media type with 415 naming the two it takes, and takes plain JSON as FHIR JSON', async () => {
    const body = JSON.stringify(posted(GOSTA, ['Observation', 'DiagnosticReport'], undefined, SAMORDNINGSNUMMER));
    const call = (type: string) => t.call({ method: 'POST', url: '/fhir/Consent', key: null, token: tolvan, headers: { 'content-type': type }, payload: body });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      // It said "must be application/json", as the COS API's writes do: a FHIR create takes application/fhir+json first.
      const res = await call(type);
      expect([type, outcomeOf(res, 415)]).toEqual([type, { severity: 'error', code: 'not-supported', diagnostics: 'Content-Type must be application/fhir+json or application/json.' }]);
    }
    const taken = resourceOf(await call('application/json; charset=utf-8'), 201);
    expect(resourceOf(await del(t, taken.id, tolvan)).id).toBe(taken.id);
  });

  it('takes the Consent scopes by name only, and a person acting for themself to change anything', async () => {
    outcomeOf(await get(t, '/fhir/Consent', await smartToken(t, TOLVAN, 'patient/*.read user/*.cruds')), 403);
    expect((await get(t, '/fhir/Consent', await smartToken(t, TOLVAN, 'user/Consent.read'))).statusCode).toBe(200);
    outcomeOf(await post(t, posted(MARTA, ['Observation', 'DiagnosticReport']), await smartToken(t, TOLVAN, 'patient/Consent.rs')), 403);
    const client = await t.clientToken({ scope: 'system/*.read system/Consent.cruds user/Consent.write' });
    outcomeOf(await get(t, '/fhir/Consent', client), 403);
    outcomeOf(await post(t, posted(ANTON, ['Observation', 'DiagnosticReport']), client), 403);
    // Märta holds Tolvan's power of attorney: a launch for him cannot grant in his name.
    const forTolvan = await smartToken(t, MARTA, 'patient/Consent.cud patient/Consent.rs', { smart_patient: pid(TOLVAN) });
    outcomeOf(await post(t, posted(ANTON, ['Observation', 'DiagnosticReport']), forTolvan), 403);
    outcomeOf(await del(t, 'a'.repeat(32), forTolvan), 403);
    // Her own grants under that launch: a patient/ scope reaches Tolvan, the launch patient, so only user/ is named (hostile review).
    const read = outcomeOf(await get(t, '/fhir/Consent', forTolvan), 403);
    expect(read.diagnostics).toBe('The token\'s scopes do not allow this on Consent: your own grants, in an app opened for someone you act for, need user/Consent.read (a patient/ scope reaches only the person it was opened for).');
  });
});

describe('FHIR Consent, PROXY_GRANTS off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('is not listed, and every Consent route is 403 forbidden', async () => {
    const statement = JSON.parse((await get(t, '/fhir/metadata')).body) as { rest: { resource: { type: string }[] }[] };
    expect(statement.rest[0]?.resource.map((r) => r.type)).not.toContain('Consent');
    const smart = JSON.parse((await get(t, '/fhir/.well-known/smart-configuration')).body) as { scopes_supported: string[] };
    expect(smart.scopes_supported.filter((s) => s.includes('Consent'))).toEqual([]);
    const token = await smartToken(t, TOLVAN, WRITE);
    for (const res of [await get(t, '/fhir/Consent', token), await get(t, `/fhir/Consent/${'a'.repeat(32)}`, token),
      await post(t, posted(ANTON, ['Observation', 'DiagnosticReport']), token), await del(t, 'a'.repeat(32), token)]) {
      expect(outcomeOf(res, 403).code).toBe('forbidden');
    }
  });
});

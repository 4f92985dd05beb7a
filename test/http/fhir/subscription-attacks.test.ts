/**
 * THREATS 65–66 at the FHIR door (docs/fhir-api.md#subscriptions): a subscription is made only
 * for a patient the token reaches and the person may be told of, and only by its own person and app
 * is it seen, asked after or ended. A patient not reached is 403 with the body of any refused
 * delegation and nothing is kept; another person's or app's subscription is 404 exactly as one that
 * does not exist; a filter that is not one patient by Patient id is 400, never read as the launch
 * patient; no content leaves by `full-resource`; bodies are bounded and parsed without prototype keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_JSON_MESSAGES } from '../../../src/http/error-mapping.js';
import { isAttempt } from '../../../src/ports/audit-trail.port.js';
import { startTestApp, KEY, type TestApp } from '../../support/test-app.js';
import { ANTON, forgedLike, get, LILLA, MARTA, NOW, outcomeOf, pid, SARA, smartToken, TOLVAN } from './fhir-calls.js';
import { del, PATIENT_SCOPES, post, subscription, USER_SCOPES } from './subscription-calls.js';

describe('attacks on the Subscription door', () => {
  let t: TestApp;
  let tolvan: string;
  let marta: string;
  /** What any refused delegation answers (a FHIR read of a patient one may not act for). */
  let refusedBody: string;
  const kept = async (person: string, app = 'smart-app-1'): Promise<number> => (await t.subscriptions?.store.ofSubscriber(person, app))?.length ?? 0;

  beforeAll(async () => {
    t = await startTestApp({ now: NOW, subscriptions: true });
    tolvan = await smartToken(t, TOLVAN, PATIENT_SCOPES);
    marta = await smartToken(t, MARTA, USER_SCOPES);
    // Märta's guardianship of Anton expired when he turned 18.
    refusedBody = (await get(t, `/fhir/DiagnosticReport?patient=${pid(ANTON)}`, marta)).body;
    expect(outcomeOf(await get(t, `/fhir/DiagnosticReport?patient=${pid(ANTON)}`, marta), 403).code).toBe('forbidden');
  }, 60_000);
  afterAll(async () => t.close());

  it('refuses another patient named by patient= under patient/ scopes, as any refused delegation, and keeps nothing', async () => {
    const res = await post(t, subscription({ patient: MARTA }), tolvan);
    expect([res.statusCode, res.body]).toEqual([403, refusedBody]);
    expect(await kept(TOLVAN)).toBe(0);
    const record = t.audit.records.filter((r) => r.operation === 'subscribeLabResult').at(-1);
    expect([record?.patientId, record && 'status' in record ? record.status : undefined, record?.delegation]).toEqual([MARTA, 403, undefined]);
    // Märta may act for her daughter, but her patient/ scopes reach her own launch only.
    const ownLaunch = await smartToken(t, MARTA, PATIENT_SCOPES, { client_id: 'own-launch' });
    expect((await post(t, subscription({ patient: LILLA }), ownLaunch)).body).toBe(refusedBody);
    expect(await kept(MARTA, 'own-launch')).toBe(0);
  });

  it('lets a guardian subscribe to their child under user/ scopes, on the guardian\'s basis, and nobody else', async () => {
    const created = await post(t, subscription({ patient: LILLA }), marta);
    expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
    const records = t.audit.records.filter((r) => r.operation === 'subscribeLabResult' && r.patientId === LILLA && r.clientId === 'smart-app-1');
    expect(records.map((r) => [isAttempt(r) ? 'attempt' : 'outcome', r.delegation])).toEqual([['attempt', 'guardian'], ['outcome', 'guardian']]);
    // An expired guardianship, and a power of attorney over a protected identity: each as any refused delegation.
    for (const patient of [ANTON, SARA]) {
      const res = await post(t, subscription({ patient }), marta);
      expect([patient, res.statusCode, res.body]).toEqual([patient, 403, refusedBody]);
      const record = t.audit.records.filter((r) => r.operation === 'subscribeLabResult' && r.patientId === patient).at(-1);
      expect([patient, record !== undefined && isAttempt(record), record?.delegation]).toEqual([patient, false, undefined]);
    }
    expect(await kept(MARTA)).toBe(1);
    // Someone unrelated to the child, with user/ scopes.
    const unrelated = await post(t, subscription({ patient: LILLA }), await smartToken(t, TOLVAN, USER_SCOPES));
    expect([unrelated.statusCode, unrelated.body]).toEqual([403, refusedBody]);
    expect(await kept(TOLVAN)).toBe(0);
    // A launch for the child reaches the child with patient/ scopes, and no longer the guardian herself.
    const forLilla = await smartToken(t, MARTA, PATIENT_SCOPES, { smart_patient: pid(LILLA), client_id: 'lilla-app' });
    expect((await post(t, subscription({ patient: LILLA }), forLilla)).statusCode).toBe(201);
    expect((await post(t, subscription({ patient: MARTA }), forLilla)).body).toBe(refusedBody);
  });

  it('refuses a Patient id this service never made as it refuses a patient one may not act for, naming nobody', async () => {
    const res = await post(t, subscription({ filter: 'DiagnosticReport?patient=no-such-patient-0' }), tolvan);
    expect([res.statusCode, res.body]).toEqual([403, refusedBody]);
    const record = t.audit.records.at(-1);
    expect([record?.operation, record?.patientId]).toEqual(['subscribeLabResult', undefined]);
  });

  it('checks the right before the channel: a bad endpoint or header for a patient one may not read is 403, as for any id', async () => {
    // Were the channel checked first, 400 for a real Patient id and 403 for a made-up one would tell them
    // apart; user/ scopes reach any patient the person may act for, so only the right decides.
    const stranger = await smartToken(t, TOLVAN, USER_SCOPES, { client_id: 'stranger-app' });
    for (const bad of [{ endpoint: 'https://169.254.169.254/latest' }, { header: ['X-Evil: a\r\nHost: elsewhere'] }]) {
      for (const filter of [`DiagnosticReport?patient=${pid(MARTA)}`, 'DiagnosticReport?patient=no-such-patient-0']) {
        const res = await post(t, subscription({ ...bad, filter }), stranger);
        expect([filter, res.statusCode, res.body]).toEqual([filter, 403, refusedBody]);
      }
    }
    expect(await kept(TOLVAN, 'stranger-app')).toBe(0);
  });

  it('records a person whose right is gone, seeing or ending their own subscription, in their own log: never the patient\'s as refused', async () => {
    const own = await smartToken(t, MARTA, USER_SCOPES, { client_id: 'former-guardian-app' });
    const made = await post(t, subscription({ patient: LILLA }), own);
    const id = (JSON.parse(made.body) as { id: string }).id;
    // Her right to the patient ends: as if the subscription were for Anton, whose guardianship ended at 18.
    await t.subscriptions?.store.update(id, (s) => ({ subscription: { ...s, patient: ANTON } }));
    const records = (from: number) => t.audit.records.slice(from).filter((r) => r.clientId === 'former-guardian-app' && !isAttempt(r) && r.delegation !== 'service');
    const before = t.audit.records.length;
    expect((await get(t, `/fhir/Subscription/${id}`, own)).statusCode).toBe(200);
    expect((await get(t, `/fhir/Subscription/${id}/$status`, own)).statusCode).toBe(200);
    expect((await get(t, '/fhir/Subscription', own)).statusCode).toBe(200);
    expect((await del(t, id, own)).statusCode).toBe(200);
    const answered = records(before);
    expect(answered.map((r) => r.operation)).toEqual(['readSubscription', 'getSubscriptionStatus', 'searchSubscriptions', 'unsubscribeLabResult']);
    // Nothing of hers in Anton's log; each is Märta's own. The subscription's end, found by her read, is
    // the service's, in Anton's log as a poll would have put it.
    expect(answered.map((r) => [r.patientId, r.delegation])).toEqual(Array(4).fill([MARTA, 'self']));
    const ended = t.audit.records.slice(before).filter((r) => r.delegation === 'service');
    expect(ended.map((r) => [r.operation, r.patientId, r.actor?.personId])).toEqual([['unsubscribeLabResult', ANTON, undefined]]);
  });

  it('answers another person\'s or another app\'s subscription with 404 on every route, as one that does not exist, and ends none', async () => {
    const mine = await post(t, subscription({ topic: 'access' }), tolvan);
    const id = (JSON.parse(mine.body) as { id: string }).id;
    const otherApp = await smartToken(t, TOLVAN, PATIENT_SCOPES, { client_id: 'another-app' });
    const otherPerson = await smartToken(t, MARTA, `${USER_SCOPES} ${PATIENT_SCOPES}`);
    const nothing = 'f'.repeat(32);
    for (const token of [otherApp, otherPerson]) {
      for (const suffix of ['', '/$status', '/$events']) {
        const theirs = await get(t, `/fhir/Subscription/${id}${suffix}`, token);
        const none = await get(t, `/fhir/Subscription/${nothing}${suffix}`, token);
        expect([suffix, theirs.statusCode, theirs.body]).toEqual([suffix, 404, none.body]);
      }
      const theirs = await del(t, id, token);
      expect([theirs.statusCode, theirs.body]).toEqual([404, (await del(t, nothing, token)).body]);
    }
    expect((await get(t, `/fhir/Subscription/${id}`, tolvan)).statusCode).toBe(200);
    // A second DELETE of one already deleted is 404, and no second attempt is recorded.
    expect((await del(t, id, tolvan)).statusCode).toBe(200);
    const attempts = t.audit.records.filter((r) => r.operation === 'unsubscribeAccess' && isAttempt(r)).length;
    expect(outcomeOf(await del(t, id, tolvan), 404).code).toBe('not-found');
    expect(t.audit.records.filter((r) => r.operation === 'unsubscribeAccess' && isAttempt(r)).length).toBe(attempts);
  });

  // Hostile review helper-125, F1: `$events` asked only for the Subscription scope, so a token of the same person and
  // app scoped down to it was given the ids of the topic's records, which its scopes could not read. Failed before: 200.
  it('gives $events only to a token that may read the topic\'s type, as making the subscription does', async () => {
    const { id } = JSON.parse((await post(t, subscription({ topic: 'lab-result' }), tolvan)).body) as { id: string };
    const narrow = await smartToken(t, TOLVAN, 'patient/Subscription.rs');
    expect(outcomeOf(await get(t, `/fhir/Subscription/${id}/$events`, narrow), 403).code).toBe('forbidden');
    expect((await get(t, `/fhir/DiagnosticReport?patient=${pid(TOLVAN)}`, narrow)).statusCode).toBe(403);
    // What tells of no record stays open to it.
    expect((await get(t, `/fhir/Subscription/${id}/$status`, narrow)).statusCode).toBe(200);
    expect((await get(t, `/fhir/Subscription/${id}/$events`, tolvan)).statusCode).toBe(200);
  });

  it.each([
    ['two patients', `DiagnosticReport?patient=${pid(TOLVAN)}&patient=${pid(MARTA)}`],
    ['subject=', `DiagnosticReport?subject=Patient/${pid(TOLVAN)}`],
    ['patient:Patient=', `DiagnosticReport?patient:Patient=${pid(TOLVAN)}`],
    ['an identity number', `DiagnosticReport?patient=${TOLVAN}`],
    ['an identity number as a reference', `DiagnosticReport?patient=Patient/${TOLVAN}`],
    ['no patient at all', 'DiagnosticReport?'],
  ])('refuses a filter with %s as 400, never falling back to the launch patient', async (_what, filter) => {
    const before = await kept(TOLVAN);
    const issue = outcomeOf(await post(t, subscription({ filter }), tolvan), 400);
    expect(issue.diagnostics).toContain('backport-filter-criteria');
    expect(issue.diagnostics).not.toContain(TOLVAN);
    expect(await kept(TOLVAN)).toBe(before);
  });

  it('refuses a body of another media type, a form included, with 415 naming the two it takes, and keeps nothing', async () => {
    const before = await kept(TOLVAN);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const refused = outcomeOf(await post(t, subscription(), tolvan, '/fhir/Subscription', { 'content-type': type }), 415);
      // It said "must be application/json" (text/plain), or a form was read as the resource and refused as none (400).
      expect([type, refused.diagnostics]).toEqual([type, 'Content-Type must be application/fhir+json or application/json.']);
    }
    expect(await kept(TOLVAN)).toBe(before);
  });

  it('refuses full-resource, a header line with CR/LF, an oversized body and prototype keys', async () => {
    const before = await kept(TOLVAN);
    expect(outcomeOf(await post(t, subscription({ payload: 'full-resource' }), tolvan), 400).diagnostics).toContain('no record content leaves through a notification');
    expect(outcomeOf(await post(t, subscription({ header: ['Authorization: Bearer x\r\nX-Injected: 1'] }), tolvan), 400).diagnostics).toContain('Subscription.channel.header');
    expect(outcomeOf(await post(t, subscription({ reason: 'x'.repeat(20_000) }), tolvan), 413).code).toBe('too-costly');
    for (const body of [
      `{"__proto__": {"polluted": true}, ${JSON.stringify(subscription()).slice(1)}`,
      JSON.stringify(subscription()).replace('"channel":{', '"channel":{"__proto__":{"polluted":true},'),
      JSON.stringify(subscription()).replace('"channel":{', '"channel":{"constructor":{"prototype":{"polluted":true}},'),
      '{"resourceType": "Subscription",',
    ]) {
      expect(outcomeOf(await post(t, body, tolvan), 400).code).toBe('invalid');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await kept(TOLVAN)).toBe(before);
  });

  // Re-review helper-197, F2: a reason holding U+0000 was a 503 on the PostgreSQL store (which stores no NUL, nor
  // a lone surrogate in JSON), logged as a fault, and a 201 on the others. FHIR R4's string holds no control
  // character but tab, CR and LF (R4 §2.1.28 string), and is Unicode: never half of a surrogate pair.
  it('refuses a reason holding a NUL, another control character or a lone surrogate, naming it, and keeps nothing', async () => {
    const before = await kept(TOLVAN);
    for (const reason of ['Lab \u0000results', '\u0000', 'Lab \u001b[31m', 'Lab \ud83d', '\ude00 lab', 'Lab \u007f']) {
      const res = await post(t, subscription({ reason }), tolvan);
      expect([JSON.stringify(reason), outcomeOf(res, 400).diagnostics]).toEqual([JSON.stringify(reason),
        'Subscription.reason must be text of 1 to 1000 characters, without control characters (but tab and line breaks) or half of a surrogate pair, or left out.']);
    }
    expect(await kept(TOLVAN)).toBe(before);
    const taken = await post(t, subscription({ reason: 'Lab results\tof the week \u{1F600}\r\nand more' }), tolvan);
    expect([taken.statusCode, taken.json<{ reason?: string }>().reason]).toEqual([201, 'Lab results\tof the week \u{1F600}\r\nand more']);
    expect((await del(t, taken.json<{ id: string }>().id, tolvan)).statusCode).toBe(200);
  });

  it('refuses a DELETE with a body, and ends nothing (hostile review)', async () => {
    const made = await post(t, subscription(), tolvan);
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json<{ id: string }>();
    const res = await t.call({ method: 'DELETE', url: `/fhir/Subscription/${id}`, key: null, token: tolvan, headers: { 'content-type': 'application/fhir+json' }, payload: '{}' });
    expect(outcomeOf(res, 400).diagnostics).toBe('DELETE /fhir/Subscription/{id} takes no body: send none.');
    // Hostile review helper-141, F3: a body that is no JSON at all named the COS door's /openapi.json.
    for (const type of ['application/fhir+json', 'application/json']) {
      for (const payload of ['{"status":', 'not json']) {
        const malformed = await t.call({ method: 'DELETE', url: `/fhir/Subscription/${id}`, key: null, token: tolvan, headers: { 'content-type': type }, payload });
        const said = outcomeOf(malformed, 400).diagnostics;
        expect([type, payload, said.includes('openapi'), said]).toEqual([type, payload, false, INVALID_JSON_MESSAGES.fhir]);
      }
    }
    expect((await get(t, `/fhir/Subscription/${id}`, tolvan)).json<{ status: string }>().status).not.toBe('off');
    expect((await del(t, id, tolvan)).statusCode).toBe(200);
  });

  // Hostile review (helper-71): a modifier extension anywhere but the resource and its channel, and
  // implicitRules, were passed over (201), where FHIR R4 §2.4.1 forbids ignoring a modifier and the
  // Consent refuses one wherever it sits.
  it('refuses a modifier extension wherever it sits, and implicitRules, naming where, and keeps nothing', async () => {
    const before = await kept(TOLVAN);
    const modifier = [{ url: 'http://example.org/not', valueBoolean: true }];
    const base = subscription();
    const criteria = base._criteria as { extension: Record<string, unknown>[] };
    const channel = base.channel as Record<string, unknown> & { _payload: { extension: Record<string, unknown>[] } };
    for (const [body, path] of [
      [{ ...base, _criteria: { ...criteria, modifierExtension: modifier } }, 'Subscription._criteria.modifierExtension'],
      [{ ...base, _criteria: { extension: [{ ...criteria.extension[0], modifierExtension: modifier }] } }, 'Subscription._criteria.extension[0].modifierExtension'],
      [{ ...base, channel: { ...channel, _payload: { ...channel._payload, modifierExtension: modifier } } }, 'Subscription.channel._payload.modifierExtension'],
      [{ ...base, channel: { ...channel, _endpoint: { modifierExtension: modifier } } }, 'Subscription.channel._endpoint.modifierExtension'],
      [{ ...base, meta: { tag: [{ code: 'x', modifierExtension: modifier }] } }, 'Subscription.meta.tag[0].modifierExtension'],
    ] as const) {
      expect([path, outcomeOf(await post(t, body, tolvan), 400).diagnostics]).toEqual([path, `${path} is not understood here: leave it out.`]);
    }
    expect(outcomeOf(await post(t, { ...base, implicitRules: 'http://example.org/rules' }, tolvan), 400).diagnostics)
      .toBe('Subscription.implicitRules is not understood here: leave it out.');
    // Its primitive's extensions too (hostile review helper-72: passed over).
    const absent = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] };
    expect(outcomeOf(await post(t, { ...base, _implicitRules: absent }, tolvan), 400).diagnostics)
      .toBe('Subscription.implicitRules is not understood here: leave it out.');
    expect(await kept(TOLVAN)).toBe(before);
  });

  // A member R4's Subscription does not have was passed over: `ends` for `end` kept a subscription
  // without its end, telling the person's app past when they wanted it to stop.
  it('refuses a member R4\'s Subscription or its channel has not, naming it, and keeps nothing; takes every one it has', async () => {
    const before = await kept(TOLVAN);
    const base = subscription();
    const channel = base.channel as Record<string, unknown>;
    for (const [body, path] of [
      [{ ...base, ends: '2027-01-01T00:00:00Z' }, 'Subscription.ends'],
      [{ ...base, channel: { ...channel, headers: ['X-Token: a'] } }, 'Subscription.channel.headers'],
      [{ ...base, channel: { ...channel, endpoints: ['https://elsewhere.example/'] } }, 'Subscription.channel.endpoints'],
    ] as const) {
      expect([path, outcomeOf(await post(t, body, tolvan), 400).diagnostics]).toEqual([path, `${path} is not a member of an R4 Subscription this service reads: leave it out, or spell it as FHIR R4 does.`]);
    }
    expect(await kept(TOLVAN)).toBe(before);
    const whole = {
      ...base, id: 'mine', meta: { profile: ['http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription'] }, language: 'sv',
      text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml">Labbsvar</div>' }, contact: [{ system: 'email', value: 'a@example.org' }],
      _reason: { extension: [] }, extension: [], channel: { ...channel, id: 'c', _endpoint: { extension: [] } },
    };
    const made = await post(t, whole, tolvan);
    expect(made.statusCode, made.body).toBe(201);
    expect((await del(t, made.json<{ id: string }>().id, tolvan)).statusCode).toBe(200);
  });

  it('is a person\'s: a client token is 403, a token naming no app is 401, a wildcard or a restricted read does not reach it', async () => {
    const client = await t.clientToken({ scope: 'system/*.read system/Subscription.cruds' });
    expect(outcomeOf(await post(t, subscription(), client), 403).diagnostics).toContain('a person');
    expect(outcomeOf(await get(t, '/fhir/Subscription', client), 403).code).toBe('forbidden');
    const noApp = await t.personToken(TOLVAN, { scope: PATIENT_SCOPES });
    const res = await t.call({ method: 'POST', url: '/fhir/Subscription', key: KEY, token: noApp, headers: { 'content-type': 'application/fhir+json' }, payload: JSON.stringify(subscription()) });
    expect(outcomeOf(res, 401).code).toBe('login');
    for (const [scope, wanted] of [
      ['patient/*.read patient/*.cruds', 'patient/Subscription.c'],
      ['patient/Subscription.c patient/Observation.rs', 'patient/DiagnosticReport.r'],
      ['patient/Subscription.c patient/DiagnosticReport.rs?category=LAB', 'patient/DiagnosticReport.r'],
      ['patient/Subscription.rs patient/*.rs', 'patient/Subscription.c'],
    ] as const) {
      const refused = await post(t, subscription(), await smartToken(t, TOLVAN, scope));
      expect([scope, outcomeOf(refused, 403).diagnostics]).toEqual([scope, expect.stringContaining(wanted)]);
      expect(refused.headers['www-authenticate']).toContain('insufficient_scope');
    }
    expect(outcomeOf(await get(t, '/fhir/Subscription', await smartToken(t, TOLVAN, 'patient/*.read')), 403).diagnostics).toContain('Subscription.s');
  });
});

describe('a parameter naming a patient on the Subscription door', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, subscriptions: true });
  }, 60_000);
  afterAll(async () => t.close());

  // Hostile review (helper-76): the Subscription routes passed over `patient`, `subject` and identity
  // numbers (200 with every subscription of the caller's), where every other FHIR route refuses a
  // parameter naming a patient it does not serve (threat 57) rather than answer as if it had been heeded.
  it('refuses one with 400 on every route, as every FHIR route does, and still passes over one naming nobody', async () => {
    const tolvan = await smartToken(t, TOLVAN, PATIENT_SCOPES);
    const made = await post(t, subscription(), tolvan);
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json<{ id: string }>();
    const paths = ['/fhir/Subscription', `/fhir/Subscription/${id}`, `/fhir/Subscription/${id}/$status`, `/fhir/Subscription/${id}/$events`];
    const naming = [`patient=${pid(LILLA)}`, `subject=Patient/${pid(LILLA)}`, `patient:Patient=${pid(LILLA)}`, `owner=${LILLA}`, '_has:Observation:patient:code=x'];
    for (const path of paths) {
      for (const query of naming) {
        const res = await get(t, `${path}?${query}`, tolvan);
        expect([path, query, res.statusCode]).toEqual([path, query, 400]);
        const { diagnostics } = outcomeOf(res, 400);
        expect(diagnostics).toMatch(/names a patient in a way this API does not serve on Subscription/);
        // Hostile review helper-209, F2: it told the app to send `patient=Patient/<id>`, which these routes refuse too.
        expect([path, query, diagnostics.includes('patient=Patient/<id> alone'), diagnostics.includes('_criteria')]).toEqual([path, query, false, true]);
      }
      expect([path, (await get(t, `${path}?color=blue`, tolvan)).statusCode]).toEqual([path, 200]);
      // By its form: a forged id of that form is refused as a genuine one, or the answer would tell them apart.
      const genuine = pid(LILLA);
      for (const id of [genuine, forgedLike(genuine)]) {
        expect([path, id, outcomeOf(await get(t, `${path}?color=${id}`, tolvan), 400).diagnostics]).toEqual([path, id, expect.stringMatching(/names a patient/)]);
      }
    }
  });

  // Hostile review (helper-78, F1): a refusal made before the route found the subscription was recorded
  // under the token's launch patient: Märta's app opened on Lilla put refusals about Märta's own
  // subscription in Lilla's log. A subscription is the caller's own: such a refusal is theirs.
  it('records a refusal made before the subscription was found as the caller\'s own, whatever app launch it came from', async () => {
    const onLilla = await smartToken(t, MARTA, USER_SCOPES, { smart_patient: pid(LILLA) });
    const made = await post(t, subscription({ patient: MARTA }), onLilla);
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json<{ id: string }>();
    const before = t.audit.records.length;
    outcomeOf(await get(t, `/fhir/Subscription/${id}/$events?eventsSinceNumber=x`, onLilla), 400);
    outcomeOf(await get(t, '/fhir/Subscription?color=blue', onLilla, { prefer: 'handling=strict' }), 400);
    expect(t.audit.records.slice(before).map((r) => [r.status, r.patientId, r.delegation])).toEqual([[400, MARTA, 'self'], [400, MARTA, 'self']]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAttempt } from '../../src/ports/audit-trail.port.js';
import { GatedAuditTrail } from './support/gated-audit-trail.js';
import type { LightMyRequestResponse } from 'fastify';
import { startTestAppOn, TEST_PUBLIC_BASE_URL, type AnyTestApp } from '../support/test-app.js';
import { SUBSCRIPTION_TEST_ENDPOINT } from '../support/subscription-wiring.js';
import { overBothEhrs, STEADY } from './support/runs.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO } from './support/oracles.js';
import { APP, expectFhirAnswer, issueOf, pid } from './support/fhir-routes.js';

/**
 * THREATS 31, 33 and 34 on the FHIR door's Subscriptions (docs/fhir-api.md#subscriptions): every
 * Subscription route is audited before its answer leaves, a creation and a deletion also as an attempt
 * before anything is kept or ended; with the audit store down nothing is answered but 503 `transient`,
 * nothing is kept and nothing ended; each request leaves one outcome record naming who, for whom and
 * what; no log line holds a token or an identity number, even one typed into a filter.
 */

const SD = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';
const SCOPES = 'patient/Subscription.cd patient/Subscription.rs patient/*.rs';
const used = new UsedSecrets();
used.identity(DEMO.TOLVAN);

const subscription = (filter = `AuditEvent?patient=${pid(DEMO.TOLVAN)}`): string => JSON.stringify({
  resourceType: 'Subscription', reason: 'Who reads my record', criteria: `${TEST_PUBLIC_BASE_URL}/fhir/SubscriptionTopic/access`,
  _criteria: { extension: [{ url: `${SD}/backport-filter-criteria`, valueString: filter }] },
  channel: {
    type: 'rest-hook', endpoint: `${SUBSCRIPTION_TEST_ENDPOINT}hook`, payload: 'application/fhir+json',
    _payload: { extension: [{ url: `${SD}/backport-payload-content`, valueCode: 'empty' }] },
  },
});

overBothEhrs((variant) => {
  describe('every Subscription route is audited before it answers', () => {
    let t: AnyTestApp;
    let token: string;
    let id: string;
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: string): Promise<LightMyRequestResponse> => t.call({
      method, url, key: null, token, ...(body === undefined ? {} : { payload: body, headers: { 'content-type': 'application/fhir+json' } }),
    });
    const kept = async (): Promise<string[]> => ((await t.subscriptions?.store.ofSubscriber(DEMO.TOLVAN, APP)) ?? []).map((s) => s.id);

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      token = used.token(await t.personToken(DEMO.TOLVAN, { client_id: APP, scope: SCOPES }));
      const created = await call('POST', '/fhir/Subscription', subscription());
      expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
      id = (JSON.parse(created.body) as { id: string }).id;
    }, 60_000);
    afterAll(async () => t.close());

    const reads = (): [string, string][] => [
      ['searchSubscriptions', '/fhir/Subscription'], ['readSubscription', `/fhir/Subscription/${id}`],
      ['getSubscriptionStatus', `/fhir/Subscription/${id}/$status`], ['getSubscriptionEvents', `/api/open/fhir/Subscription/${id}/$events`],
    ];

    it('answers 503 transient and nothing of a subscription on every route with the store down, keeping and ending nothing', async () => {
      const before = await kept();
      t.audit.mode = 'fail';
      try {
        for (const [label, res] of [
          ...await Promise.all(reads().map(async ([op, url]) => [op, await call('GET', url)] as const)),
          ['create', await call('POST', '/fhir/Subscription', subscription())] as const,
          ['delete', await call('DELETE', `/fhir/Subscription/${id}`)] as const,
        ]) {
          expectFhirAnswer(undefined, res, label, { allowed: [503] });
          expect([label, issueOf(res).code, res.body.includes(id), res.body.includes(SUBSCRIPTION_TEST_ENDPOINT)]).toEqual([label, 'transient', false, false]);
        }
      } finally {
        t.audit.mode = 'ok';
      }
      // The attempt alone refused: no creation kept, no deletion made.
      t.audit.refuse = isAttempt;
      try {
        expect((await call('POST', '/fhir/Subscription', subscription())).statusCode).toBe(503);
        expect((await call('DELETE', `/fhir/Subscription/${id}`)).statusCode).toBe(503);
      } finally {
        t.audit.refuse = undefined;
      }
      expect(await kept()).toEqual(before);
    });

    it('leaves one outcome record per request naming who, for whom, the operation and the outcome; a creation and a deletion an attempt first', async () => {
      for (const [operation, url] of reads()) {
        const from = t.audit.records.length;
        expect((await call('GET', url)).statusCode).toBe(200);
        const records = t.audit.records.slice(from);
        expect(records.map((r) => [r.operation, isAttempt(r), r.actor?.personId, r.patientId, r.delegation, r.clientId, r.status]))
          .toEqual([[operation, false, DEMO.TOLVAN, DEMO.TOLVAN, 'self', APP, 200]]);
      }
      const from = t.audit.records.length;
      const refused = await call('POST', '/fhir/Subscription', subscription(`AuditEvent?patient=${pid(DEMO.LILLA)}`));
      expect(refused.statusCode).toBe(403);
      const created = await call('POST', '/fhir/Subscription', subscription());
      const newId = (JSON.parse(created.body) as { id: string }).id;
      expect((await call('DELETE', `/fhir/Subscription/${newId}`)).statusCode).toBe(200);
      expect(t.audit.records.slice(from).map((r) => [r.operation, isAttempt(r), r.patientId, r.status])).toEqual([
        ['subscribeAccess', false, DEMO.LILLA, 403],
        ['subscribeAccess', true, DEMO.TOLVAN, undefined], ['subscribeAccess', false, DEMO.TOLVAN, 201],
        ['unsubscribeAccess', true, DEMO.TOLVAN, undefined], ['unsubscribeAccess', false, DEMO.TOLVAN, 200],
      ]);
    });

    it('holds every answer until its record is stored, a creation and a deletion until their attempt is stored too', async () => {
      const gate = new GatedAuditTrail();
      gate.passThrough = false;
      const gated = await startTestAppOn(variant, { ...STEADY, auditTrail: gate, now: t.clock.now() });
      try {
        const gatedToken = used.token(await gated.personToken(DEMO.TOLVAN, { client_id: APP, scope: SCOPES }));
        const send = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: string) => gated.call({
          method, url, key: null, token: gatedToken, ...(body === undefined ? {} : { payload: body, headers: { 'content-type': 'application/fhir+json' } }),
        });
        const held = async (label: string, pending: Promise<LightMyRequestResponse>, writes: number): Promise<LightMyRequestResponse> => {
          let answered = false;
          const res = pending.then((r) => {
            answered = true;
            return r;
          });
          for (let w = 0; w < writes; w++) {
            await gate.writeWaiting();
            expect([label, w, answered]).toEqual([label, w, false]);
            gate.releaseOne();
          }
          return res;
        };
        const created = await held('create', send('POST', '/fhir/Subscription', subscription()), 2);
        expect(created.statusCode).toBe(201);
        const newId = (JSON.parse(created.body) as { id: string }).id;
        for (const url of ['/fhir/Subscription', `/fhir/Subscription/${newId}`, `/fhir/Subscription/${newId}/$status`, `/fhir/Subscription/${newId}/$events`]) {
          expect((await held(url, send('GET', url), 1)).statusCode).toBe(200);
        }
        expect((await held('delete', send('DELETE', `/fhir/Subscription/${newId}`), 2)).statusCode).toBe(200);
        expect(gate.records.filter(isAttempt).map((r) => r.operation)).toEqual(['subscribeAccess', 'unsubscribeAccess']);
      } finally {
        await gated.close();
      }
    });

    it('writes no token and no identity number to the log, even one typed into a filter, and one JSON object a line', async () => {
      for (const filter of [`AuditEvent?patient=${DEMO.TOLVAN}`, `AuditEvent?patient=Patient/${DEMO.TOLVAN.slice(0, 8)}-${DEMO.TOLVAN.slice(8)}`]) {
        const res = await call('POST', '/fhir/Subscription', subscription(filter));
        expect([res.statusCode, res.body.includes(DEMO.TOLVAN.slice(2))]).toEqual([400, false]);
      }
      expect(malformedLogLines(t.logLines)).toEqual([]);
      expect(used.foundIn(t.logLines)).toEqual([]);
    });
  });
});

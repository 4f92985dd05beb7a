/**
 * Issue 54: every answer of the service's Subscriptions, judged by the Subscriptions Backport IG's own R4
 * profiles (test/support/backport-profiles.ts): a Subscription as created, read and searched; the
 * handshake, heartbeat and event notifications a receiver gets, `id-only` and `empty`; `$status`'s
 * Parameters; `$events`' Bundle; and the CapabilityStatement's topics. The demo service, composed as
 * `npm start` composes it, with a change made in the demo EHR's documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLateLabReport } from '../../src/dev/notifications-demo/late-lab-report.js';
import { backportProblems, type PayloadContent } from '../support/backport-profiles.js';
import { startNotificationService, subscriptionBody, type FhirJson, type NotificationService } from '../support/notification-service.js';
import { receiver, status, type Receiver } from '../support/notification-receivers.js';
import { pollUntil } from '../support/poll.js';

const TOLVAN = '191212121212';
const typeOf = (body: string): string => (JSON.parse(body) as FhirJson).entry?.[0]?.resource?.parameter?.find((p: { name: string }) => p.name === 'type')?.valueCode as string;

describe('the service\'s Subscription answers, by the backport\'s R4 profiles', () => {
  let svc: NotificationService;
  let token: string;
  let patient: string;
  const sinks: Record<PayloadContent, Receiver | undefined> = { empty: undefined, 'id-only': undefined, 'full-resource': undefined };
  const made: Partial<Record<PayloadContent, FhirJson>> = {};

  beforeAll(async () => {
    svc = await startNotificationService();
    patient = await svc.patientId(TOLVAN);
    token = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/DiagnosticReport.rs']);
    for (const content of ['empty', 'id-only'] as const) {
      const sink = await receiver(status(200));
      sinks[content] = sink;
      const body = subscriptionBody(svc.api, 'lab-result', 'DiagnosticReport', patient, sink.url, { payload: content, heartbeat: 10 });
      const res = await svc.fhir(token, 'Subscription', { method: 'POST', body });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      made[content] = res.json;
    }
    await addLateLabReport(svc.ehrDir, TOLVAN, svc.clock.now(), 'Europe/Stockholm');
    for (const sink of [sinks.empty, sinks['id-only']]) {
      await pollUntil(async () => sink?.received.map((r) => typeOf(r.body)) ?? [], (t) => t.includes('event-notification') && t.includes('heartbeat'), 30_000);
    }
  }, 90_000);

  afterAll(async () => {
    for (const sink of Object.values(sinks)) await sink?.close();
    await svc?.close();
  });

  it('a Subscription as created, read back and searched', async () => {
    for (const content of ['empty', 'id-only'] as const) {
      const created = made[content] as FhirJson;
      expect(backportProblems(created, 'backport-subscription')).toEqual([]);
      const read = await svc.fhir(token, `Subscription/${String(created.id)}`);
      expect(backportProblems(read.json, 'backport-subscription')).toEqual([]);
    }
    const search = await svc.fhir(token, 'Subscription');
    expect(search.json.entry.length).toBeGreaterThanOrEqual(2);
    for (const e of search.json.entry as { resource: FhirJson }[]) expect(backportProblems(e.resource, 'backport-subscription')).toEqual([]);
  });

  it('every notification a receiver got: the handshake, heartbeats and events, for its payload content', () => {
    for (const content of ['empty', 'id-only'] as const) {
      const got = sinks[content]?.received ?? [];
      expect(new Set(got.map((r) => typeOf(r.body)))).toEqual(new Set(['handshake', 'heartbeat', 'event-notification']));
      for (const r of got) expect(backportProblems(JSON.parse(r.body) as object, 'backport-subscription-notification-r4', { content }), typeOf(r.body)).toEqual([]);
    }
  });

  it('$status\'s Parameters and $events\' Bundle', async () => {
    for (const content of ['empty', 'id-only'] as const) {
      const id = String(made[content]?.id);
      const state = await svc.fhir(token, `Subscription/${id}/$status`);
      expect(state.status).toBe(200);
      for (const e of state.json.entry as { resource: FhirJson }[]) expect(backportProblems(e.resource, 'backport-subscription-status-r4')).toEqual([]);
      const events = await svc.fhir(token, `Subscription/${id}/$events?eventsSinceNumber=1`);
      expect(events.status).toBe(200);
      expect(backportProblems(events.json, 'backport-subscription-notification-r4', { content })).toEqual([]);
    }
  });

  it('the CapabilityStatement\'s topics', async () => {
    const metadata = await (await fetch(`${svc.api}/fhir/metadata`)).json() as FhirJson;
    const subscription = (metadata.rest[0].resource as FhirJson[]).find((r) => r.type === 'Subscription') as FhirJson;
    expect(subscription.extension.length).toBeGreaterThan(0);
    for (const ext of subscription.extension as object[]) expect(backportProblems(ext, 'capabilitystatement-subscriptiontopic-canonical')).toEqual([]);
  });
});

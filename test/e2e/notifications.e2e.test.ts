/**
 * Issue 54, as a receiver sees it (docs/notifications.md): the demo service composed as `npm start`
 * composes it, changes made in the demo EHR's documents, and loopback receivers of the test's own.
 * A new lab result, a moved appointment and a guardian's read each arrive as numbered events; a note
 * held by the signing delay only once released; a guardian whose registry row ends is told nothing
 * more; a failing receiver is retried with backoff while another is served; a redirect is not followed;
 * a restart loses and repeats no event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLateLabReport } from '../../src/dev/notifications-demo/late-lab-report.js';
import { backoffMs } from '../../src/domain/notifications/lifecycle.js';
import { readNotification, type Received as Notification } from '../../src/dev/notifications-demo/receiver.js';
import { addSignedNote, correctFirstNegativeResult, endRelationship, moveFirstBooking } from '../support/demo-ehr-changes.js';
import { startNotificationService, subscriptionBody, type NotificationService } from '../support/notification-service.js';
import { receiver, status, type Receiver } from '../support/notification-receivers.js';
import { pollUntil } from '../support/poll.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const LILLA = '201701012393';
const DAY_MS = 86_400_000;
const WAIT_MS = 15_000;

const notificationsAt = (r: Receiver): Notification[] => r.received.map((x) => readNotification(x.body));
const events = (r: Receiver): string[] => notificationsAt(r).filter((n) => n.type === 'event-notification').flatMap((n) => n.events.map((e) => `${e.number} ${e.focus ?? ''}`));
const typesAt = (r: Receiver): string[] => notificationsAt(r).map((n) => n.type);
const until = (r: Receiver, done: (x: Receiver) => boolean): Promise<Receiver> => pollUntil(async () => r, done, WAIT_MS);

describe('notifications, end to end (issue 54)', () => {
  let svc: NotificationService;
  const receivers: Receiver[] = [];
  const listen = async (answer = status(200)): Promise<Receiver> => {
    const r = await receiver(answer);
    receivers.push(r);
    return r;
  };
  // Each person's Patient id, found before any test's token: a person's new sign-in through the same app
  // replaces their earlier grant (docs/sign-in.md), and a token of the replaced one stops working.
  const ids = new Map<string, string>();
  /** Subscribes `person` (their token with `scopes`) to `topic` of `patient`, to `endpoint`; answers the Subscription's id. */
  const subscribe = async (token: string, topic: string, type: string, patient: string, endpoint: string): Promise<string> => {
    const made = await svc.fhir(token, 'Subscription', { method: 'POST', body: subscriptionBody(svc.api, topic, type, ids.get(patient) ?? '', endpoint) });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    return String(made.json.id);
  };
  const statusOf = async (token: string, id: string): Promise<string | undefined> =>
    (await svc.fhir(token, `Subscription/${id}`)).json.status as string | undefined;

  beforeAll(async () => {
    svc = await startNotificationService();
    for (const person of [TOLVAN, LILLA]) ids.set(person, await svc.patientId(person));
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await svc?.close();
  });

  it('a new lab result, then a moved appointment, each arrive as numbered events naming what changed, after the handshake', async () => {
    const tolvan = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/DiagnosticReport.rs', 'patient/Appointment.rs']);
    const labs = await listen();
    const bookings = await listen();
    await subscribe(tolvan, 'lab-result', 'DiagnosticReport', TOLVAN, `${labs.url}/labs`);
    await subscribe(tolvan, 'appointment', 'Appointment', TOLVAN, `${bookings.url}/bookings`);
    await until(labs, (r) => r.received.length >= 1);
    expect(typesAt(labs)).toEqual(['handshake']);
    // What existed when the subscriptions were made is their baseline: nothing more comes of it.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(typesAt(labs)).toEqual(['handshake']);

    await addLateLabReport(svc.ehrDir, TOLVAN, svc.clock.now(), 'Europe/Stockholm');
    await until(labs, (r) => events(r).length >= 1);
    expect(events(labs)).toEqual([expect.stringMatching(/^1 http:\/\/127\.0\.0\.1:\d+\/fhir\/DiagnosticReport\/[A-Za-z0-9.-]+$/)]);
    const contact = await moveFirstBooking(svc.ehrDir, TOLVAN);
    await until(bookings, (r) => events(r).length >= 1);
    expect(events(bookings)).toEqual([expect.stringMatching(/^1 .*\/fhir\/Appointment\/.+$/)]);
    expect(contact).not.toBe('');
    // The focus reads back with the subscriber's own token, checked again by the FHIR API.
    const focus = events(labs)[0]?.split(' ')[1] ?? '';
    const read = await svc.fhir(tolvan, focus.slice(focus.indexOf('/fhir/') + 6));
    expect([read.status, read.json.resourceType]).toEqual([200, 'DiagnosticReport']);
    // Each notification is a POST of application/fhir+json to the endpoint given.
    expect(labs.received.every((x) => x.method === 'POST' && x.url === '/labs' && String(x.headers['content-type']).startsWith('application/fhir+json'))).toBe(true);
  }, 60_000);

  it('a guardian\'s read of a child\'s record arrives at the child\'s access subscription; the child\'s own read does not', async () => {
    const lilla = await svc.token(LILLA, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/AuditEvent.rs', 'patient/Appointment.rs']);
    const log = await listen();
    await subscribe(lilla, 'access', 'AuditEvent', LILLA, log.url);
    await until(log, (r) => r.received.length >= 1);
    const lillaId = ids.get(LILLA) ?? '';
    expect((await svc.fhir(lilla, `Appointment?patient=${lillaId}`)).status).toBe(200);
    const marta = await svc.token(MARTA, ['user/Appointment.rs']);
    expect((await svc.fhir(marta, `Appointment?patient=${lillaId}`)).status).toBe(200);
    await until(log, (r) => events(r).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(events(log)).toEqual([expect.stringMatching(/^1 .*\/fhir\/AuditEvent\/.+$/)]);
  }, 60_000);

  it('a guardian whose registry row ends is told nothing more, and the subscription is off', async () => {
    const marta = await svc.token(MARTA, ['user/Subscription.write', 'user/Subscription.read', 'user/Appointment.rs']);
    const bookings = await listen();
    const id = await subscribe(marta, 'appointment', 'Appointment', LILLA, bookings.url);
    await until(bookings, (r) => r.received.length >= 1);
    expect(await statusOf(marta, id)).toBe('active');
    await endRelationship(svc.ehrDir, MARTA, LILLA);
    await moveFirstBooking(svc.ehrDir, LILLA);
    const off = await pollUntil(() => statusOf(marta, id), (s) => s === 'off', WAIT_MS);
    expect(off).toBe('off');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(events(bookings)).toEqual([]);
  }, 60_000);
  it('signing in again through the same app keeps a subscription: its grant was replaced, not revoked', async () => {
    const scopes = ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/DiagnosticReport.rs'];
    const before = await svc.token(TOLVAN, scopes);
    const labs = await listen();
    const id = await subscribe(before, 'lab-result', 'DiagnosticReport', TOLVAN, labs.url);
    await until(labs, (r) => r.received.length >= 1);
    // A new consent of the same person, app and pick ends the earlier grant and its tokens (docs/sign-in.md).
    const after = await svc.token(TOLVAN, scopes);
    expect((await svc.fhir(before, `Subscription/${id}`)).status).toBe(401);
    await addLateLabReport(svc.ehrDir, TOLVAN, svc.clock.now(), 'Europe/Stockholm');
    await until(labs, (r) => events(r).length >= 1);
    expect(await statusOf(after, id)).toBe('active');
  }, 60_000);

  // Hostile review (helper-77): a new consent with fewer scopes replaced the grant, and the subscription
  // made under the wider one went on telling the app what it could no longer read.
  it('signing in again with scopes that no longer reach the topic ends the subscription: nothing more is told', async () => {
    const wide = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/DiagnosticReport.rs']);
    const labs = await listen();
    const id = await subscribe(wide, 'lab-result', 'DiagnosticReport', TOLVAN, labs.url);
    await until(labs, (r) => r.received.length >= 1);
    const narrow = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs']);
    expect((await svc.fhir(narrow, `DiagnosticReport?patient=${ids.get(TOLVAN) ?? ''}`)).status).toBe(403);
    await addLateLabReport(svc.ehrDir, TOLVAN, svc.clock.now(), 'Europe/Stockholm');
    const off = await pollUntil(() => statusOf(narrow, id), (s) => s === 'off', WAIT_MS);
    expect(off).toBe('off');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(events(labs)).toEqual([]);
  }, 60_000);

  // Hostile review helper-100, F1: an app whose scopes read lab reports and not their results was told a report
  // changed when only a result behind it was corrected: a change of a record it may not read.
  it('a result corrected behind a report is no change to an app whose scopes read no results', async () => {
    const reportsOnly = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/DiagnosticReport.rs']);
    expect((await svc.fhir(reportsOnly, `Observation?patient=${ids.get(TOLVAN) ?? ''}`)).status).toBe(403);
    const existing = ((await svc.fhir(reportsOnly, 'DiagnosticReport?_count=500')).json.entry as { resource: { id: string } }[]).map((e) => e.resource.id);
    const labs = await listen();
    await subscribe(reportsOnly, 'lab-result', 'DiagnosticReport', TOLVAN, labs.url);
    await until(labs, (r) => r.received.length >= 1);
    await correctFirstNegativeResult(svc.ehrDir, TOLVAN);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // A change it may see, after it: the only one told.
    await addLateLabReport(svc.ehrDir, TOLVAN, svc.clock.now(), 'Europe/Stockholm');
    await until(labs, (r) => events(r).length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const told = events(labs).map((e) => e.slice(e.lastIndexOf('/') + 1));
    expect(told).toHaveLength(1);
    expect(existing).not.toContain(told[0]);
  }, 60_000);

  it('a note held back by the signing delay is told only once released', async () => {
    const tolvan = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/Composition.rs']);
    const notes = await listen();
    await subscribe(tolvan, 'journal-note', 'Composition', TOLVAN, notes.url);
    await until(notes, (r) => r.received.length >= 1);
    const note = await addSignedNote(svc.ehrDir, TOLVAN, svc.clock.now());
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(events(notes)).toEqual([]);
    // The example release policy's signing delay is 14 days. (Last in this service: its tokens' times do not move with it.)
    svc.clock.shift(14 * DAY_MS + 60_000);
    await until(notes, (r) => events(r).some((e) => e.endsWith(`/Composition/${note}`)));
    // Told once, and numbered after any note the same delay held back when the subscription was made.
    expect(events(notes).filter((e) => e.endsWith(`/Composition/${note}`))).toHaveLength(1);
    expect(events(notes).map((e) => Number(e.split(' ')[0]))).toEqual(events(notes).map((_e, i) => i + 1));
  }, 60_000);

});

describe('delivery to receivers that fail (issue 54)', () => {
  let svc: NotificationService;
  const receivers: Receiver[] = [];
  /** Deliveries the service has counted as refused by their endpoint (its /metrics). */
  const refusals = async (): Promise<number> => {
    const metrics = (await svc.runtime.metricsApp.inject({ method: 'GET', url: '/metrics' })).body;
    return Number(/^pdas_subscription_deliveries_total\{outcome="refused"\} (\d+)$/m.exec(metrics)?.[1] ?? Number.NaN);
  };
  beforeAll(async () => {
    svc = await startNotificationService();
  }, 60_000);
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await svc?.close();
  });

  it('retries a receiver answering 500 with backoff, while another receiver is told at once; a redirect is never followed', async () => {
    const patient = await svc.patientId(TOLVAN);
    const tolvan = await svc.token(TOLVAN, ['patient/Subscription.cruds', 'patient/Patient.rs', 'patient/DiagnosticReport.rs']);
    let failing = false;
    const flaky = await receiver((_req, res) => res.writeHead(failing ? 500 : 200).end());
    const steady = await receiver(status(200));
    const target = await receiver(status(200));
    const redirecting = await receiver(status(307, { location: `${target.url}/elsewhere` }));
    receivers.push(flaky, steady, target, redirecting);
    const post = (endpoint: string) => svc.fhir(tolvan, 'Subscription', { method: 'POST', body: subscriptionBody(svc.api, 'lab-result', 'DiagnosticReport', patient, endpoint) });
    expect((await post(flaky.url)).status).toBe(201);
    expect((await post(steady.url)).status).toBe(201);
    const redirected = await post(redirecting.url);
    expect(redirected.status).toBe(201);
    await until(flaky, (r) => r.received.length >= 1);
    await until(steady, (r) => r.received.length >= 1);
    // The handshake answered 307: not followed, so the subscription is error and nothing reached the target.
    expect(await pollUntil(async () => (await svc.fhir(tolvan, `Subscription/${String(redirected.json.id)}`)).json.status, (s) => s === 'error', WAIT_MS)).toBe('error');
    expect(target.received).toEqual([]);

    failing = true;
    const refusedBefore = await refusals();
    await addLateLabReport(svc.ehrDir, TOLVAN, svc.clock.now(), 'Europe/Stockholm');
    await until(steady, (r) => events(r).length >= 1);
    // The backoff's waits (5 s, then 10 s) pass on the service's clock rather than the test's: once the service has
    // counted a refusal, moving its clock on by that failure's backoff makes the retry due at its next turn.
    await pollUntil(refusals, (n) => n >= refusedBefore + 1, WAIT_MS);
    svc.clock.shift(backoffMs(1));
    await until(flaky, (r) => r.received.length >= 3);
    await pollUntil(refusals, (n) => n >= refusedBefore + 2, WAIT_MS);
    const attempts = flaky.received.slice(1).map((x) => readNotification(x.body));
    // The same event each time, numbered once.
    expect(attempts.map((n) => n.events.map((e) => e.number).join())).toEqual(['1', '1']);
    expect(events(steady)).toEqual([expect.stringMatching(/^1 /)]);
    failing = false;
    svc.clock.shift(backoffMs(2));
    await until(flaky, (r) => r.received.length >= 4);
    expect(target.received).toEqual([]);
  }, 60_000);
});

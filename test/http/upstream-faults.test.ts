/**
 * What a caller sees of every upstream fault (docs/contract.md#errors), through the real app on the remote
 * adapter and the EHR simulator: status, body shape, Retry-After, and nothing of the EHR's own words.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultControl } from '../../src/dev/ehr-simulator/index.js';
import { startRemoteTestApp, type RemoteTestApp } from '../support/remote-test-app.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectDeadlineKept } from '../support/scheduling.js';

const ADULT = '191212121212';
const UNKNOWN = '195507142478';
const NOW = Date.UTC(2026, 10, 21, 8, 0);
// The EHR deadline. A fault that is not a timeout must be answered as its own status well before it: at
// 500 ms a reset mid-body came back 504 once on a machine loaded by CI, a review and a test run (CI of
// 819d0e5), the read of the patient document and the journal's first bytes taking that long.
const DEADLINE = 1500;
const LEAKS = /NullPointer|Internt|finns|Fault|<html|Gateway|Underhåll|(?<!\d)\d{12}(?!\d)|\d{6}-\d{4}/i;

const ROUTES = [
  { url: '/patients/journalnotes/', document: '/journalnotes', shape: 1 },
  { url: '/patients/contacts/', document: '/contacts', shape: 2 },
] as const;
type Route = (typeof ROUTES)[number];

const MESSAGES: Record<number, string> = {
  502: "The EHR answered with an error, or with data this service cannot show exactly as written, so nothing is shown. If it is the same later, tell the region's support, giving the X-Request-Id of this answer.",
  503: 'The EHR is unavailable. Try again later.',
  504: 'The EHR did not answer in time. Try again in a few minutes.',
  403: 'Access to the requested patient is not allowed.',
};

function expectBody(route: Route, status: number, body: string): void {
  expect(body).not.toMatch(LEAKS);
  const json = JSON.parse(body) as Record<string, unknown>;
  if (route.shape === 1) {
    expect(json).toEqual({ statusCode: status, message: MESSAGES[status] });
  } else {
    expect(json).toEqual({ error: MESSAGES[status], path: route.url, status, timestamp: NOW });
  }
}

/** Each fault, set on the route's own document (the patient document read first stays healthy unless said). */
const FAULTS: Array<{ name: string; status: 502 | 503 | 504; arrange: (f: FaultControl, route: Route) => void }> = [
  { name: 'hang', status: 504, arrange: (f, r) => f.hang({ path: r.document }) },
  { name: 'trickle', status: 504, arrange: (f, r) => f.trickle({ path: r.document, intervalMs: 20, bytesPerInterval: 2 }) },
  { name: 'reset', status: 502, arrange: (f, r) => f.reset({ path: r.document }) },
  { name: 'reset mid-body', status: 502, arrange: (f, r) => f.resetMidBody({ path: r.document }) },
  { name: '500 Fault', status: 502, arrange: (f, r) => f.status(500, undefined, undefined, { path: r.document }) },
  { name: '502 HTML', status: 502, arrange: (f, r) => f.status(502, '<html><h1>Bad Gateway</h1>191212121212</html>', 'text/html', { path: r.document }) },
  { name: '200 HTML', status: 502, arrange: (f, r) => f.status(200, '<html><body>Underhåll</body></html>', 'text/html', { path: r.document }) },
  { name: 'malformed', status: 502, arrange: (f, r) => f.malformed({ path: r.document }) },
  { name: 'oversized', status: 502, arrange: (f, r) => f.oversized(3 * 1024 * 1024, { path: r.document }) },
  { name: 'redirect', status: 502, arrange: (f, r) => f.redirect({ path: r.document }) },
  // Contacts name no patient, so a swap shows in the patient document every request reads first.
  { name: 'swapped patient', status: 502, arrange: (f, r) => f.swapPatient({ path: r.shape === 1 ? r.document : '/patient' }) },
  { name: '503', status: 503, arrange: (f, r) => f.status(503, undefined, undefined, { path: r.document, retryAfter: '7' }) },
];

describe('upstream faults as the caller sees them (EHR_ADAPTER=xml-http)', () => {
  let t: RemoteTestApp;
  let token: string;
  beforeAll(async () => {
    t = await startRemoteTestApp({ now: NOW, timeoutMs: DEADLINE, maxBodyBytes: 1024 * 1024 });
    token = await t.personToken(ADULT);
  });
  afterEach(() => t.sim.faults.clear());
  afterAll(() => t.close());

  it('answers 200 when nothing misbehaves', async () => {
    for (const route of ROUTES) expect((await t.call({ method: 'GET', url: route.url, token })).statusCode).toBe(200);
  });

  for (const fault of FAULTS) {
    it(`${fault.name} -> ${fault.status} on both error shapes, within the deadline, with no upstream text`, async () => {
      for (const route of ROUTES) {
        t.sim.faults.clear();
        fault.arrange(t.sim.faults, route);
        const start = performance.now();
        const res = await t.call({ method: 'GET', url: route.url, token });
        expectDeadlineKept(performance.now() - start, DEADLINE);
        expect([route.url, res.statusCode]).toEqual([route.url, fault.status]);
        expectBody(route, fault.status, res.body);
        if (fault.status === 503) expect(res.headers['retry-after']).toBe('7');
      }
    });
  }

  it('answers an upstream 404 for the patient exactly as the embedded adapter answers an unknown patient', async () => {
    const embedded: TestApp = await startTestApp({ now: NOW });
    try {
      const embeddedToken = await embedded.personToken(ADULT);
      for (const route of ROUTES) {
        const unknown = await embedded.call({ method: 'GET', url: route.url, token: embeddedToken, patient: UNKNOWN });
        expect(unknown.statusCode).toBe(403);
        // A patient the EHR does not know, and a known one it suddenly answers 404 for.
        const remoteUnknown = await t.call({ method: 'GET', url: route.url, token: await t.clientToken(), patient: UNKNOWN });
        t.sim.faults.status(404, undefined, undefined, { path: route.document, times: 1 });
        const remote404 = await t.call({ method: 'GET', url: route.url, token });
        for (const res of [remoteUnknown, remote404]) {
          expect([route.url, res.statusCode]).toEqual([route.url, 403]);
          expect(res.body).toBe(unknown.body);
          expectBody(route, 403, res.body);
        }
      }
    } finally {
      await embedded.close();
    }
  });

  it('writes no identity number or upstream text to the log', () => {
    const log = t.logLines.join('\n');
    expect(log).toContain('request failed');
    expect(log).not.toMatch(/NullPointer|Internt fel|<html|191212121212|195507142478/);
  });
});

describe('the circuit breaker as the caller sees it', () => {
  let t: RemoteTestApp;
  let token: string;
  let now = NOW;
  beforeAll(async () => {
    t = await startRemoteTestApp({ now: NOW, timeoutMs: DEADLINE, breaker: { failureThreshold: 2, openMs: 30_000 }, breakerNow: () => now });
    token = await t.personToken(ADULT);
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After while open, without calling the EHR, and recovers after a probe', async () => {
    t.sim.faults.status(500);
    for (let i = 0; i < 2; i++) expect((await t.call({ method: 'GET', url: '/patients/journalnotes/', token })).statusCode).toBe(502);
    const before = t.sim.requests;
    now += 12_000;
    for (const route of ROUTES) {
      const res = await t.call({ method: 'GET', url: route.url, token });
      expect([route.url, res.statusCode, res.headers['retry-after']]).toEqual([route.url, 503, '18']);
      expectBody(route, 503, res.body);
    }
    expect(t.sim.requests).toBe(before);
    // Readiness asks the EHR itself, which still answers 500.
    expect((await t.call({ method: 'GET', url: '/health/ready' })).statusCode).toBe(503);

    t.sim.faults.clear();
    now += 18_000;
    for (const route of ROUTES) expect((await t.call({ method: 'GET', url: route.url, token })).statusCode).toBe(200);
    expect(t.events.map((e) => e.type)).toEqual(expect.arrayContaining(['breaker-open', 'breaker-closed']));
  });
});

describe('issue 38: an EHR that takes no connection is one that could not be reached, not one that answered', () => {
  let t: RemoteTestApp;
  beforeAll(async () => {
    t = await startRemoteTestApp({ now: NOW, timeoutMs: DEADLINE });
  });
  afterAll(() => t.close());

  it('a refused connection -> 502 "The EHR could not be reached. Try again in a few minutes." on both error shapes', async () => {
    const token = await t.personToken(ADULT);
    await t.sim.close();
    for (const route of ROUTES) {
      const res = await t.call({ method: 'GET', url: route.url, token });
      expect([route.url, res.statusCode]).toEqual([route.url, 502]);
      const json = JSON.parse(res.body) as Record<string, unknown>;
      expect(route.shape === 1 ? json : json.error).toEqual(route.shape === 1 ? { statusCode: 502, message: 'The EHR could not be reached. Try again in a few minutes.' } : 'The EHR could not be reached. Try again in a few minutes.');
    }
  });
});

// Hostile review (helper-85, F2): a write the EHR committed and then dropped the connection on was
// answered "The EHR answered with an error or malformed data.", the words of a read, which neither say
// that the registration may have been made nor what to do; a kiosk would tell a checked-in patient to
// queue at the desk, or charge twice.
describe('a write the EHR did not confirm', () => {
  let t: RemoteTestApp;
  beforeAll(async () => {
    t = await startRemoteTestApp({ now: NOW, timeoutMs: DEADLINE });
  });
  afterEach(() => t.sim.faults.clear());
  afterAll(() => t.close());

  const UNCONFIRMED = 'The EHR did not confirm the registration, so it may or may not have been made: send the same request again, '
    + 'which answers INFO if it was (a check-in whose arrival window has closed: ask at the reception).';

  it('says it may have been made and that the same request again tells, and the same request again answers INFO', async () => {
    const token = await t.personToken(ADULT);
    const bookings = (await t.call({ method: 'GET', url: '/patients/appointments/', token })).json<Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>>()
      .flatMap((r) => r.Booking);
    const open = bookings.find((b) => NOW >= Date.parse(b.TypedStartDateTime) - 120 * 60_000 && NOW <= Date.parse(b.TypedStartDateTime) + 30 * 60_000);
    if (open === undefined) throw new Error('the demo data has no booking in its arrival window');
    const arrive = () => t.call({ method: 'PUT', url: `/patients/appointments/?id=${open.ContactId}`, token, payload: { status: 'arrived' } });
    const pay = () => t.call({ method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId: open.ContactId, paymentType: 'CARD' } });
    t.sim.faults.commitThenReset({ times: 1, method: 'PUT' });
    const arrived = await arrive();
    expect([arrived.statusCode, arrived.json()]).toEqual([502, { statusCode: 502, message: UNCONFIRMED }]);
    expect((await arrive()).json()).toMatchObject({ ResultCode: 'INFO', Any: [{ ReasonCode: 'ALREADY_ARRIVED' }] });
    t.sim.faults.hang({ times: 1, method: 'POST' });
    const paid = await pay();
    expect([paid.statusCode, paid.json()]).toEqual([504, { statusCode: 504, message: UNCONFIRMED }]);
    // Refused before the EHR saw a write (it was unreachable): nothing was made, and the words say so.
    await t.sim.close();
    expect((await arrive()).json()).toEqual({ statusCode: 502, message: 'The EHR could not be reached. Try again in a few minutes.' });
    // The outcome records: the two the EHR was sent and did not confirm are UNKNOWN, the one it never saw has no answer; the
    // arrival, sent only for a booking found among the patient's, names it, the payment, sent unchecked, does not.
    const failures = t.audit.records.filter((r) => r.phase === undefined && r.status >= 500);
    expect(failures.map((r) => [r.operation, r.status, r.phase === undefined ? r.writeResult : 'attempt', r.phase === undefined ? r.contactId : 'attempt'])).toEqual([
      ['changeAppointment', 502, 'UNKNOWN', open.ContactId], ['registerPayment', 504, 'UNKNOWN', undefined], ['changeAppointment', 502, undefined, undefined],
    ]);
  });
});

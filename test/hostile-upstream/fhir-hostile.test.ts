/**
 * The hostile-upstream attacks over `EHR_ADAPTER=fhir-r4` (threats 23, 26, 27, 29 of
 * docs/threat-model.md#the-upstream-ehr-api10) that the fault table of
 * test/adapters/ehr-fhir/fhir-faults.test.ts does not already cover: pages over FHIR_MAX_PAGE_BYTES
 * and bodies far past the 10 MiB cap of every EHR answer, with and without a Content-Length; a valid answer dripped slower than the deadline;
 * the identity lookup answering another person; JSON nested past what a parser holds; and
 * prototype-polluting keys in a FHIR resource. Each is injected by the proxy in front of the
 * development FHIR server and asked through the real app: the documented status within the deadline,
 * no upstream text, one audit record, prototypes untouched, and the next normal request served.
 * (The XML document attacks of the other files here have no FHIR form: no DOCTYPE, entities or
 * element names in JSON.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { longestStretchMs } from '../support/event-loop-turns.js';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { expectDeadlineKept } from '../support/scheduling.js';
import { MID_2025, TOLVAN } from '../adapters/ehr-fhir/support/demo-bundle.js';
import { on as changing, type FhirProxy, type Hook, type Reply } from '../adapters/ehr-fhir/support/fhir-proxy.js';
import { conditionPage } from '../adapters/ehr-fhir/support/large-page.js';
import { expectNoPollution, MIB, prototypeSnapshot, UPSTREAM_TEXT } from './support/expectations.js';

const NOTES = '/patients/journalnotes/?fromDateTime=2025-01-01T00:00:00';
const LABS = '/patients/labresults/?fromDateTime=2025-01-01T00:00:00';
/** A decimal of 41 digits, one more than a FHIR answer may carry (docs/upstream-fhir.md#settings). */
const DIGITS_41 = `4.${'0'.repeat(39)}1`;
/** The deadline of the one case that waits for it: a valid answer dripped slower. */
const TIMEOUT_MS = 1500;
const LILLA = '201701012393';
const MESSAGES: Record<number, string> = { 502: "The EHR answered with an error, or with data this service cannot show exactly as written, so nothing is shown. If it is the same later, tell the region's support, giving the X-Request-Id of this answer.", 504: 'The EHR did not answer in time. Try again in a few minutes.' };

/** How many answers a hook has changed: a case whose hook changed nothing proves nothing. */
let changed = 0;
/** Changes the answers to requests whose path and query contain `where` (each change must alter the body or its pace), and passes the rest. */
const on = (where: string, change: (reply: Reply) => Reply): Hook => changing(where, (reply) => {
  const next = change(reply);
  if (next.drip !== undefined || !next.body.equals(reply.body)) changed++;
  return next;
});
/** The FHIR JSON `body` changed by `edit`, where the string "@41@" becomes the number DIGITS_41. */
const withDigits = (body: Buffer, edit: (json: Json) => void): Buffer => {
  const json = JSON.parse(body.toString()) as Json;
  edit(json);
  return Buffer.from(JSON.stringify(json).replaceAll('"@41@"', DIGITS_41));
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the hooks edit whatever the server answered
type Json = any;
const padded = (reply: Reply, bytes: number): Buffer => {
  const text = reply.body.toString();
  return Buffer.from(`${text.slice(0, -1)},"padding":"${'x'.repeat(bytes)}"}`);
};

/**
 * The app behind the proxy with an EHR deadline of `timeoutMs`, a token for Tolvan, and `refused`: the read
 * through a hook, with its status, message, deadline, no upstream text and one audit record naming the failure.
 * After each case the hook is cleared, a normal request is served and no prototype is polluted.
 */
function hostileApp(timeoutMs: number) {
  const ctx = { t: undefined as unknown as FhirTestApp, token: '', prototypes: {} as Record<string, string[]>, n: 0 };
  beforeAll(async () => {
    ctx.prototypes = prototypeSnapshot();
    ctx.t = await startFhirTestApp({ proxied: true, now: MID_2025, adapter: { timeoutMs } });
    const issuedAt = Math.floor(ctx.t.clock.now() / 1000);
    ctx.token = await ctx.t.personToken(TOLVAN, { iat: issuedAt, exp: issuedAt + 3600 });
  });
  afterEach(async () => {
    (ctx.t.proxy as FhirProxy).hook = undefined;
    const healthy = await ctx.t.call({ method: 'GET', url: NOTES, token: ctx.token });
    expect(healthy.statusCode, 'a normal request after the hostile one').toBe(200);
    expectNoPollution(ctx.prototypes);
  });
  afterAll(() => ctx.t.close());

  async function refused(hook: Hook, expected: 502 | 504): Promise<string> {
    const { t, token } = ctx;
    (t.proxy as FhirProxy).hook = hook;
    const before = changed;
    const requestId = `fhir-hostile-${++ctx.n}`;
    const start = performance.now();
    const res = await t.call({ method: 'GET', url: NOTES, token, headers: { 'x-request-id': requestId } });
    const ms = performance.now() - start;
    expect(changed, 'the hook changed an answer').toBeGreaterThan(before);
    expect([res.statusCode, res.json()]).toEqual([expected, { statusCode: expected, message: MESSAGES[expected] }]);
    expectDeadlineKept(ms, timeoutMs);
    expect(res.body).not.toMatch(UPSTREAM_TEXT);
    expect(t.audit.records.filter((r) => r.callerRequestId === requestId && r.requestId === res.headers['x-request-id']).map((r) => [r.status, r.outcome])).toEqual([[expected, 'failed']]);
    return res.body;
  }
  return Object.assign(ctx, { refused });
}

/**
 * A deadline no hostile body here comes near on a CPU shared with other suites, so each case shows the
 * limit that refused it rather than the clock: with 1.5 s, a full run beside other work once answered the
 * 5 MiB page dripped without a Content-Length with 504 in 2.5 s, before its size was reached. Long enough,
 * too, for a 3.8 MiB page to be parsed in slices: the parse gives up at the deadline.
 */
const LONG_TIMEOUT_MS = 15_000;

describe(`hostile FHIR answers through the real app (EHR_ADAPTER=fhir-r4, EHR_TIMEOUT_MS=${LONG_TIMEOUT_MS})`, () => {
  const app = hostileApp(LONG_TIMEOUT_MS);
  const { refused } = app;

  it('refuses a 24 MiB search answer with its Content-Length (past the 10 MiB default cap)', async () => {
    await refused(on('/Composition?', (r) => ({ ...r, body: padded(r, 24 * MIB) })), 502);
  });

  it('refuses a 24 MiB search answer streamed without a Content-Length, and stops reading it', async () => {
    await refused(on('/Composition?', (r) => ({ ...r, body: padded(r, 24 * MIB), drip: { bytes: MIB, everyMs: 1 } })), 502);
  });

  /** Why the transport refused answers since `from` (its upstream-error events: fixed text of this service). */
  const refusalsSince = (from: number): (string | undefined)[] =>
    app.t.events.slice(from).flatMap((e) => (e.type === 'upstream-error' ? [e.detail] : []));

  it('refuses a 5 MiB page, over FHIR_MAX_PAGE_BYTES (4 MiB by default), by its Content-Length before reading it', async () => {
    const from = app.t.events.length;
    await refused(on('/Composition?', (r) => ({ ...r, body: padded(r, 5 * MIB) })), 502);
    expect(refusalsSince(from)).toEqual(['EHR answer declares a length over the limit']);
  });

  it('refuses a 5 MiB page streamed without a Content-Length once it passes FHIR_MAX_PAGE_BYTES', async () => {
    const from = app.t.events.length;
    await refused(on('/Composition?', (r) => ({ ...r, body: padded(r, 5 * MIB), drip: { bytes: MIB / 4, everyMs: 1 } })), 502);
    expect(refusalsSince(from)).toEqual(['EHR answer is larger than the limit']);
  });

  it('refuses a lab value of 41 digits as a malformed answer (502)', async () => {
    const before = changed;
    (app.t.proxy as FhirProxy).hook = on('/Observation', (r) => ({
      ...r,
      body: withDigits(r.body, (bundle) => {
        for (const entry of bundle.entry ?? []) if (entry.resource?.valueQuantity !== undefined) entry.resource.valueQuantity.value = '@41@';
      }),
    }));
    const res = await app.t.call({ method: 'GET', url: LABS, token: app.token });
    expect(changed, 'the hook changed an answer').toBeGreaterThan(before);
    expect([res.statusCode, res.json()]).toMatchObject([502, { error: MESSAGES[502], status: 502 }]);
    expect(res.body).not.toContain('0000000001');
  });

  it('refuses a fee of 41 digits as a malformed answer (502), and registers no payment', async () => {
    const before = changed;
    (app.t.proxy as FhirProxy).hook = on('/Appointment/appt-0001', (r) => ({
      ...r,
      body: withDigits(r.body, (appointment) => {
        appointment.status = 'arrived';
        const fee = appointment.extension.find((e: Json) => String(e.url).endsWith('/patient-fee'));
        fee.extension.find((e: Json) => e.url === 'price').valueMoney.value = '@41@';
      }),
    }));
    const res = await app.t.call({ method: 'POST', url: '/patients/paymentnotice/', token: app.token, payload: { status: 'PAID', contactId: 'appt-0001', paymentType: 'CARD' } });
    expect(changed, 'the hook changed an answer').toBeGreaterThan(before);
    expect([res.statusCode, res.json()]).toEqual([502, { statusCode: 502, message: MESSAGES[502] }]);
    expect((app.t.proxy as FhirProxy).seen.filter((s) => s.method === 'POST')).toEqual([]);
  });

  it('refuses an identity lookup that answers another person, and shows nothing of her', async () => {
    const body = await refused(on('/Patient?', (r) => {
      const swapped = r.body.toString().replaceAll(TOLVAN, LILLA).replaceAll('Tolvan', 'Lilla');
      return { ...r, body: Buffer.from(swapped) };
    }), 502);
    expect(body).not.toMatch(/Lilla|201701012393/);
  });

  it('refuses JSON nested 200,000 levels deep without overflowing the stack', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    await refused(on('/Composition?', (r) => ({ ...r, body: Buffer.from(`${r.body.toString().slice(0, -1)},"extension":${deep}}`) })), 502);
  });

  it('pollutes no prototype with "__proto__", "constructor" and "prototype" keys in a resource, and never answers them', async () => {
    const before = changed;
    (app.t.proxy as FhirProxy).hook = on('/Composition?', (r) => ({
      ...r,
      body: Buffer.from(r.body.toString().replaceAll('"resourceType":"Composition",',
        '"resourceType":"Composition","__proto__":{"polluted":"yes","isAdmin":true},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"isAdmin":true},')),
    }));
    const res = await app.t.call({ method: 'GET', url: NOTES, token: app.token });
    expect(changed, 'the hook put the keys into an answer').toBeGreaterThan(before);
    // Either the keys are ignored (200) or the resource is refused (502); never a 500, never the keys' values.
    expect([200, 502]).toContain(res.statusCode);
    expect(res.body).not.toMatch(/polluted|isAdmin/);
    expectNoPollution(app.prototypes);
  });

  it('is parsed in slices: no turn of the event loop holds it for the page (issue 34 item 5)', async () => {
    // Resources as a server writes them, decimals and all, in a member the Bundle schema ignores: the
    // read maps only the page's own notes, so what holds the loop is the parse. The proxy in this
    // process makes the page's bytes once, before anything is measured.
    const page = conditionPage(3.8 * MIB);
    let body: Buffer | undefined;
    (app.t.proxy as FhirProxy).hook = changing('/Composition?', (r) => {
      body ??= Buffer.from(`${r.body.toString().slice(0, -1)},"padding":${page}}`);
      return { ...r, body };
    });
    expect((await app.t.call({ method: 'GET', url: NOTES, token: app.token })).statusCode).toBe(200);
    expect(body?.length).toBeGreaterThan(3.8 * MIB);
    // The better of two reads: a full collection of the test process's heap can land in any one turn, and on a busy
    // machine it took one read's longest stretch to 63 ms; the parse is in every read.
    const stretches: number[] = [];
    for (let read = 0; read < 2; read++) {
      let status = 0;
      stretches.push(await longestStretchMs(async () => {
        status = (await app.t.call({ method: 'GET', url: NOTES, token: app.token })).statusCode;
      }));
      expect(status).toBe(200);
    }
    // Parsed in one go, the page held the loop 120-180 ms of CPU here; in slices 13-21 ms, a scavenge
    // of the young generation included. The 20 ms target is the bench's (BENCHMARKS.md, scenario 8d).
    expect(Math.min(...stretches)).toBeLessThan(60);
  });
});

describe('a valid answer dripped slower than the deadline (EHR_TIMEOUT_MS=1500)', () => {
  const { refused } = hostileApp(TIMEOUT_MS);

  it('gives up on a valid answer dripped one byte every 100 ms, at the deadline', async () => {
    await refused(on('/Composition?', (r) => ({ ...r, drip: { bytes: 1, everyMs: 100 } })), 504);
  });
});

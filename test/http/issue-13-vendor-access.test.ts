import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../src/domain/operations/table.js';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { MESSAGES } from '../../src/http/api-error.js';
import { UsedSecrets } from '../security/support/logs.js';
import { ALL_SCOPES, KEY, OTHER_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const MIN = 60_000;
const UNKNOWN_CONTACT = '99999999999';

/** docs/contract.md#reads: each vendor path and the spec path it is an alias of, with a valid request. */
const ALIASES: ReadonlyArray<{ operation: OperationName; method: 'GET' | 'PUT' | 'POST'; spec: string; vendor: string; query?: string; payload?: object }> = [
  { operation: 'getAppointments', method: 'GET', spec: '/patients/appointments/', vendor: '/api/open/appointments/' },
  { operation: 'changeAppointment', method: 'PUT', spec: '/patients/appointments/', vendor: '/api/open/appointments/', query: `?id=${UNKNOWN_CONTACT}`, payload: { status: 'arrived' } },
  { operation: 'registerPayment', method: 'POST', spec: '/patients/paymentnotice/', vendor: '/api/open/paymentnotice/', payload: { status: 'PAID', contactId: UNKNOWN_CONTACT, paymentType: 'CARD' } },
  { operation: 'getPatient', method: 'GET', spec: '/patients/patient/', vendor: '/api/open/patient/' },
  { operation: 'getPatientV2', method: 'GET', spec: '/patients/patient/', vendor: '/api/open/patient/', query: '?api-version=v2' },
  { operation: 'getContacts', method: 'GET', spec: '/patients/contacts/', vendor: '/api/open/contacts/', query: '?api-version=v2' },
  { operation: 'getAttentionSignals', method: 'GET', spec: '/patients/attentionsignals/', vendor: '/api/open/attentionsignals/' },
  { operation: 'getJournalNotes', method: 'GET', spec: '/patients/journalnotes/', vendor: '/api/open/journalnotes/' },
  { operation: 'getVideoMeetings', method: 'GET', spec: '/patients/videomeetings/', vendor: '/open/api/videomeetings/' },
  { operation: 'getMedications', method: 'GET', spec: '/patients/medications/', vendor: '/open/api/medications/' },
];

describe('issue 13: the vendor paths, the subscription key in the query, INVOICE payments', () => {
  let t: TestApp;
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  beforeAll(async () => {
    t = await startTestApp({ metrics });
  });
  afterAll(() => t.close());

  describe('vendor path aliases (docs/contract.md#reads)', () => {
    it.each(ALIASES)('issue 13 item 4: $operation at $method $vendor answers exactly as at $spec', async (a) => {
      const token = await t.personToken(ADULT);
      const spec = await t.call({ method: a.method, url: `${a.spec}${a.query ?? ''}`, token, ...(a.payload ? { payload: a.payload } : {}) });
      const vendor = await t.call({ method: a.method, url: `${a.vendor}${a.query ?? ''}`, token, ...(a.payload ? { payload: a.payload } : {}) });
      expect(spec.statusCode).toBe(200);
      expect(vendor.statusCode).toBe(200);
      expect(vendor.body).toBe(spec.body);
      expect(vendor.headers['content-type']).toBe(spec.headers['content-type']);
      // Without the trailing slash too, as every spec path.
      const bare = await t.call({ method: a.method, url: `${a.vendor.slice(0, -1)}${a.query ?? ''}`, token, ...(a.payload ? { payload: a.payload } : {}) });
      expect(bare.body).toBe(spec.body);
    });

    it.each(ALIASES)('issue 13 item 4: $operation at $vendor needs its scope, refuses in the same shape, and is audited under its name', async (a) => {
      const needed = OPERATIONS[a.operation].scope.name;
      const token = await t.personToken(ADULT, { scope: ALL_SCOPES.split(' ').filter((s) => s !== needed).join(' ') });
      const options = (url: string) => ({ method: a.method, url: `${url}${a.query ?? ''}`, token, ...(a.payload ? { payload: a.payload } : {}) });
      const spec = await t.call(options(a.spec));
      const before = t.audit.records.length;
      const vendor = await t.call(options(a.vendor));
      expect(vendor.statusCode).toBe(403);
      expect(vendor.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${needed}"`);
      // Same error shape; shape 2 names the path that was called.
      const body = vendor.json() as Record<string, unknown>;
      const specBody = spec.json() as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(Object.keys(specBody).sort());
      if ('path' in body) expect(body.path).toBe(a.vendor);
      expect(t.audit.records.slice(before).map((r) => [r.operation, r.outcome, r.status])).toEqual([[a.operation, 'denied', 403]]);
      const allowed = await t.call({ ...options(a.vendor), token: await t.personToken(ADULT, { scope: needed }) });
      expect(allowed.statusCode).toBe(200);
      expect(t.audit.records.at(-1)?.operation).toBe(a.operation);
    });

    it('issue 13 item 4: a path near a vendor path is 404 in shape 1, whatever the credentials; a vendor path asked with another method 405', async () => {
      const token = await t.personToken(ADULT);
      const misses: Array<['GET' | 'PUT' | 'POST', string]> = [
        ['GET', '/api/open/appointment/'], ['GET', '/api/open/videomeetings/'], ['GET', '/api/open/medications/'],
        ['GET', '/open/api/appointments/'], ['GET', '/open/api/patient/'], ['GET', '/api/open/patients/'],
        ['GET', '/API/OPEN/PATIENT/'], ['GET', '/api/open/patient/extra'], ['GET', '/api/opened/contacts/'],
        ['GET', '/api/open/'], ['GET', '/api/open/patient/patient/'],
      ];
      for (const [method, url] of misses) {
        const res = await t.call({ method, url, token, ...(method === 'GET' ? {} : { payload: {} }) });
        expect([method, url, res.statusCode, res.json()]).toEqual([method, url, 404, { statusCode: 404, message: 'Not found.' }]);
      }
      // Issue 22 item 3: a documented path and a method it does not serve.
      const wrongMethods: Array<['GET' | 'PUT' | 'POST', string, string]> = [
        ['GET', '/api/open/paymentnotice/', 'POST'], ['PUT', '/api/open/journalnotes/', 'GET, HEAD'], ['POST', '/api/open/appointments/', 'GET, HEAD, PUT'],
      ];
      for (const [method, url, allow] of wrongMethods) {
        const res = await t.call({ method, url, token, ...(method === 'GET' ? {} : { payload: {} }) });
        expect([method, url, res.statusCode, res.headers.allow]).toEqual([method, url, 405, allow]);
      }
    });

    it('issue 13 item 4: the vendor paths live under BASE_PATH like the spec paths', async () => {
      const based = await startTestApp({ basePath: '/patient-api' });
      try {
        const token = await based.personToken(ADULT);
        expect((await based.call({ method: 'GET', url: '/patient-api/api/open/patient/', token })).statusCode).toBe(200);
        expect((await based.call({ method: 'GET', url: '/patient-api/open/api/medications/', token })).statusCode).toBe(200);
        expect((await based.call({ method: 'GET', url: '/api/open/patient/', token })).statusCode).toBe(404);
      } finally {
        await based.close();
      }
    });
  });

  describe('the subscription key in the subscription-key query parameter (docs/contract.md#token-kinds)', () => {
    const used = new UsedSecrets();
    const read = '/patients/videomeetings/';

    it('issue 13 item 3: a key in the query alone is accepted, and the answer is the one the header gets', async () => {
      const token = await t.personToken(ADULT);
      const byHeader = await t.call({ method: 'GET', url: read, token });
      const byQuery = await t.call({ method: 'GET', url: `${read}?subscription-key=${used.key(OTHER_KEY)}`, token, key: null });
      expect(byQuery.statusCode).toBe(200);
      expect(byQuery.body).toBe(byHeader.body);
      // Counted and limited as the key it names, not as a keyless caller.
      expect(t.audit.records.at(-1)).toMatchObject({ subscription: 'other', operation: 'getVideoMeetings', outcome: 'allowed' });
      const withOtherParams = await t.call({ method: 'GET', url: `${read}?toDateTime=2100-01-01T00:00:00&subscription-key=${OTHER_KEY}&fromDateTime=2000-01-01T00:00:00`, token, key: null });
      expect(withOtherParams.statusCode).toBe(200);
    });

    it('issue 13 item 3: the same key in header and query is accepted; two different ones are 401', async () => {
      const token = await t.personToken(ADULT);
      expect((await t.call({ method: 'GET', url: `${read}?subscription-key=${KEY}`, token })).statusCode).toBe(200);
      const differ = await t.call({ method: 'GET', url: `${read}?subscription-key=${OTHER_KEY}`, token });
      expect(differ.statusCode).toBe(401);
      expect(differ.json()).toMatchObject({ status: 401, error: MESSAGES.badSubscriptionKey, path: read });
      // Both valid keys, of two subscriptions: still refused, not either one chosen.
      const write = await t.call({ method: 'PUT', url: `/patients/appointments/?id=${UNKNOWN_CONTACT}&subscription-key=${OTHER_KEY}`, token, payload: { status: 'arrived' } });
      expect(write.statusCode).toBe(401);
      expect(write.json()).toEqual({ statusCode: 401, message: MESSAGES.badSubscriptionKey });
    });

    it('issue 13 item 3: an unknown, empty or repeated query key is 401', async () => {
      const token = await t.personToken(ADULT);
      const queries = [
        `subscription-key=${used.key('not-a-key-0123456789abcdef')}`, 'subscription-key=', `subscription-key=${OTHER_KEY}&subscription-key=${OTHER_KEY}`,
        `subscription-key=${OTHER_KEY}&subscription-key=${KEY}`,
      ];
      for (const query of queries) {
        const res = await t.call({ method: 'GET', url: `${read}?${query}`, token, key: null });
        expect([query, res.statusCode]).toEqual([query, 401]);
      }
      expect((await t.call({ method: 'GET', url: read, token, key: null })).statusCode).toBe(401);
    });

    it('issue 13 item 3: works on every operation and on the vendor paths (the vendor API management takes it there)', async () => {
      const token = await t.personToken(ADULT);
      for (const a of ALIASES) {
        for (const path of [a.spec, a.vendor]) {
          const url = `${path}${a.query ? `${a.query}&` : '?'}subscription-key=${OTHER_KEY}`;
          const res = await t.call({ method: a.method, url, token, key: null, ...(a.payload ? { payload: a.payload } : {}) });
          expect([a.method, url, res.statusCode]).toEqual([a.method, url, 200]);
        }
      }
    });

    it('issue 13 item 3: the query key never reaches a log line, a metric label or an audit record', async () => {
      const secret = used.key(OTHER_KEY);
      const token = used.token(await t.personToken(ADULT));
      const before = t.logLines.length;
      // Allowed, refused for scope, refused for token, unknown path, bad query, and a 5xx-free validation error.
      await t.call({ method: 'GET', url: `/patients/journalnotes/?subscription-key=${secret}`, token, key: null });
      await t.call({ method: 'GET', url: `/api/open/contacts/?subscription-key=${secret}`, token: await t.personToken(ADULT, { scope: '' }), key: null });
      await t.call({ method: 'GET', url: `/patients/appointments/?subscription-key=${secret}`, token: 'not.a.token', key: null });
      await t.call({ method: 'GET', url: `/patients/nothing/?subscription-key=${secret}`, token, key: null });
      await t.call({ method: 'GET', url: `/patients/contacts/?subscription-key=${secret}&fromDateTime=bad`, token, key: null });
      await t.call({ method: 'GET', url: `/patients/contacts/?subscription-key=${secret}&access_token=x`, token, key: null });
      const lines = t.logLines.slice(before);
      expect(lines.length).toBeGreaterThanOrEqual(6);
      expect(used.foundIn(lines)).toEqual([]);
      expect(JSON.stringify(t.audit.records)).not.toContain(secret);
      expect(await metrics.registry.metrics()).not.toContain(secret);
    });
  });

  describe('INVOICE payments (docs/contract.md#reads)', () => {
    it('issue 13 item 2: an arrived appointment is paid by INVOICE, on the spec path and on the vendor path', async () => {
      const token = await t.personToken(ADULT);
      const bookings = (await t.call({ method: 'GET', url: '/patients/appointments/', token })).json() as Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>;
      const now = t.clock.now();
      const booking = bookings.flatMap((r) => r.Booking).find((b) => {
        const start = Date.parse(b.TypedStartDateTime);
        return now >= start - 120 * MIN && now <= start + 30 * MIN;
      });
      if (!booking) throw new Error('demo data has no booking in its arrival window now');
      const pay = (url: string) => t.call({ method: 'POST', url, token, payload: { status: 'PAID', contactId: booking.ContactId, paymentType: 'INVOICE' } });
      expect((await t.call({ method: 'PUT', url: `/api/open/appointments/?id=${booking.ContactId}`, token, payload: { status: 'arrived' } })).statusCode).toBe(200);
      const first = await pay('/patients/paymentnotice/');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject([{ ResultCode: 'OK', Any: [{ ReasonCode: 'PAYMENT_REGISTERED' }] }]);
      expect((await pay('/api/open/paymentnotice/')).json()).toMatchObject([{ ResultCode: 'INFO', Any: [{ ReasonCode: 'ALREADY_PAID' }] }]);
    });

    it('issue 13 item 2: a payment type other than CASH, CARD or INVOICE is still 400', async () => {
      const token = await t.personToken(ADULT);
      for (const paymentType of ['invoice', 'SWISH', 'INVOICE ', '']) {
        const res = await t.call({ method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId: UNKNOWN_CONTACT, paymentType } });
        expect([paymentType, res.statusCode]).toEqual([paymentType, 400]);
      }
    });
  });
});

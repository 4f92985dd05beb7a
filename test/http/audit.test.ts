import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const GUARDIAN = '198112189876';
const CHILD = '201701012393';

describe('the audit trail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('records an allowed read with who, client, subscription, for whom, basis, operation, address and request id', async () => {
    const before = t.audit.records.length;
    const res = await t.call({
      method: 'GET', url: '/patients/journalnotes/', patient: CHILD, headers: { 'x-request-id': 'req-audit-1' },
      token: await t.personToken(GUARDIAN, { sub: 'märta', client_id: 'patient-app' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('req-audit-1');
    expect(t.audit.records.slice(before)).toEqual([{
      time: new Date(t.clock.now()).toISOString(), requestId: 'req-audit-1', serviceRequestId: expect.stringMatching(/^[0-9a-f-]{36}$/), operation: 'getJournalNotes',
      actor: { issuer: t.issuer.issuer, subject: 'märta', personId: GUARDIAN }, clientId: 'patient-app',
      subscription: 'test', patientId: CHILD, delegation: 'guardian', sourceAddress: '127.0.0.1',
      outcome: 'allowed', status: 200,
    }]);
  });

  it('records exactly one record for each refusal too', async () => {
    const before = t.audit.records.length;
    await t.call({ method: 'GET', url: '/patients/medications/', key: null });
    await t.call({ method: 'GET', url: '/patients/medications/' });
    await t.call({ method: 'GET', url: '/patients/medications/', token: await t.personToken(ADULT, { scope: 'user/Patient-read' }) });
    await t.call({ method: 'GET', url: '/patients/medications/', token: await t.personToken(ADULT), patient: GUARDIAN });
    const records = t.audit.records.slice(before);
    expect(records.map((r) => [r.status, r.outcome])).toEqual([[401, 'denied'], [401, 'denied'], [403, 'denied'], [403, 'denied']]);
    expect(records[3]).toMatchObject({ patientId: GUARDIAN, delegation: 'delegation', actor: { personId: ADULT } });
  });

  it('withholds the data with 503 when the record cannot be stored, and resumes when it can', async () => {
    const token = await t.personToken(ADULT);
    t.audit.mode = 'fail';
    const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ statusCode: 503, message: expect.stringMatching(/cannot record/) });
    expect(res.body).not.toContain('Tolvansson');
    const contacts = await t.call({ method: 'GET', url: '/patients/contacts/', token });
    expect(contacts.statusCode).toBe(503);
    expect(contacts.json()).toMatchObject({ status: 503, path: '/patients/contacts/' });
    t.audit.mode = 'ok';
    expect((await t.call({ method: 'GET', url: '/patients/journalnotes/', token })).statusCode).toBe(200);
  });

  it('answers 503 within its deadline when the store hangs', async () => {
    t.audit.mode = 'hang';
    const started = Date.now();
    const res = await t.call({ method: 'GET', url: '/patients/attentionsignals/', token: await t.personToken(ADULT) });
    t.audit.mode = 'ok';
    expect(res.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('does not audit requests that touch no patient data', async () => {
    const before = t.audit.records.length;
    await t.app.inject({ method: 'GET', url: '/health/live' });
    await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(t.audit.records.length).toBe(before);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { JWT } from '../support/identity-paths.js';
import { expectDeadlineKept } from '../support/scheduling.js';

const ADULT = '191212121212';
const GUARDIAN = '198112189876';
const CHILD = '201701012393';

/** A version 4 UUID, the only form of the service's own request id. */
const SERVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

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
    const own = String(res.headers['x-request-id']);
    expect(own).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.audit.records.slice(before)).toEqual([{
      time: new Date(t.clock.now()).toISOString(), requestId: own, serviceRequestId: own, callerRequestId: 'req-audit-1', operation: 'getJournalNotes',
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

  // Hostile review (helper-78, F2): a refusal before the access decision named the patient header's
  // patient with no basis, so a guardian's mistyped request showed in her child's log as a stranger's.
  it('names the basis the caller has for the patient of a refusal made before the access decision', async () => {
    const before = t.audit.records.length;
    const marta = await t.personToken(GUARDIAN);
    // Her app opened for herself with a patient/ scope reaches her alone: no basis for her child (helper-79, 3).
    const ownLaunch = await t.personToken(GUARDIAN, { scope: 'launch/patient patient/JournalNote.read' });
    for (const [token, patient] of [[marta, CHILD], [marta, undefined], [await t.personToken(ADULT), CHILD], [ownLaunch, CHILD]] as const) {
      const res = await t.call({ method: 'GET', url: '/patients/journalnotes/?fromDateTime=yesterday', token, ...(patient === undefined ? {} : { patient }) });
      expect(res.statusCode).toBe(400);
    }
    expect(t.audit.records.slice(before).map((r) => [r.actor?.personId, r.patientId, r.delegation]))
      .toEqual([[GUARDIAN, CHILD, 'guardian'], [GUARDIAN, GUARDIAN, 'self'], [ADULT, CHILD, undefined], [GUARDIAN, CHILD, undefined]]);
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
    expectDeadlineKept(Date.now() - started, 0, 'refused');
  });

  it('does not audit requests that touch no patient data', async () => {
    const before = t.audit.records.length;
    await t.app.inject({ method: 'GET', url: '/health/live' });
    await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(t.audit.records.length).toBe(before);
  });

  describe('issue 34 item 10: the service\'s own request id; the caller\'s kept beside it for operators (docs/contract.md#request-ids)', () => {
    let token: string;
    beforeAll(async () => {
      token = await t.personToken(ADULT);
    });

    /** The answer header, the audit record and the log line of one read sent with `given` as its X-Request-Id. */
    async function sent(given: string | undefined) {
      const [records, lines] = [t.audit.records.length, t.logLines.length];
      const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token, headers: given === undefined ? {} : { 'x-request-id': given } });
      expect(res.statusCode).toBe(200);
      const line = t.logLines.slice(lines).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request completed');
      return { answered: String(res.headers['x-request-id']), record: t.audit.records.slice(records), line };
    }

    it('answers a fresh UUID whatever the caller sends, used in the log line and the audit record; the caller\'s id is kept beside it', async () => {
      const seen = new Set<string>();
      for (const given of ['caller-trace-42', 'caller-trace-42', '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42']) {
        const { answered, record, line } = await sent(given);
        expect(answered).toMatch(SERVICE_ID);
        expect(answered).not.toBe(given);
        expect(seen.has(answered)).toBe(false);
        seen.add(answered);
        expect(record).toEqual([expect.objectContaining({ requestId: answered, serviceRequestId: answered, callerRequestId: given })]);
        expect(line).toMatchObject({ reqId: answered, callerRequestId: given });
      }
      const { answered, record, line } = await sent(undefined);
      expect(answered).toMatch(SERVICE_ID);
      expect(record[0]).not.toHaveProperty('callerRequestId');
      expect(line).not.toHaveProperty('callerRequestId');
    });

    it('keeps the caller\'s id cut to 128 printable characters, with no identity number, token, CR or LF', async () => {
      const cases: Array<[string, string | undefined]> = [
        ['A'.repeat(300), 'A'.repeat(128)],
        ['bad\r\nid', 'bad??id'],
        ['tab\there, caf\u00e9', 'tab?here, caf?'],
        ['trace-191212121212-1', 'trace-[REDACTED]-1'],
        ['Ring-1177.se-helpdesk-19121212-1212-nu', 'Ring-1177.se-helpdesk-[REDACTED]-nu'],
        [`id ${JWT}`, 'id [REDACTED]'],
        ['x%0d%0a191212121212', 'x??[REDACTED]'],
        [`${'b'.repeat(120)}191212121212`, `${'b'.repeat(120)}[REDACTE`],
        ['', undefined],
      ];
      for (const [given, kept] of cases) {
        const { answered, record, line } = await sent(given);
        expect([given, answered]).toEqual([given, expect.stringMatching(SERVICE_ID)]);
        expect([given, record[0]?.callerRequestId]).toEqual([given, kept]);
        expect([given, line?.callerRequestId]).toEqual([given, kept]);
      }
    });
  });
});

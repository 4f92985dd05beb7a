import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isXmlRead } from '../../src/adapters/ehr-xml/documents.js';
import { READ_NAMES } from '../../src/domain/operations/table.js';
import { routeByOperation, urlOf } from '../security/support/routes.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADULT = '191212121212';
const GUARDIAN = '198112189876';
const CHILD = '201701012393';
const PROTECTED = '197305242385';
const UNKNOWN = '195507142478';
const EXPIRED_CHILD = '200404122384';

/** Every read of patient records in the operation table, as a valid request's URL. */
const READS = READ_NAMES.map((read) => urlOf(routeByOperation(read)));
/** The reads the embedded EHR has documents for; the others are declared NOT_SERVED and answer []. */
const SERVED = new Set(READ_NAMES.filter(isXmlRead).map((read) => urlOf(routeByOperation(read))));

const isoLocal = (ms: number): string => new Date(ms).toLocaleString('sv-SE', { timeZone: 'Europe/Stockholm' }).replace(' ', 'T');

describe('the seven reads', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = await t.personToken(ADULT);
  });
  afterAll(() => t.close());

  it('answers every read of the rich demo patient with data', async () => {
    for (const url of READS) {
      const res = await t.call({ method: 'GET', url, token });
      expect([url, res.statusCode]).toEqual([url, 200]);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json() as unknown;
      if (Array.isArray(body)) expect([url, body.length > 0]).toEqual([url, SERVED.has(url)]);
    }
  });

  it('answers the older patient layout and (issue 13) v2 in the vendor layout, each as an array', async () => {
    const old = (await t.call({ method: 'GET', url: '/patients/patient/', token })).json();
    expect(old[0].PatientEHRExtract[0].Patient.PatientID).toEqual({ extension: ADULT, root: '1.2.752.129.2.1.3.1' });
    const v2 = (await t.call({ method: 'GET', url: '/patients/patient/?api-version=v2', token })).json();
    expect(v2).toHaveLength(1);
    expect(v2[0].patientEHRExtract[0].patient).toMatchObject({
      patientID: { extension: ADULT, root: '1.2.752.129.2.1.3.1' }, patientProtectedId: false, patientBirthDate: { value: '19121212' },
    });
    const bad = await t.call({ method: 'GET', url: '/patients/patient/?api-version=v3', token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/api-version.*v2/);
  });

  it('defaults contacts to v2 and refuses other versions in shape 2', async () => {
    const absent = await t.call({ method: 'GET', url: '/patients/contacts/', token });
    const v2 = await t.call({ method: 'GET', url: '/patients/contacts/?api-version=v2', token });
    expect(absent.body).toBe(v2.body);
    const v1 = await t.call({ method: 'GET', url: '/patients/contacts/?api-version=v1', token });
    expect(v1.statusCode).toBe(400);
    expect(v1.json()).toMatchObject({ status: 400, path: '/patients/contacts/', error: expect.stringMatching(/api-version/) });
  });

  it('filters bookings by an inclusive local interval and sorts them oldest first', async () => {
    const all = (await t.call({ method: 'GET', url: '/patients/appointments/', token })).json() as Array<{ Booking: Array<{ TypedStartDateTime: string }> }>;
    const starts = all.flatMap((r) => r.Booking.map((b) => Date.parse(b.TypedStartDateTime))).sort((a, b) => a - b);
    expect(starts.length).toBeGreaterThan(3);
    const from = starts[1] ?? 0;
    const to = starts[starts.length - 2] ?? 0;
    const url = `/patients/appointments/?fromDateTime=${isoLocal(from)}&toDateTime=${isoLocal(to)}`;
    const res = await t.call({ method: 'GET', url, token });
    expect(res.statusCode).toBe(200);
    const got = (res.json() as typeof all).flatMap((r) => r.Booking.map((b) => Date.parse(b.TypedStartDateTime)));
    expect(got).toEqual(starts.slice(1, -1));
  });

  it('filters journal notes on time_created and sorts them', async () => {
    const all = (await t.call({ method: 'GET', url: '/patients/journalnotes/', token })).json() as Array<{ JournalNoteEHRExtract: Array<{ time_created: { value: string } }> }>;
    const created = all.flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.time_created.value));
    expect(created).toEqual([...created].sort());
    const pivot = created[Math.floor(created.length / 2)] ?? '';
    const from = `${pivot.slice(0, 4)}-${pivot.slice(4, 6)}-${pivot.slice(6, 8)}T${pivot.slice(8, 10)}:${pivot.slice(10, 12)}:${pivot.slice(12, 14)}`;
    const res = await t.call({ method: 'GET', url: `/patients/journalnotes/?fromDateTime=${from}`, token });
    const later = (res.json() as typeof all).flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.time_created.value));
    expect(later).toEqual(created.filter((c) => c >= pivot));
  });

  it('keeps video meetings within their schema limits, earliest first', async () => {
    const meetings = (await t.call({ method: 'GET', url: '/patients/videomeetings/', token })).json() as Array<{ startDateTimeInUnix: number; meetingLink: string }>;
    expect(meetings.length).toBeLessThanOrEqual(64);
    const starts = meetings.map((m) => m.startDateTimeInUnix);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const m of meetings) expect(m.meetingLink.length).toBeLessThanOrEqual(64);
  });

  it.each([
    ['fromDateTime after toDateTime', '?fromDateTime=2025-03-02T00:00:00&toDateTime=2025-03-01T00:00:00', /fromDateTime/],
    ['an impossible date', '?fromDateTime=2025-02-30T00:00:00', /fromDateTime/],
    ['month 13', '?toDateTime=2025-13-01T00:00:00', /toDateTime/],
    ['a date without time', '?fromDateTime=2025-03-01', /fromDateTime/],
    ['a zone suffix', '?toDateTime=2025-03-01T00:00:00Z', /toDateTime/],
    ['an unknown parameter', '?from=2025-03-01T00:00:00', /^Query parameter from is not allowed: this path takes fromDateTime, toDateTime\.$/],
    ['issue 12 item 13: a parameter named $where, named as sent', '?%24where=1', /^Query parameter \$where is not allowed: this path takes fromDateTime, toDateTime\.$/],
  ])('refuses %s with 400 naming the parameter', async (_label, query, message) => {
    const res = await t.call({ method: 'GET', url: `/patients/medications/${query}`, token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, message: expect.stringMatching(message) });
    const signals = await t.call({ method: 'GET', url: `/patients/attentionsignals/${query}`, token });
    expect(signals.json()).toMatchObject({ status: 400, error: expect.stringMatching(message) });
  });

  it('accepts a bound in the spring DST gap', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/journalnotes/?fromDateTime=2025-03-30T02:30:00', token });
    expect(res.statusCode).toBe(200);
  });
});

describe('who may read whom', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lets a guardian, a power of attorney and a partner read through the patient header', async () => {
    const token = await t.personToken(GUARDIAN);
    for (const patient of [CHILD, ADULT, '194608632396', '19121212-1212']) {
      const res = await t.call({ method: 'GET', url: '/patients/journalnotes/', token, patient });
      expect([patient, res.statusCode]).toEqual([patient, 200]);
    }
  });

  it('refuses unrelated, expired and unknown patients with one and the same 403 on every read', async () => {
    const adult = await t.personToken(ADULT);
    const guardian = await t.personToken(GUARDIAN);
    const bodies = new Set<string>();
    for (const url of READS) {
      for (const [token, patient] of [[adult, GUARDIAN], [guardian, EXPIRED_CHILD], [adult, UNKNOWN], [guardian, UNKNOWN]] as const) {
        const res = await t.call({ method: 'GET', url, token, patient });
        expect([url, patient, res.statusCode]).toEqual([url, patient, 403]);
        const body = res.json() as Record<string, unknown>;
        delete body.timestamp;
        delete body.path;
        bodies.add(JSON.stringify(body));
      }
    }
    expect(bodies.size).toBe(2); // one text, in each of the two shapes
  });

  it('never answers 2xx for any (person, patient) pair outside the registry, on any read', async () => {
    const people = [ADULT, GUARDIAN, CHILD, PROTECTED, EXPIRED_CHILD, '194608632396'];
    const allowed = new Set([`${GUARDIAN}>${CHILD}`, `${GUARDIAN}>${ADULT}`, `${GUARDIAN}>194608632396`]);
    for (const actor of people) {
      const token = await t.personToken(actor);
      for (const patient of [...people, UNKNOWN]) {
        if (patient === actor || allowed.has(`${actor}>${patient}`)) continue;
        for (const url of READS) {
          const res = await t.call({ method: 'GET', url, token, patient });
          expect([actor, patient, url, res.statusCode]).toEqual([actor, patient, url, 403]);
        }
      }
    }
  });

  it('never lets a delegate read a protected identity; the patient and a client token can', async () => {
    const guardian = await t.personToken(GUARDIAN);
    expect((await t.call({ method: 'GET', url: '/patients/journalnotes/', token: guardian, patient: PROTECTED })).statusCode).toBe(403);
    const own = await t.call({ method: 'GET', url: '/patients/patient/?api-version=v2', token: await t.personToken(PROTECTED) });
    expect(own.json()[0].patientEHRExtract[0].patient.patientAddresses.length).toBeGreaterThan(0);
    const ownV1 = await t.call({ method: 'GET', url: '/patients/patient/', token: await t.personToken(PROTECTED) });
    expect(ownV1.json()[0].PatientEHRExtract[0].Patient.PatientDataRegister).toMatchObject({ PatientCity: '1480' });
  });

  it('leaves addresses, phone numbers and e-mail out of a protected patient read by a client token', async () => {
    const kiosk = await t.clientToken();
    const v2 = (await t.call({ method: 'GET', url: '/patients/patient/?api-version=v2', token: kiosk, patient: PROTECTED })).json();
    expect(v2[0].patientEHRExtract[0].patient).toMatchObject({
      patientID: { extension: PROTECTED }, patientProtectedId: true, patientAddresses: [], phoneNumbers: { phone: [] }, emailAddresses: { Email: [] },
    });
    expect(v2[0].patientEHRExtract[0].patient).not.toHaveProperty('patientDataRegister');
    const old = (await t.call({ method: 'GET', url: '/patients/patient/', token: kiosk, patient: PROTECTED })).json();
    const patient = old[0].PatientEHRExtract[0].Patient;
    expect(patient.PatientAddresses.PatientAddress).toEqual([]);
    expect(patient.PhoneNumbers.Phone).toEqual([]);
    expect(patient.EmailAddresses.Email).toEqual([]);
    expect(patient).not.toHaveProperty('PatientDataRegister');
    const bookings = (await t.call({ method: 'GET', url: '/patients/appointments/', token: kiosk, patient: PROTECTED })).json() as Array<{ Patient?: { Addresses?: unknown[]; PhoneNumbers?: unknown[] } }>;
    for (const r of bookings) {
      if (r.Patient) expect([r.Patient.Addresses ?? [], r.Patient.PhoneNumbers ?? []]).toEqual([[], []]);
    }
    const unmasked = (await t.call({ method: 'GET', url: '/patients/patient/?api-version=v2', token: kiosk, patient: ADULT })).json();
    expect(unmasked[0].patientEHRExtract[0].patient.patientAddresses.length).toBeGreaterThan(0);
    expect(unmasked[0].patientEHRExtract[0].patient.patientRelatives.patientRelative[0]).toHaveProperty('patientRelativeStreetAddress');
  });

  it('requires the header with a client token, and refuses malformed identity numbers before any lookup', async () => {
    const kiosk = await t.clientToken();
    const missing = await t.call({ method: 'GET', url: '/patients/appointments/', token: kiosk });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/patient/);
    for (const patient of ['191212121213', '1212121212', '19121212 1212', '191212121212,198112189876', '191213121210', '19121212+1212']) {
      const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: kiosk, patient });
      expect([patient, res.statusCode]).toEqual([patient, 400]);
      expect(res.body).not.toContain(patient);
    }
  });
});

/**
 * docs/fhir-api.md#the-same-rules-as-the-cos-api, the audit (and docs/contract.md#the-patients-access-log): every FHIR
 * interaction leaves exactly one audit record, naming the patient and the operation of the data it
 * read, stored before the answer leaves (with the store down: 503 and no data); the patient's COS
 * access log shows a FHIR read under the name of that data ("Provsvar"/"Lab results" for a
 * DiagnosticReport); and `GET /fhir/AuditEvent?patient=…` answers the same log as AuditEvents, each
 * naming its request's id in `entity.what.identifier`.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccessLogEntry } from '../../../src/domain/access-log/access-log-entry.js';
import { OPERATIONS } from '../../../src/domain/operations/table.js';
import type { AuditRecord, AuditTrail } from '../../../src/ports/audit-trail.port.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { ANTON, APP, bundleOf, forgedLike, get, LILLA, MARTA, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN, type Bundle, type Resource } from './fhir-calls.js';
import { allPages, keys } from './search-support.js';

/** The operation each type's records are read (and audited, and shown in the access log) under. */
const OPERATION_OF_TYPE = {
  Patient: 'getPatientV2', RelatedPerson: 'getPatientV2', Appointment: 'getAppointments', Encounter: 'getContacts',
  AllergyIntolerance: 'getAttentionSignals', Flag: 'getAttentionSignals', MedicationRequest: 'getMedications',
  Composition: 'getJournalNotes', DiagnosticReport: 'getLabResults', Observation: 'getLabResults',
  Condition: 'getDiagnoses', Procedure: 'getDiagnoses', AuditEvent: 'getAccessLog',
} as const;
type TypeName = keyof typeof OPERATION_OF_TYPE;
const TYPES = Object.keys(OPERATION_OF_TYPE) as TypeName[];
/** Types each of Tolvan's reads holds records of, so a read by id can be tried. */
const READABLE = TYPES.filter((type) => type !== 'AuditEvent');

const requestIdOf = (res: LightMyRequestResponse): string => String(res.headers['x-request-id']);
/** The request ids an AuditEvent names (BALP's XrequestId entity). */
const requestIdsOf = (event: Resource): string[] =>
  (event.entity as { what: { identifier: { system?: string; value: string } }; type?: { code: string } }[])
    .filter((e) => e.type?.code === 'XrequestId').map((e) => e.what.identifier.value);

describe('every FHIR interaction leaves one audit record, before the answer', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'patient/*.read user/AccessLog-read');
  }, 60_000);
  afterAll(async () => t.close());

  /** The records a call left: exactly one, which the test then reads. */
  async function onlyRecordOf(call: () => Promise<LightMyRequestResponse>): Promise<{ res: LightMyRequestResponse; record: AuditRecord }> {
    const before = t.audit.records.length;
    const res = await call();
    const added = t.audit.records.slice(before);
    expect(added.map((r) => r.requestId)).toEqual([requestIdOf(res)]);
    return { res, record: added[0] as AuditRecord };
  }

  it.each(TYPES)('%s: a search (GET, POST _search, HEAD) is one record naming the patient and the operation of its data', async (type) => {
    const calls = [
      () => get(t, `/fhir/${type}?_count=1`, token),
      () => t.call({ method: 'POST', url: `/fhir/${type}/_search`, key: null, token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '_count=1' }),
      () => t.call({ method: 'HEAD', url: `/fhir/${type}?_count=1`, key: null, token }),
    ];
    for (const call of calls) {
      const { res, record } = await onlyRecordOf(call);
      expect(res.statusCode).toBe(200);
      expect(record).toMatchObject({
        operation: OPERATION_OF_TYPE[type], patientId: TOLVAN, outcome: 'allowed', status: 200, delegation: 'self', clientId: APP, actor: { personId: TOLVAN },
      });
    }
  });

  it.each(READABLE)('%s: a read by id is one record, under the same operation', async (type) => {
    const [first] = matchesOf(bundleOf(await get(t, `/fhir/${type}?_count=1`, token)));
    expect(first).toBeDefined();
    const { res, record } = await onlyRecordOf(() => get(t, `/fhir/${type}/${first?.id ?? ''}`, token));
    expect([res.statusCode, (JSON.parse(res.body) as Resource).id]).toEqual([200, first?.id]);
    expect(record).toMatchObject({ operation: OPERATION_OF_TYPE[type], patientId: TOLVAN, outcome: 'allowed', status: 200 });
  });

  // Issue 45 item 6: docs/fhir-api.md#interactions lists read for AuditEvent. Failed before: 405 for every id.
  it('AuditEvent: a read by id answers the entry of the caller\'s own log the search gave, under getAccessLog; the same policy as the search', async () => {
    const [event] = matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=3', token)));
    if (event === undefined) throw new Error('Tolvan\'s log is empty');
    const { res, record } = await onlyRecordOf(() => get(t, `/fhir/AuditEvent/${event.id}`, token));
    expect([res.statusCode, JSON.parse(res.body)]).toEqual([200, event]);
    expect(record).toMatchObject({ operation: 'getAccessLog', patientId: TOLVAN, outcome: 'allowed', status: 200 });
    expect((await get(t, `/fhir/AuditEvent/${event.id}?patient=${pid(TOLVAN)}`, token)).statusCode).toBe(200);
    // Not the caller's: another person's log (Märta's own), an edited id, a log the caller may not read.
    expect((await get(t, `/fhir/AuditEvent/${event.id}`, await smartToken(t, MARTA, 'patient/*.read user/AccessLog-read'))).statusCode).toBe(404);
    expect((await get(t, `/fhir/AuditEvent/${event.id.slice(0, -2)}xx`, token)).statusCode).toBe(404);
    expect((await get(t, `/fhir/AuditEvent/${event.id}?patient=${pid(LILLA)}`, token)).statusCode).toBe(403);
    expect((await get(t, `/fhir/AuditEvent/${event.id}`, await smartToken(t, TOLVAN, 'patient/Condition.read'))).statusCode).toBe(403);
  });

  it('a refused or failed interaction is one record too, naming whom it was about', async () => {
    const refusals = [
      { url: '/fhir/Observation', token: await smartToken(t, TOLVAN, 'patient/Condition.read'), status: 403, patient: TOLVAN, operation: 'getLabResults' },
      // Someone else's records, named in the query: the record names them, as a COS refusal names the patient header's.
      { url: `/fhir/Condition?patient=${pid(LILLA)}`, token, status: 403, patient: LILLA, operation: 'getDiagnoses' },
      { url: `/fhir/Condition/any-id?patient=${pid(LILLA)}`, token, status: 404, patient: LILLA, operation: 'getDiagnoses' },
      { url: `/fhir/AuditEvent?patient=${pid(LILLA)}`, token, status: 403, patient: LILLA, operation: 'getAccessLog' },
      { url: '/fhir/Condition/no-such-condition', token, status: 404, patient: TOLVAN, operation: 'getDiagnoses' },
      { url: '/fhir/Composition?date=yesterday', token, status: 400, patient: TOLVAN, operation: 'getJournalNotes' },
    ];
    for (const r of refusals) {
      const { res, record } = await onlyRecordOf(() => get(t, r.url, r.token));
      outcomeOf(res, r.status);
      expect([r.url, record.operation, record.patientId, record.outcome, record.status]).toEqual([r.url, r.operation, r.patient, 'denied', r.status]);
    }
  });

  // Hostile review (helper-75, F5): a FHIR request refused before its route named anyone was recorded
  // under the caller's own number, so a guardian's refused request about her child was in her own log.
  it('a request refused before its route named anyone is about the patient it names or its launch patient, on the caller\'s basis, else nobody; never the caller instead', async () => {
    const launched = await smartToken(t, MARTA, 'patient/*.read', { smart_patient: pid(LILLA) });
    const user = await smartToken(t, MARTA, 'user/*.read');
    const form = (params: string, type = 'application/x-www-form-urlencoded') => ({
      method: 'POST' as const, url: '/fhir/Condition/_search', key: null, token: user, payload: params, headers: { 'content-type': type },
    });
    const [condition] = matchesOf(bundleOf(await get(t, `/fhir/Condition?patient=${pid(LILLA)}&_count=1`, user)));
    type Refusal = { what: string; call: () => Promise<LightMyRequestResponse>; status?: number; patient: string | undefined; basis?: string };
    const refusals: Refusal[] = [
      { what: 'launched on the child, a bad date', call: () => get(t, '/fhir/Composition?date=yesterday', launched), patient: LILLA, basis: 'guardian' },
      { what: 'launched on the child, a bad _count', call: () => get(t, '/fhir/Encounter?_count=x', launched), patient: LILLA, basis: 'guardian' },
      // Named by the launch's own id, as SMART apps send it on every search: the caller has that id (helper-81).
      { what: 'launched on the child and naming her, a bad _count', call: () => get(t, `/fhir/Encounter?patient=${pid(LILLA)}&_count=x`, launched), patient: LILLA, basis: 'guardian' },
      // Named by a Patient id: no basis looked up, whose timing would tell a real id from a made-up one (helper-79).
      { what: 'the child named, a bad _count', call: () => get(t, `/fhir/Condition?patient=${pid(LILLA)}&_count=x`, user), patient: LILLA },
      { what: 'the child named in a _search form, a bad _count', call: () => t.call(form(`patient=${pid(LILLA)}&_count=x`)), patient: LILLA },
      { what: 'a stranger named, a bad _count', call: () => get(t, `/fhir/Condition?patient=${pid(ANTON)}&_count=x`, user), patient: ANTON },
      { what: 'the child named twice', call: () => get(t, `/fhir/Condition?patient=${pid(LILLA)}&patient=${pid(LILLA)}`, user), patient: undefined },
      { what: 'the child named beside a subject', call: () => get(t, `/fhir/Condition?patient=${pid(LILLA)}&subject=Patient/${pid(LILLA)}`, user), patient: undefined },
      { what: 'someone named by an unserved chain', call: () => get(t, `/fhir/Condition?subject:Patient=${pid(LILLA)}`, user), patient: undefined },
      { what: 'a Patient search by a bad identifier', call: () => get(t, '/fhir/Patient?identifier=nothing', user), patient: undefined },
      // A _search form refused unread may name anyone: nobody, not the launch patient (the review of 2026-11-29, F4).
      { what: 'a _search form of another charset', call: () => t.call(form(`patient=${pid(LILLA)}&_count=x`, 'application/x-www-form-urlencoded; charset=ISO-8859-1')), status: 415, patient: undefined },
      // A read by id is about the resource's patient, unknown until it is read (F5).
      { what: 'the child\'s Condition by id, an answer format not served', call: () => get(t, `/fhir/Condition/${condition?.id ?? ''}?_format=text/csv`, user), status: 406, patient: undefined },
    ];
    for (const r of refusals) {
      const { res, record } = await onlyRecordOf(r.call);
      expect([r.what, res.statusCode]).toEqual([r.what, r.status ?? 400]);
      expect([r.what, record.patientId, record.delegation, record.outcome, record.actor?.personId]).toEqual([r.what, r.patient, r.basis, 'denied', MARTA]);
    }
  });

  // Hostile review (helper-79, 2): the basis of such a refusal was looked up before the answer for a
  // real Patient id and not for a made-up one, so the answer's timing told them apart.
  it('looks nothing up for a refusal about a patient a Patient id named: a real id and a made-up one cost the same', async () => {
    const user = await smartToken(t, MARTA, 'user/*.read');
    const launched = await smartToken(t, MARTA, 'patient/*.read', { smart_patient: pid(LILLA) });
    const registry = vi.spyOn(t.ehr, 'relationshipsOf');
    const made = pid(LILLA);
    try {
      for (const id of [made, forgedLike(made)]) {
        registry.mockClear();
        outcomeOf(await get(t, `/fhir/Condition?patient=${id}&_count=x`, user), 400);
        expect([id, registry.mock.calls.length]).toEqual([id, 0]);
        // A bare id in another parameter leaves the launch patient presumed, genuine, forged or of another
        // form (helper-80: a real one made it nobody; helper-83: a served `_id` or token read so made
        // the launch patient's refused search nobody's while her answered one was hers).
        for (const query of [`date=garbage&performer=${id}`, `_id=${id}&_count=zz`, `code=${id}&_count=zz`, 'date=garbage&performer=no-such-resource-0']) {
          registry.mockClear();
          const { record } = await onlyRecordOf(() => get(t, `/fhir/Observation?${query}`, launched));
          expect([query, registry.mock.calls.length, record.patientId, record.delegation]).toEqual([query, 1, LILLA, 'guardian']);
        }
      }
    } finally {
      registry.mockRestore();
    }
  });

  // Märta's Patient list under user/ scopes reads herself, Lilla, Tolvan and Gösta, and tries Sara
  // (refused: protected). Failed before (one record per request): its one record named Sara, as
  // allowed, and none of the four whose data it answered.
  it('a Patient list under user/ scopes is in the access log of each person listed, and of nobody refused', async () => {
    const before = t.audit.records.length;
    const res = await get(t, '/fhir/Patient', await smartToken(t, MARTA, 'user/*.read'));
    const listed = matchesOf(bundleOf(res)).map((p) => p.id);
    expect(listed).toHaveLength(4);
    const added = t.audit.records.slice(before);
    const named = added.filter((r) => r.outcome === 'allowed').map((r) => r.patientId);
    expect(named).not.toContain('197305242385');
    expect([...named].sort()).toEqual([MARTA, LILLA, TOLVAN, '194608632396'].sort());
    // One request: one id, each record on the basis that person was read on.
    expect(new Set(added.map((r) => r.requestId))).toEqual(new Set([requestIdOf(res)]));
    expect(added.find((r) => r.patientId === MARTA)?.delegation).toBe('self');
    expect(added.filter((r) => r.patientId !== MARTA).every((r) => r.delegation !== 'self' && r.delegation !== undefined)).toBe(true);
  });

  // Failed before as the list did: a read by id reads each person Märta may act for in turn, herself
  // first, until it finds the resource, and its one record named only the last one read.
  it('a read by id under user/ scopes names each person whose records it read, the owner among them, and nobody refused', async () => {
    const [observation] = matchesOf(bundleOf(await get(t, '/fhir/Observation?_count=1', token)));
    const before = t.audit.records.length;
    const res = await get(t, `/fhir/Observation/${observation?.id ?? ''}`, await smartToken(t, MARTA, 'user/*.read'));
    expect(res.statusCode).toBe(200);
    const added = t.audit.records.slice(before);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((r) => r.outcome === 'allowed' && r.status === 200 && r.requestId === requestIdOf(res))).toBe(true);
    expect(added.map((r) => r.patientId)).toEqual(expect.arrayContaining([MARTA, TOLVAN]));
    expect(added.map((r) => r.patientId)).not.toContain('197305242385');
  });

  it('with the audit store down: 503 transient and no data, for a search, a read by id, POST _search and AuditEvent', async () => {
    const [report] = matchesOf(bundleOf(await get(t, '/fhir/DiagnosticReport?_count=1', token)));
    const calls = [
      () => get(t, '/fhir/Observation?_count=5', token),
      () => get(t, `/fhir/DiagnosticReport/${report?.id ?? ''}`, token),
      () => t.call({ method: 'POST', url: '/fhir/Condition/_search', key: null, token, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '_count=5' }),
      () => get(t, '/fhir/AuditEvent', token),
    ];
    t.audit.mode = 'fail';
    try {
      for (const call of calls) {
        const res = await call();
        expect(outcomeOf(res, 503).code).toBe('transient');
        expect(res.body).not.toMatch(/"entry"|"resourceType":"(Bundle|Observation|DiagnosticReport|Condition|AuditEvent)"/);
        expect(res.body).not.toContain(report?.id ?? '-');
        expect(res.headers['patient-data-filtered']).toBeUndefined();
      }
    } finally {
      t.audit.mode = 'ok';
    }
    expect((await get(t, '/fhir/Observation?_count=5', token)).statusCode).toBe(200);
  });
});

/** An audit store that holds a record until the test lets it be stored, as a slow store would. */
class HeldAuditTrail implements AuditTrail {
  readonly inner = new MemoryAuditTrail();
  private waiting: ((record: AuditRecord) => void) | undefined;
  private release: (() => void) | undefined;
  /** Resolves with the next record once its append has been called; that append waits for `store()`. */
  nextAppend(): Promise<AuditRecord> {
    return new Promise((resolve) => { this.waiting = resolve; });
  }
  store(): void {
    this.release?.();
  }
  append(record: AuditRecord): Promise<void> {
    const waiting = this.waiting;
    if (waiting === undefined) return this.inner.append(record);
    this.waiting = undefined;
    return new Promise((resolve) => {
      this.release = () => resolve(this.inner.append(record));
      waiting(record);
    });
  }
  ping(): Promise<boolean> { return this.inner.ping(); }
  close(): Promise<void> { return this.inner.close(); }
}

describe('the audit record is stored before the answer leaves', () => {
  let t: TestApp;
  const held = new HeldAuditTrail();
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, auditTrail: held, accessLog: held.inner });
  }, 60_000);
  afterAll(async () => t.close());

  it('while the store has not taken the record, no answer has come; once stored, the answer comes', async () => {
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    const appended = held.nextAppend();
    let answered = false;
    const pending = get(t, '/fhir/DiagnosticReport?_count=2', token).then((res) => { answered = true; return res; });
    const record = await appended;
    // Give the answer every chance to arrive (two turns of the event loop) while the record waits.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect([record.operation, record.patientId, answered]).toEqual(['getLabResults', TOLVAN, false]);
    held.store();
    const res = await pending;
    expect([res.statusCode, requestIdOf(res)]).toEqual([200, record.requestId]);
    expect(held.inner.records.map((r) => r.requestId)).toContain(record.requestId);
  });
});

describe('the patient\'s access log, through the COS API and as FHIR AuditEvents', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'patient/*.read user/AccessLog-read');
  }, 60_000);
  afterAll(async () => t.close());

  const cosLog = async (): Promise<{ res: LightMyRequestResponse; entries: AccessLogEntry[] }> => {
    const res = await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token: await t.personToken(TOLVAN) });
    expect(res.statusCode).toBe(200);
    return { res, entries: res.json() as AccessLogEntry[] };
  };

  it('names a FHIR DiagnosticReport read "Provsvar" / "Lab results", and each FHIR read by the data it read', async () => {
    const [report] = matchesOf(bundleOf(await get(t, '/fhir/DiagnosticReport?_count=1', token)));
    const reads = {
      report: await get(t, `/fhir/DiagnosticReport/${report?.id ?? ''}`, token),
      observations: await get(t, '/fhir/Observation', token),
      notes: await get(t, '/fhir/Composition', token),
      delegated: await get(t, `/fhir/Condition?patient=${pid(TOLVAN)}`, await smartToken(t, MARTA, 'user/*.read')),
    };
    const { entries } = await cosLog();
    const entryOf = (res: LightMyRequestResponse) => entries.find((e) => e.requestId === requestIdOf(res));
    expect(entryOf(reads.report)).toMatchObject({ operation: 'getLabResults', operationDisplayName: { sv: 'Provsvar', en: 'Lab results' }, outcome: 'allowed', basis: 'self' });
    expect(entryOf(reads.observations)).toMatchObject({ operation: 'getLabResults', operationDisplayName: { sv: 'Provsvar', en: 'Lab results' } });
    expect(entryOf(reads.notes)).toMatchObject({ operation: 'getJournalNotes', operationDisplayName: OPERATIONS.getJournalNotes.displayName });
    expect(entryOf(reads.delegated)).toMatchObject({ operation: 'getDiagnoses', operationDisplayName: OPERATIONS.getDiagnoses.displayName, basis: 'power-of-attorney', actorPersonId: MARTA });
  });

  // Failed before (200 with every entry: _id was taken and not applied).
  it('refuses a search of AuditEvent by _id, saying what it is searched by', async () => {
    const [event] = matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=1', token)));
    const res = await get(t, `/fhir/AuditEvent?_id=${event?.id ?? 'x'}`, token);
    expect(outcomeOf(res, 400).diagnostics).toContain('patient and date');
  });

  it('GET /fhir/AuditEvent?patient=… answers the same entries as the COS log, each naming its request\'s id', async () => {
    // Some traffic about Tolvan of every kind: FHIR and COS, his own, delegated, refused.
    await get(t, '/fhir/Encounter', token);
    await t.call({ method: 'GET', url: '/patients/diagnoses/', token: await t.personToken(TOLVAN) });
    await get(t, `/fhir/Encounter?patient=${pid(TOLVAN)}`, await smartToken(t, MARTA, 'user/*.read'));
    await get(t, '/fhir/Observation', await smartToken(t, TOLVAN, 'patient/Condition.read'));
    const { res: cosCall, entries } = await cosLog();
    const cosFhir = await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token: await t.personToken(TOLVAN), headers: { accept: 'application/fhir+json' } });
    const asCosFhir = (cosFhir.json() as Bundle).entry?.map((e) => e.resource) ?? [];
    for (const url of [`/fhir/AuditEvent?_count=500&patient=${pid(TOLVAN)}`, `/fhir/AuditEvent?_count=500&patient=Patient/${pid(TOLVAN)}`]) {
      const events = bundleOf(await get(t, url, token));
      const ids = matchesOf(events).flatMap(requestIdsOf);
      // The COS log read, then the COS log read as FHIR, each one more entry: every entry once, in the log's order.
      expect(ids.slice(0, entries.length + 2)).toEqual([...entries.map((e) => e.requestId), requestIdOf(cosCall), requestIdOf(cosFhir)]);
      expect(events.total).toBe(matchesOf(events).length);
      // The same AuditEvents the COS log answers as FHIR, ids included: an app reading both doors sees one event once
      // (left alone by earlier sessions: the COS door's had none).
      expect(matchesOf(events).slice(0, asCosFhir.length).every(({ id }) => /^[A-Za-z0-9\-.]{1,64}$/.test(id))).toBe(true);
      expect(matchesOf(events).slice(0, asCosFhir.length)).toEqual(asCosFhir);
      matchesOf(events).forEach((e, i) => {
        const entry = entries[i];
        if (entry === undefined) return;
        expect(e.subtype).toContainEqual(expect.objectContaining({ code: entry.operation, display: entry.operationDisplayName.en }));
      });
      expect(JSON.stringify(events.link)).not.toContain(TOLVAN);
    }
    expect(entries.length).toBeGreaterThan(4);
  });

  it('AuditEvent pages of two, followed to the end, hold every entry once', async () => {
    const whole = matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=500', token))).flatMap(requestIdsOf);
    const pages = await allPages(t, '/fhir/AuditEvent?_count=2', token);
    const paged = pages.flatMap(matchesOf).flatMap(requestIdsOf);
    expect(pages.slice(0, -1).every((p) => matchesOf(p).length === 2)).toBe(true);
    // Every entry logged before the paging began, once and in order; the paging's own requests follow.
    expect(paged.slice(0, whole.length)).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
    expect(keys(pages.flatMap(matchesOf)).every((k) => k.startsWith('AuditEvent/'))).toBe(true);
  });
});

describe('AuditEvent search takes the parameters every search does: _count and its date', () => {
  let t: TestApp;
  let token: string;
  /** Tolvan's reads at these instants (a summer and a winter moment, a second apart in winter), then the searches at QUERIED. */
  const SUMMER = Date.parse('2026-07-01T10:00:00+02:00');
  const WINTER = Date.parse('2026-11-21T09:00:00+01:00');
  const QUERIED = Date.parse('2026-11-21T10:00:00+01:00');
  const READS = 60;
  beforeAll(async () => {
    t = await startTestApp({ now: SUMMER });
    // Valid at every moment the clock is set to here, whenever the suite runs.
    token = await smartToken(t, TOLVAN, 'patient/*.read user/AccessLog-read', { exp: Math.max(Math.floor(Date.now() / 1000), QUERIED / 1000) + 3600 });
    for (let i = 0; i < READS; i++) {
      t.clock.set(i < 20 ? SUMMER : WINTER + (i - 20) * 1000);
      expect((await get(t, '/fhir/Flag?_count=0', token)).statusCode).toBe(200);
    }
    t.clock.set(QUERIED);
  }, 60_000);
  afterAll(async () => t.close());

  const events = async (query: string): Promise<Bundle> => bundleOf(await get(t, `/fhir/AuditEvent?${query}`, token));
  /** The entries of the reads above (the searches' own entries, all at QUERIED, left out). */
  const readsIn = (b: Bundle): string[] => matchesOf(b).filter((e) => Date.parse(e.recorded as string) < QUERIED).flatMap(requestIdsOf);

  it('50 by default, the count asked for, 500 at most, and 0 for the total alone', async () => {
    const byDefault = await events('');
    expect([matchesOf(byDefault).length, byDefault.link.some((l) => l.relation === 'next')]).toEqual([50, true]);
    expect(matchesOf(await events('_count=50'))).toHaveLength(50);
    expect(matchesOf(await events('_count=7'))).toHaveLength(7);
    const capped = await events('_count=600');
    expect(new URL(capped.link[0]?.url ?? '').searchParams.get('_count')).toBe('500');
    expect(readsIn(capped)).toHaveLength(READS);
    const totalOnly = await events('_count=0');
    expect([totalOnly.entry, totalOnly.link.map((l) => l.relation)]).toEqual([undefined, ['self']]);
    expect(totalOnly.total).toBe(matchesOf(await events('_count=500')).length - 1);
  });

  // The self link left `_cursor` out, so a page's self named the first page (hostile review helper-88):
  // every other search's self names its own page.
  it('a page\'s self link names that page: its cursor, which reads the same page again', async () => {
    const first = await events('_count=7');
    const next = first.link.find((l) => l.relation === 'next')?.url ?? '';
    const second = bundleOf(await get(t, next.replace(/^.*\/fhir\//, '/fhir/'), token));
    const self = second.link.find((l) => l.relation === 'self')?.url ?? '';
    expect(self).toBe(next);
    const again = bundleOf(await get(t, self.replace(/^.*\/fhir\//, '/fhir/'), token));
    expect(matchesOf(again).flatMap(requestIdsOf)).toEqual(matchesOf(second).flatMap(requestIdsOf));
    expect(first.link.find((l) => l.relation === 'self')?.url).not.toContain('_cursor');
  });

  it('date with eq, ge, gt, le and lt, a zone-less value read as Stockholm time, summer and winter', async () => {
    const all = await events('_count=500');
    const recordedOf = new Map(matchesOf(all).flatMap((e) => requestIdsOf(e).map((id) => [id, Date.parse(e.recorded as string)] as const)));
    const ids = (rule: (ms: number) => boolean): string[] => readsIn(all).filter((id) => rule(recordedOf.get(id) ?? NaN));
    const cases: [string, (ms: number) => boolean][] = [
      ['ge2026-11-21T09:00:00', (ms) => ms >= WINTER],
      ['gt2026-11-21T09:00:00', (ms) => ms >= WINTER + 1000],
      ['lt2026-11-21T09:00:00', (ms) => ms < WINTER],
      ['le2026-11-21T09:00:05', (ms) => ms < WINTER + 6000],
      ['eq2026-11-21T09:00:05', (ms) => ms === WINTER + 5000],
      ['eq2026-11-21', (ms) => ms >= WINTER],
      ['lt2026-07-01T10:00:01', (ms) => ms === SUMMER],
      ['lt2026-07-01T10:00:00', () => false],
      ['ge2026-07-01T08:00:00Z', (ms) => ms >= SUMMER],
      ['eq2026-07-01', (ms) => ms === SUMMER],
    ];
    for (const [value, rule] of cases) {
      expect([value, readsIn(await events(`_count=500&date=${encodeURIComponent(value)}`))]).toEqual([value, ids(rule)]);
    }
    expect(ids((ms) => ms === SUMMER)).toHaveLength(20);
    // Two conditions together: a window.
    expect(readsIn(await events('_count=500&date=ge2026-11-21T09:00:10&date=lt2026-11-21T09:00:20'))).toEqual(ids((ms) => ms >= WINTER + 10_000 && ms < WINTER + 20_000));
    outcomeOf(await get(t, '/fhir/AuditEvent?date=yesterday', token), 400);
  });

  // Hostile review (helper-86, 3): a bound or an id's time past year 9999 or before year 1 in local time
  // was a 500 (a RangeError), recorded as a failed read in the patient's log.
  it('a date at the ends of the calendar and an id whose time no calendar holds answer as any other: every entry, none, or 404', async () => {
    const everything = readsIn(await events('_count=500'));
    expect(readsIn(await events(`_count=500&date=${encodeURIComponent('le9999-12-31T23:59:59Z')}`))).toEqual(everything);
    expect(readsIn(await events(`_count=500&date=${encodeURIComponent('ge0001-01-01T00:00:00Z')}`))).toEqual(everything);
    for (const date of ['lt0001-01-01', 'gt9999-12-31T23:59:59Z', 'eq0001-01-01']) expect([date, readsIn(await events(`_count=500&date=${date}`))]).toEqual([date, []]);
    for (const id of ['2gosa7pa2gv-x', '2htner8qo0-x', '2d2mh7dt6o0-x', 'zzzzzzzzzzzz-x', '1-x']) {
      expect([id, outcomeOf(await get(t, `/fhir/AuditEvent/${id}`, token), 404).code]).toEqual([id, 'not-found']);
    }
  });
});

// A fraction of a second was read and thrown away, and the log's range was whole seconds: `ge…51.500` showed
// an entry at .028 and `lt…51.050` left it out (hostile review helper-89, 2).
describe('AuditEvent date to the millisecond', () => {
  let t: TestApp;
  let token: string;
  const SECOND = Date.parse('2026-11-21T09:00:51+01:00');
  const QUERIED = SECOND + 60_000;
  beforeAll(async () => {
    t = await startTestApp({ now: SECOND });
    token = await smartToken(t, TOLVAN, 'patient/*.read user/AccessLog-read', { exp: Math.max(Math.floor(Date.now() / 1000), QUERIED / 1000) + 3600 });
    for (const ms of [28, 60, 999]) {
      t.clock.set(SECOND + ms);
      expect((await get(t, '/fhir/Flag?_count=0', token)).statusCode).toBe(200);
    }
    t.clock.set(QUERIED);
  });
  afterAll(async () => t.close());

  const recorded = async (dates: string): Promise<number[]> =>
    matchesOf(bundleOf(await get(t, `/fhir/AuditEvent?_count=500&${dates}`, token))).map((e) => Date.parse(e.recorded as string) - SECOND)
      .filter((ms) => ms < 60_000);

  it('keeps the bound a value gives, to the millisecond, on both ends and in either form', async () => {
    expect(await recorded('date=ge2026-11-21T09:00:51')).toEqual([28, 60, 999]);
    expect(await recorded('date=ge2026-11-21T09:00:51.500')).toEqual([999]);
    expect(await recorded('date=gt2026-11-21T09:00:51.028&date=lt2026-11-21T09:00:51.999')).toEqual([60]);
    expect(await recorded('date=ge2026-11-21T09:00:51.000&date=lt2026-11-21T09:00:51.050')).toEqual([28]);
    expect(await recorded('date=eq2026-11-21T08:00:51.06Z')).toEqual([60]);
    expect(await recorded('date=le2026-11-21T09:00:51.0284%2B01:00&date=ge2026-11-21T09:00:51.028')).toEqual([28]);
    expect(await recorded('date=lt2026-11-21T09:00:51.0281%2B01:00&date=ge2026-11-21T09:00:51.028')).toEqual([28]);
    expect(await recorded('date=gt2026-11-21T09:00:51.0281%2B01:00&date=le2026-11-21T09:00:51.029')).toEqual([]);
  });
});

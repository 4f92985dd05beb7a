/**
 * docs/contract.md#the-patients-access-log: an entry names every kind of the patient's data its request
 * read, not only the one it is named for. A FHIR search with an include reads the included type's data
 * too (a delegate's `Encounter?_revinclude=Composition:encounter` reads the journal notes), and a
 * `$summary` reads each of its sections' data: the patient's log named only "Vårdkontakter" and
 * "Sammanfattning" (hostile review helper-90, F2). Each other read is in the entry's `alsoRead`, and in
 * its AuditEvent as a further subtype; a request that sent no answer, or a read by id, names one read.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccessLogEntry } from '../../../src/domain/access-log/access-log-entry.js';
import { OPERATIONS } from '../../../src/domain/operations/table.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, includesOf, MARTA, matchesOf, NOW, pid, smartToken, TOLVAN, type Bundle, type Resource } from './fhir-calls.js';

const OPERATION_SYSTEM = 'urn:patient-data-access:operation';
const requestIdOf = (res: LightMyRequestResponse): string => String(res.headers['x-request-id']);

describe('an entry names every kind of data its request read', () => {
  let t: TestApp;
  let marta: string;
  let tolvan: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    marta = await smartToken(t, MARTA, 'user/*.rs');
    tolvan = await smartToken(t, TOLVAN, 'patient/*.rs user/AccessLog-read');
  }, 60_000);
  afterAll(async () => t.close());

  const recordOf = (res: LightMyRequestResponse): OutcomeRecord | undefined =>
    t.audit.records.find((r) => r.requestId === requestIdOf(res) && r.phase === undefined) as OutcomeRecord | undefined;
  const cosEntryOf = async (res: LightMyRequestResponse): Promise<AccessLogEntry | undefined> => {
    const log = await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token: await t.personToken(TOLVAN) });
    expect(log.statusCode).toBe(200);
    return (log.json() as AccessLogEntry[]).find((e) => e.requestId === requestIdOf(res));
  };
  const auditEventOf = async (res: LightMyRequestResponse): Promise<Resource | undefined> =>
    matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=500', tolvan)))
      .find((e) => JSON.stringify(e.entity).includes(requestIdOf(res)));
  const operationsOf = (event: Resource | undefined): string[] =>
    ((event?.subtype ?? []) as { system: string; code: string }[]).filter((s) => s.system === OPERATION_SYSTEM).map((s) => s.code);

  it('a delegate\'s search with a revinclude of journal notes: named for the care contacts, the journal notes beside them', async () => {
    const res = await get(t, `/fhir/Encounter?patient=${pid(TOLVAN)}&_revinclude=Composition:encounter&_count=500`, marta);
    const bundle: Bundle = bundleOf(res);
    expect(includesOf(bundle).filter((r) => r.resourceType === 'Composition').length).toBeGreaterThan(0);
    expect(recordOf(res)).toMatchObject({ operation: 'getContacts', alsoRead: ['getJournalNotes'], patientId: TOLVAN, delegation: 'power-of-attorney' });
    expect(await cosEntryOf(res)).toMatchObject({
      operation: 'getContacts', operationDisplayName: OPERATIONS.getContacts.displayName,
      alsoRead: [{ operation: 'getJournalNotes', operationDisplayName: OPERATIONS.getJournalNotes.displayName }],
    });
    expect(operationsOf(await auditEventOf(res))).toEqual(['getContacts', 'getJournalNotes']);
  });

  it('$summary: each section\'s data besides the summary itself', async () => {
    const res = await get(t, `/fhir/Patient/${pid(TOLVAN)}/$summary`, tolvan);
    expect(res.statusCode).toBe(200);
    const record = recordOf(res);
    expect(record?.operation).toBe('getPatientSummary');
    expect(record?.alsoRead).toEqual(expect.arrayContaining(['getMedications', 'getLabResults', 'getDiagnoses', 'getAttentionSignals']));
    expect((await cosEntryOf(res))?.alsoRead?.map((a) => a.operation)).toEqual(record?.alsoRead);
  });

  it('a search without includes, a read by id and a request answered with an error name one read', async () => {
    const search = await get(t, '/fhir/Encounter?_count=1', tolvan);
    const [encounter] = matchesOf(bundleOf(search));
    const byId = await get(t, `/fhir/Encounter/${encounter?.id ?? ''}`, tolvan);
    expect(byId.statusCode).toBe(200);
    // Read, and then refused for its cursor: nothing was shown, so nothing besides its own read is named.
    const refused = await get(t, '/fhir/Encounter?_revinclude=Composition:encounter&_cursor=not-a-cursor', tolvan);
    expect(refused.statusCode).toBe(400);
    // An include of a type its parameter cannot name reads nothing for it (hostile review helper-95, F2: the medicines were read).
    const impossible = await get(t, '/fhir/Encounter?_include=Encounter:patient:MedicationRequest', tolvan);
    expect(impossible.statusCode).toBe(200);
    for (const res of [search, byId, refused, impossible]) {
      expect(recordOf(res)?.operation).toBe('getContacts');
      expect(recordOf(res)).not.toHaveProperty('alsoRead');
      expect(await cosEntryOf(res)).not.toHaveProperty('alsoRead');
      expect(operationsOf(await auditEventOf(res))).toEqual(['getContacts']);
    }
  });

  // Hostile review helper-94, F2: a party read by id was named for its type's first read, whatever showed it; since
  // alsoRead it would have named every read looked through to find it. Now: the reads whose shown records name it.
  it('a party read by id: named for the reads whose shown records name it, and only those', async () => {
    const READS = [
      ['user/JournalNote-read', 'getJournalNotes'], ['user/LabResult-read', 'getLabResults'], ['user/Contact-read', 'getContacts'],
      ['user/MedicationPrescription-read', 'getMedications'], ['user/Diagnosis-read', 'getDiagnoses'], ['user/Appointment-read', 'getAppointments'],
      ['user/VideoMeeting-read', 'getVideoMeetings'], ['user/AttentionSignal-read', 'getAttentionSignals'],
    ] as const;
    const partiesOf = async (scope: string): Promise<string[]> =>
      matchesOf(bundleOf(await get(t, '/fhir/Practitioner?_count=500', await smartToken(t, TOLVAN, scope)))).map((r) => r.id);
    const byRead = await Promise.all(READS.map(async ([scope, read]) => ({ read, parties: await partiesOf(scope) })));
    const [party] = byRead.find((r) => r.read === 'getJournalNotes')?.parties ?? [];
    expect(party).toBeDefined();
    const naming = byRead.filter((r) => r.parties.includes(party ?? '')).map((r) => r.read);
    // Under the notes' scope alone, the notes; under every scope, each read whose records name it.
    const notesOnly = await get(t, `/fhir/Practitioner/${party ?? ''}`, await smartToken(t, TOLVAN, 'user/JournalNote-read'));
    expect(notesOnly.statusCode).toBe(200);
    expect(recordOf(notesOnly)).toMatchObject({ operation: 'getJournalNotes' });
    expect(recordOf(notesOnly)).not.toHaveProperty('alsoRead');
    const every = await get(t, `/fhir/Practitioner/${party ?? ''}`, await smartToken(t, TOLVAN, READS.map(([scope]) => scope).join(' ')));
    expect(every.statusCode).toBe(200);
    const record = recordOf(every);
    expect([record?.operation, ...(record?.alsoRead ?? [])].sort()).toEqual([...naming].sort());
  });

  // Hostile review helper-97, F3: an entry named reads whose records the answer did not hold (an empty page, a
  // listing's other people); F2: a read by id under user/ scopes named the reads of people it found nothing of.
  it('names the other reads whose records the answer holds, not every read looked through', async () => {
    const empty = await get(t, `/fhir/Encounter?patient=${pid(TOLVAN)}&_revinclude=Composition:encounter&_count=0`, marta);
    expect(bundleOf(empty).total).toBeGreaterThan(0);
    expect(recordOf(empty)).toMatchObject({ operation: 'getContacts' });
    expect(recordOf(empty)).not.toHaveProperty('alsoRead');

    // Helper-98, F2: a party two people's records name (a care unit) counted as the last person's.
    for (const [query, type, read] of [['_revinclude=Composition:patient', 'Composition', 'getJournalNotes'],
      ['_revinclude=Encounter:patient&_include:iterate=Encounter:service-provider', 'Encounter', 'getContacts']] as const) {
      const before = t.audit.records.length;
      const page = bundleOf(await get(t, `/fhir/Patient?${query}&_count=1`, marta));
      const [shown] = matchesOf(page);
      const records = t.audit.records.slice(before) as OutcomeRecord[];
      expect(records.length).toBeGreaterThan(1);
      const onPage = records.filter((r) => pid(r.patientId ?? '') === shown?.id);
      expect(onPage).toHaveLength(1);
      expect([query, onPage[0]?.alsoRead]).toEqual([query, includesOf(page).some((r) => r.resourceType === type) ? [read] : undefined]);
      for (const other of records.filter((r) => r !== onPage[0])) expect([query, other.patientId, other.alsoRead]).toEqual([query, other.patientId, undefined]);
    }

    const meetings = matchesOf(bundleOf(await get(t, '/fhir/Appointment?_count=500', await smartToken(t, TOLVAN, 'user/VideoMeeting-read'))));
    const byId = await get(t, `/fhir/Appointment/${meetings[0]?.id ?? ''}`, await smartToken(t, MARTA, 'user/*.rs'));
    expect(byId.statusCode).toBe(200);
    const read = t.audit.records.filter((r) => r.requestId === requestIdOf(byId)) as OutcomeRecord[];
    expect(read.map((r) => [r.patientId, r.operation, r.alsoRead]).sort()).toEqual(
      read.map((r) => [r.patientId, r.patientId === TOLVAN ? 'getVideoMeetings' : 'getAppointments', undefined]).sort());
  });

  // Hostile review helper-97, F4: both of a Patient's layouts were read for every `:patient` include and every
  // `$summary` (and named twice, "Personuppgifter, Personuppgifter"); the newest that holds the person answers.
  it('reads one of a Patient\'s layouts for a :patient include and a $summary, as for a read of the Patient', async () => {
    const layouts = (['getPatientV2', 'getPatient'] as const).map((read) => vi.spyOn(t.ehr.reads, read));
    try {
      for (const url of [`/fhir/Observation?patient=${pid(TOLVAN)}&_include=Observation:patient`, `/fhir/Patient/${pid(TOLVAN)}/$summary`, `/fhir/Patient/${pid(TOLVAN)}`]) {
        layouts.forEach((spy) => spy.mockClear());
        const res = await get(t, url, tolvan);
        expect([url, res.statusCode]).toEqual([url, 200]);
        // The older layout once, for the access decision (it holds the protected-identity mark), as on any request.
        expect([url, layouts.map((spy) => spy.mock.calls.length)]).toEqual([url, [1, 1]]);
        expect([url, [recordOf(res)?.operation, ...(recordOf(res)?.alsoRead ?? [])].filter((read) => read === 'getPatient' || read === 'getPatientV2')])
          .toEqual([url, ['getPatientV2']]);
      }
    } finally {
      layouts.forEach((spy) => spy.mockRestore());
    }
  });

  // Hostile review helper-98, F3: an Organization search makes every read, the older Patient layout among the first,
  // so its revinclude of the Patient handed over the older layout (another address), and named getPatient.
  it('a party search that includes the Patient answers the newest layout, as a read of the Patient does', async () => {
    const patient = (await get(t, `/fhir/Patient/${pid(TOLVAN)}`, tolvan)).json() as Resource;
    const res = await get(t, '/fhir/Organization?_revinclude=Patient:organization&_count=500', tolvan);
    const [included] = includesOf(bundleOf(res)).filter((r) => r.resourceType === 'Patient');
    expect(included).toEqual(patient);
    const named = [recordOf(res)?.operation, ...(recordOf(res)?.alsoRead ?? [])];
    expect([named.includes('getPatientV2'), named.includes('getPatient')]).toEqual([true, false]);
  });

  // Hostile review helper-98, F5: HEAD named the reads of a body it never sent; F4: a party search was named for the
  // type's first read (appointments) whatever its page held, and the same party by id for the reads that name it.
  it('HEAD hands nothing over, and a party search is named as a read of the same party by id', async () => {
    for (const url of [`/fhir/Encounter?patient=${pid(TOLVAN)}&_revinclude=Composition:encounter`, `/fhir/Patient/${pid(TOLVAN)}/$summary`]) {
      const head = await t.call({ method: 'HEAD', url, key: null, token: tolvan });
      expect([url, head.statusCode]).toEqual([url, 200]);
      expect([url, recordOf(head)?.alsoRead]).toEqual([url, undefined]);
    }
    const named = new Set<string>();
    for (const type of ['Location', 'Practitioner', 'Organization']) {
      for (const party of matchesOf(bundleOf(await get(t, `/fhir/${type}?_count=500`, tolvan))).slice(0, 6)) {
        const byId = recordOf(await get(t, `/fhir/${type}/${party.id}`, tolvan));
        const bySearch = recordOf(await get(t, `/fhir/${type}?_id=${party.id}`, tolvan));
        expect([party.id, bySearch?.operation, bySearch?.alsoRead]).toEqual([party.id, byId?.operation, byId?.alsoRead]);
        named.add(byId?.operation ?? '');
      }
    }
    // Parties other reads than the bookings name are among them: the case where the two told apart.
    expect([...named].filter((read) => read !== 'getAppointments').length).toBeGreaterThan(0);
  });

  // Hostile review helper-100, F2: a $summary named every read it made, the lab results among them when a category
  // restriction left its Results section out and no result was handed over.
  it('a $summary names the reads of what it holds and of a section saying "none", not of a section left out', async () => {
    const vitals = await smartToken(t, TOLVAN, 'patient/Observation.rs?category=vital-signs patient/Patient.rs');
    const res = await get(t, `/fhir/Patient/${pid(TOLVAN)}/$summary`, vitals);
    expect(res.statusCode).toBe(200);
    const types = (bundleOf(res).entry ?? []).map((e) => e.resource.resourceType);
    expect(types).not.toContain('Observation');
    expect(recordOf(res)?.alsoRead ?? []).not.toContain('getLabResults');
    // Where the section holds results, they are named.
    const all = await get(t, `/fhir/Patient/${pid(TOLVAN)}/$summary`, tolvan);
    expect(recordOf(all)?.alsoRead).toContain('getLabResults');
  });
});

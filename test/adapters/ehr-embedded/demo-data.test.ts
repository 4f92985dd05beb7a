import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE, generateDemoData, UNKNOWN_PATIENT_ID } from '../../../src/dev/demo-data/generate.js';
import { mapDocument, mapRelationships } from '../../../src/adapters/ehr-xml/index.js';
import { DOCUMENT_KINDS } from '../../../src/adapters/ehr-xml/documents.js';
import { parsePersonalIdentityNumber } from '../../../src/domain/identity/personal-identity-number.js';
import type { JournalRecord } from '../../../src/domain/records/index.js';
import {
  compactToEpochMs, isCompactDate, isCompactDateTime, localDate,
} from '../../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';
// 09:00 local time on Saturday 21 November 2026 (CET).
const NOW = Date.UTC(2026, 10, 21, 8, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const TOLVAN = '191212121212';
const MARTA = '198112189876';
const LILLA = '201701012393';
const SARA = '197305242385';
// Every document of the legacy EHR's table: a read added there is generated, and mapped here, for every person.
const KINDS = DOCUMENT_KINDS;

// Only what these tests walk through is declared repeated; everything else stays a single object.
const REPEATED = new Set([
  'BookedAppointmentsResult', 'Booking', 'RegisteredBooking', 'VideoMeeting', 'contactEHRExtract', 'AttentionSignalEHRExtract',
  'JournalNoteEHRExtract', 'PrescriptionEHRExtract', 'Relationship', 'PatientEHRExtract', 'PatientAddress', 'Phone',
  'patientEHRExtract', 'Record', 'Value', 'Agent',
]);
const parser = new XMLParser({
  ignoreAttributes: false, removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false,
  trimValues: true, htmlEntities: true, isArray: (name) => REPEATED.has(name),
});

type Tree = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let base: string;
let dir: string;

async function generate(target: string, now: number, zone = ZONE): Promise<void> {
  await generateDemoData(target, { now, zone });
}

async function read(root: string, ...parts: string[]): Promise<string> {
  return readFile(path.join(root, ...parts), 'utf8');
}

async function parsed(root: string, ...parts: string[]): Promise<Tree> {
  return parser.parse(await read(root, ...parts)) as Tree;
}

async function bookingsOf(root: string, patient: string): Promise<{ contactId: string; start: string }[]> {
  const doc = await parsed(root, 'patients', patient, 'bookings.xml');
  return (doc.BookedAppointmentsResults.BookedAppointmentsResult as Tree[])
    .flatMap((r) => (r.Booking ?? []) as Tree[])
    .map((b) => ({ contactId: b.ContactId as string, start: b.StartTime['@_value'] as string }));
}

async function allContactIds(root: string): Promise<string[]> {
  const ids = await Promise.all(DEMO_PEOPLE.map(async (p) => (await bookingsOf(root, p.id)).map((b) => b.contactId)));
  return ids.flat();
}

async function allDocuments(root: string): Promise<{ file: string; xml: string }[]> {
  const files = [
    ...DEMO_PEOPLE.flatMap((p) => KINDS.map((k) => path.join('patients', p.id, `${k}.xml`))),
    ...(await readdir(path.join(root, 'relationships'))).map((f) => path.join('relationships', f)),
  ];
  return Promise.all(files.map(async (file) => ({ file, xml: await read(root, file) })));
}

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'demo-ehr-test-'));
  dir = path.join(base, 'demo-ehr');
  await generate(dir, NOW);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('demo data layout', () => {
  it('writes one folder per demo person with every document of the legacy EHR, and none for the unknown patient', async () => {
    expect((await readdir(path.join(dir, 'patients'))).sort()).toEqual(DEMO_PEOPLE.map((p) => p.id).sort());
    for (const person of DEMO_PEOPLE) {
      expect((await readdir(path.join(dir, 'patients', person.id))).sort())
        .toEqual(KINDS.map((k) => `${k}.xml`).sort());
    }
    await expect(readdir(path.join(dir, 'patients', UNKNOWN_PATIENT_ID))).rejects.toThrow(/ENOENT/);
    expect(await readdir(path.join(dir, 'relationships'))).toContain(`${MARTA}.xml`);
  });

  it('uses only valid test identity numbers, the unknown one included', () => {
    expect(DEMO_PEOPLE.map((p) => p.id)).toEqual([TOLVAN, MARTA, LILLA, '200404122384', '194608632396', SARA]);
    for (const id of [...DEMO_PEOPLE.map((p) => p.id), UNKNOWN_PATIENT_ID]) {
      expect(parsePersonalIdentityNumber(id)).toBe(id);
    }
  });

  it('writes well-formed XML without any DTD, every time value 8 or 14 valid digits', async () => {
    const docs = await allDocuments(dir);
    expect(docs.length).toBe(DEMO_PEOPLE.length * (KINDS.length + 1));
    for (const { file, xml } of docs) {
      expect(XMLValidator.validate(xml), file).toBe(true);
      expect(xml, file).not.toMatch(/<!(DOCTYPE|ENTITY)/i);
      for (const m of xml.matchAll(/<(?:\w+:)?(\w+) (?:qualifier="CL" )?value="([^"]*)"\/>/g)) {
        if (['displayName', 'DisplayName', 'PatientGivenName', 'patientGivenName', 'givenName'].includes(m[1] ?? '')) continue;
        const value = m[2] ?? '';
        // An empty TS value means "absent" in the vendor layouts; patient v2 has one on purpose.
        if (value === '' && m[1] === 'patientPassValidTo') continue;
        expect(isCompactDateTime(value) || isCompactDate(value), `${file} ${m[1]}=${value}`).toBe(true);
      }
    }
  });

  it('swaps the whole set into place and leaves no temporary folder behind', async () => {
    const target = path.join(base, 'swap');
    await generate(target, NOW);
    await writeFile(path.join(target, 'leftover.txt'), 'from the previous set');
    await generate(target, NOW + DAY);
    expect(await readdir(target)).toEqual(expect.arrayContaining(['patients', 'relationships']));
    expect(await readdir(target)).not.toContain('leftover.txt');
    expect((await readdir(base)).filter((n) => n.startsWith('swap'))).toEqual(['swap']);
  });

  it('refuses to replace a folder it did not generate, and leaves it untouched', async () => {
    const foreign = path.join(base, 'region-data');
    await generate(path.join(foreign, 'ignored'), NOW); // creates the folder with unrelated content
    await writeFile(path.join(foreign, 'README.txt'), 'a region\'s own documents');
    await expect(generate(foreign, NOW)).rejects.toThrow(/refusing to replace/);
    expect((await readdir(foreign)).sort()).toEqual(['README.txt', 'ignored']);
  });

  it('still replaces a set generated before the marker file existed', async () => {
    const legacy = path.join(base, 'legacy');
    await generate(legacy, NOW);
    await rm(path.join(legacy, '.synthetic-demo-data'));
    await generate(legacy, NOW + DAY);
    expect(await read(legacy, 'patients', TOLVAN, 'patient.xml')).toContain('generated for 20261122');
  });
});

describe('bookings relative to the day the service starts', () => {
  it('gives Tolvan bookings before today, today and after today, one bookable right away', async () => {
    const today = localDate(NOW, ZONE);
    const bookings = await bookingsOf(dir, TOLVAN);
    const days = bookings.map((b) => b.start.slice(0, 8));
    expect(days.filter((d) => d < today).length).toBeGreaterThanOrEqual(3);
    expect(days.filter((d) => d > today).length).toBeGreaterThanOrEqual(3);
    expect(days.filter((d) => d === today).length).toBeGreaterThanOrEqual(3);
    const soon = bookings.filter((b) => {
      const t = compactToEpochMs(b.start, ZONE);
      return t >= NOW && t <= NOW + 120 * MINUTE;
    });
    expect(soon.map((b) => b.start)).toEqual(['20261121094500']);
  });

  it('gives Lilla a booking today that can be marked arrived now', async () => {
    const starts = (await bookingsOf(dir, LILLA)).map((b) => compactToEpochMs(b.start, ZONE));
    expect(starts.some((t) => t >= NOW + 45 * MINUTE && t < NOW + 50 * MINUTE)).toBe(true);
  });

  it('rounds the drop-in start up to the next 5 minutes, even past midnight', async () => {
    const late = path.join(base, 'late');
    const lateNow = Date.UTC(2026, 10, 21, 22, 41, 17); // 23:41:17 local
    await generate(late, lateNow);
    const starts = (await bookingsOf(late, TOLVAN)).map((b) => b.start);
    expect(starts).toContain('20261122003000');
  });

  it('keeps ContactIds unique, stable through the day and new on another day', async () => {
    const ids = await allContactIds(dir);
    expect(new Set(ids).size).toBe(ids.length);
    const again = path.join(base, 'again');
    await generate(again, NOW + 10 * 60 * MINUTE); // 19:00 the same local day
    expect((await allContactIds(again)).sort()).toEqual([...ids].sort());
    for (const later of [DAY, 7 * DAY, 30 * DAY]) {
      const other = path.join(base, `other-${later}`);
      await generate(other, NOW + later);
      const otherIds = await allContactIds(other);
      expect(otherIds.filter((id) => ids.includes(id))).toEqual([]);
    }
  });

  it('does not reuse the late drop-in ContactId for a booking generated the next morning', async () => {
    const late = path.join(base, 'late-ids');
    const morning = path.join(base, 'morning-ids');
    await generate(late, Date.UTC(2026, 10, 21, 22, 41));
    await generate(morning, Date.UTC(2026, 10, 22, 7, 0));
    const lateIds = await allContactIds(late);
    expect((await allContactIds(morning)).filter((id) => lateIds.includes(id))).toEqual([]);
  });

  it('lists every video booking as a meeting at the same times, texts within 64 characters', async () => {
    for (const person of DEMO_PEOPLE) {
      const doc = await parsed(dir, 'patients', person.id, 'videomeetings.xml');
      const meetings = (doc.VideoMeetings.VideoMeeting ?? []) as Tree[];
      const contacts = (((await parsed(dir, 'patients', person.id, 'contacts.xml')).ContactEHRExtracts.contactEHRExtract ?? []) as Tree[])
        .filter((c) => c.contact.contactTypeOfVisit === 'Distanskontakt video');
      expect(meetings.map((m) => m.StartDateTime['@_value']).sort())
        .toEqual(contacts.map((c) => c.contact.contactBeginDateTime['@_value']).sort());
      for (const m of meetings) {
        const texts = [m.PerformingUnitName, m.ServiceName, m.MeetingLink, m.MainStaff.Name, m.MainStaff.Type,
          m.Server.DiscoveryURI, m.Server.ClientID];
        for (const t of texts) expect(String(t).length).toBeLessThanOrEqual(64);
      }
    }
    const tolvan = (await parsed(dir, 'patients', TOLVAN, 'videomeetings.xml')).VideoMeetings.VideoMeeting as Tree[];
    expect(tolvan.length).toBeGreaterThanOrEqual(3);
  });
});

describe('document content', () => {
  it('gives Tolvan rich data in every document, out of time order', async () => {
    const bookings = (await parsed(dir, 'patients', TOLVAN, 'bookings.xml')).BookedAppointmentsResults
      .BookedAppointmentsResult as Tree[];
    expect(bookings.map((r) => r.ResultCode)).toEqual(['OK', 'INFO']);
    expect(bookings[1]?.Comment).toMatch(/svarade inte/);
    expect((bookings[0]?.RegisteredBooking as Tree[]).length).toBeGreaterThanOrEqual(1);

    const notes = (await parsed(dir, 'patients', TOLVAN, 'journalnotes.xml')).JournalNoteRecords.JournalNoteRecord
      .JournalNoteEHRExtract as Tree[];
    const noteTimes = notes.map((n) => n.time_created['@_value'] as string);
    expect(notes.length).toBeGreaterThanOrEqual(4);
    expect(noteTimes).not.toEqual([...noteTimes].sort());
    expect(Math.min(...noteTimes.map((t) => compactToEpochMs(t, ZONE)))).toBeLessThan(NOW - 600 * DAY);
    expect(JSON.stringify(notes)).toContain('"Magnitude":"084"');

    const rx = (await parsed(dir, 'patients', TOLVAN, 'medications.xml')).PrescriptionRecords.PrescriptionRecord
      .PrescriptionEHRExtract as Tree[];
    expect(rx.length).toBeGreaterThanOrEqual(3);
    expect(rx.map((r) => r.Prescription.MedicationTreatmentStatusDetail.TreatmentStatus)).toContain('INVALIDATED');
    const rxTimes = rx.map((r) => r.time_created['@_value'] as string);
    expect(rxTimes).not.toEqual([...rxTimes].sort());

    const contacts = (await parsed(dir, 'patients', TOLVAN, 'contacts.xml')).ContactEHRExtracts.contactEHRExtract as Tree[];
    const types = new Set(contacts.map((c) => c.contact.contactTypeOfVisit));
    expect(contacts.length).toBeGreaterThanOrEqual(4);
    for (const t of ['Mottagningsbesök', 'Distanskontakt video', 'Telefonkontakt', 'Slutenvårdstillfälle', 'Brevkontakt']) {
      expect(types).toContain(t);
    }
    expect(contacts.map((c) => c.contact.contactStatus)).toEqual(expect.arrayContaining(['Avslutad', 'Planerad', 'Avbokad']));

    const signals = (await parsed(dir, 'patients', TOLVAN, 'attentionsignals.xml')).AttentionSignalEHRExtracts
      .AttentionSignalEHRExtract as Tree[];
    expect(signals.length).toBeGreaterThanOrEqual(4);
    // The latest daylight-saving change before 21 Nov 2026 is 25 Oct 2026; 02:30 occurs twice that night.
    expect(signals.map((s) => s.time_created['@_value'])).toContain('20261025023000');
  });

  it('registers Märta\'s delegations, an expired and a protected one included', async () => {
    const doc = await parsed(dir, 'relationships', `${MARTA}.xml`);
    expect(doc.Relationships['@_actor']).toBe(MARTA);
    const rows = (doc.Relationships.Relationship as Tree[]).map((r) =>
      [r['@_patient'], r['@_type'], r['@_validFrom'], r['@_validTo']]);
    expect(rows).toEqual(expect.arrayContaining([
      [LILLA, 'guardian', '20170101', '20341231'],
      ['200404122384', 'guardian', '20040412', '20220411'],
      [TOLVAN, 'power-of-attorney', '20241120', expect.any(String)],
      ['194608632396', 'partner', expect.any(String), undefined],
      [SARA, 'power-of-attorney', expect.any(String), undefined],
    ]));
    expect(rows).toHaveLength(5);
    const empty = await parsed(dir, 'relationships', `${TOLVAN}.xml`);
    expect(empty.Relationships.Relationship).toBeUndefined();
  });

  it('writes each patient record for its folder, birth date from the number', async () => {
    const expected: Record<string, string> = {
      [TOLVAN]: '19121212', '194608632396': '19460803', [LILLA]: '20170101', [SARA]: '19730524',
    };
    for (const person of DEMO_PEOPLE) {
      const extracts = (await parsed(dir, 'patients', person.id, 'patient.xml')).PatientRecords.PatientRecord
        .PatientEHRExtract as Tree[];
      for (const e of extracts) {
        expect(e.Patient.PatientID['@_extension']).toBe(person.id);
        expect(e.Patient.PatientVersionDateTime['@_value']).toMatch(/^\d{14}$/);
        if (expected[person.id]) expect(e.Patient.PatientBirthDate['@_value']).toBe(expected[person.id]);
      }
    }
    const gosta = await read(dir, 'patients', '194608632396', 'patient.xml');
    expect(gosta).toContain('root="1.2.752.129.2.1.3.3"');
  });

  it('marks Sara\'s identity protected and still has her contact details to mask', async () => {
    const patient = (await parsed(dir, 'patients', SARA, 'patient.xml')).PatientRecords.PatientRecord
      .PatientEHRExtract[0].Patient as Tree;
    expect(patient.PatientProtectedId).toBe('true');
    expect(patient.PatientAddresses.PatientAddress.length).toBeGreaterThan(0);
    expect(patient.PhoneNumbers.Phone.length).toBeGreaterThan(0);
    expect(patient.EmailAddresses.Email.EmailAddress).toMatch(/@/);
    expect((await bookingsOf(dir, SARA)).length).toBeGreaterThan(0);
    const notes = await read(dir, 'patients', SARA, 'journalnotes.xml');
    expect(notes).toContain('<PatientProtectedId>true</PatientProtectedId>');
    for (const person of DEMO_PEOPLE.filter((p) => p.id !== SARA)) {
      expect(await read(dir, 'patients', person.id, 'patient.xml')).toContain('<PatientProtectedId>false<');
    }
  });

  it('generates in another zone too', async () => {
    const utc = path.join(base, 'utc');
    await generate(utc, NOW, 'UTC');
    expect((await bookingsOf(utc, TOLVAN)).map((b) => b.start)).toContain('20261121084500');
  });
});

describe('through the mapper the embedded EHR and the remote adapter share', () => {
  it('maps every generated document without a malformed-document error or a dropped record', async () => {
    const dropped: string[] = [];
    let mapped = 0;
    for (const person of DEMO_PEOPLE) {
      for (const kind of KINDS) {
        const xml = await read(dir, 'patients', person.id, `${kind}.xml`);
        const options = { zone: ZONE, expectedPatientId: person.id, onDropped: (r: string) => dropped.push(`${kind}: ${r}`) };
        expect(() => mapDocument(kind, xml, options), `${person.id}/${kind}`).not.toThrow();
        mapped++;
      }
      const registry = mapRelationships(await read(dir, 'relationships', `${person.id}.xml`));
      expect(registry.actor).toBe(person.id);
    }
    expect(mapped).toBe(DEMO_PEOPLE.length * KINDS.length);
    expect(dropped).toEqual([]);
  });

  it('maps the data of every day of a year, DST changes included', async () => {
    const yearDir = path.join(base, 'year');
    for (let day = 0; day < 365; day += 13) {
      await generate(yearDir, NOW + day * DAY);
      for (const kind of KINDS) {
        const xml = await read(yearDir, 'patients', TOLVAN, `${kind}.xml`);
        expect(() => mapDocument(kind, xml, { zone: ZONE, expectedPatientId: TOLVAN }), `${day}/${kind}`).not.toThrow();
      }
    }
    // 29 whole generations: 8.7 s in a full run on two cores, over the 20 s default at a load of 9.
  }, 90_000);

  it('gives the protected patient protectedIdentity and Märta five registry rows', async () => {
    const [record] = mapDocument('patient', await read(dir, 'patients', SARA, 'patient.xml'), { zone: ZONE });
    expect(JSON.stringify(record)).toContain('"PatientProtectedId":true');
    const registry = mapRelationships(await read(dir, 'relationships', `${MARTA}.xml`));
    expect(registry.relationships.map((r) => r.patient).sort())
      .toEqual([TOLVAN, '194608632396', SARA, '200404122384', LILLA].sort());
  });
});

/** A record's values and those of the records nested in it. */
const valuesOf = (r: JournalRecord): JournalRecord['Value'] => [...r.Value, ...(r.Record === undefined ? [] : valuesOf(r.Record))];

describe('issue 13: the demo data in the vendor layouts, for every demo person', () => {
  const options = (person: { id: string }) => ({ zone: ZONE, expectedPatientId: person.id });

  it('gives everyone care contacts and a patient-v2 document naming them', async () => {
    for (const person of DEMO_PEOPLE) {
      const contacts = mapDocument('contacts', await read(dir, 'patients', person.id, 'contacts.xml'), options(person));
      expect([person.id, (contacts[0]?.contactEHRExtract.length ?? 0) > 0]).toEqual([person.id, true]);
      const v2 = mapDocument('patient-v2', await read(dir, 'patients', person.id, 'patient-v2.xml'), options(person));
      const patient = v2[0]?.patientEHRExtract[0]?.patient;
      expect([person.id, patient?.patientID?.extension, patient?.patientName?.familyName])
        .toEqual([person.id, person.id, person.familyName]);
      expect(patient?.patientProtectedId).toBe(person.protectedIdentity);
    }
  });

  it('gives everyone at least one hypersensitivity with its agent and reaction', async () => {
    for (const person of DEMO_PEOPLE) {
      const signals = mapDocument('attentionsignals', await read(dir, 'patients', person.id, 'attentionsignals.xml'), options(person));
      const allergies = (signals[0]?.AttentionSignalEHRExtract ?? [])
        .map((s) => s.AttentionSignal?.HypersensitivityType)
        .filter((h) => h !== undefined && h.Agent.length > 0 && (h.Reaction ?? '') !== '');
      expect([person.id, allergies.length > 0]).toEqual([person.id, true]);
    }
  });

  it('gives everyone journal notes whose every value of type Text carries Swedish text', async () => {
    for (const person of DEMO_PEOPLE) {
      const records = mapDocument('journalnotes', await read(dir, 'patients', person.id, 'journalnotes.xml'), options(person));
      const notes = records.flatMap((r) => r.JournalNoteEHRExtract);
      expect([person.id, notes.length > 0]).toEqual([person.id, true]);
      for (const note of notes) {
        const values = (note.Note?.Records.Record ?? []).flatMap(valuesOf);
        const texts = values.filter((v) => v.JournalValueType === 'Text').map((v) => v.$self ?? '');
        expect([note.Note?.NoteId?.extension, texts.length > 0 && texts.every((t) => /[a-zåäö]{3,}/i.test(t))])
          .toEqual([note.Note?.NoteId?.extension, true]);
      }
    }
  });
});

/**
 * The development FHIR server serving the demo people (what `npm run fhir-sim` loads by default):
 * each person is found by the identity lookup, every read the FHIR client offers answers them, and
 * the answers name the same records as the embedded EHR's XML documents generated for the same
 * moment (the two forms come from one description and must not drift).
 */
import { describe, expect, it } from 'vitest';
import { READ_PLANS, type FhirRead } from '../../src/adapters/ehr-fhir/client/read-plans.js';
import { DEMO_ACTOR_ID, DEMO_PEOPLE, isCoordinationNumber, UNKNOWN_PATIENT_ID } from '../../src/dev/demo-data/people.js';
import type { ReadName } from '../../src/domain/operations/table.js';
import { clientFor, readsOf, registryOf } from '../adapters/ehr-fhir/support/fhir-sim.js';
import { demoBothFormsForTests } from '../support/demo-both-forms.js';

const ZONE = 'Europe/Stockholm';
const NOW = Date.parse('2026-11-21T08:00:00Z');
const ALL = { from: '19000101000000', to: '21001231235959' };

/** What names a record in each read's answer: the same in both forms, whatever else differs. */
/* eslint-disable @typescript-eslint/no-explicit-any */
const codes = (diagnoses: any[]): string[] => diagnoses.flatMap((d) => [d.diagnosisCode, ...codes(d.diagnosis)]);
/** How a record is known in both forms, per read the FHIR server is asked for: a new one is named by the typecheck. */
const KEYS: { [R in FhirRead]: (answer: any[]) => string[] } = {
  getAppointments: (a) => a.flatMap((r) => [...(r.Booking ?? []).map((b: any) => `${b.ContactId} ${b.StartTime}`),
    ...(r.RegisteredBooking ?? []).map((b: any) => `${b.BookingId} ${b.StartTime}`)]),
  // The XML document keeps an older version of some people beside the current one; FHIR's read is the current one.
  getPatient: (a) => [...new Set<string>(a.flatMap((r) => r.PatientEHRExtract.map((e: any) => `${e.Patient.PatientID.extension} ${e.Patient.PatientProtectedId}`)))],
  getPatientV2: (a) => [...new Set<string>(a.flatMap((r) => r.patientEHRExtract.map((e: any) => `${e.patient.patientID.extension} ${e.patient.patientProtectedId}`)))],
  getContacts: (a) => a.flatMap((r) => r.contactEHRExtract.map((e: any) => `${e.contact.contactInternalID} ${e.contact.contactBeginDateTime.value}`)),
  getAttentionSignals: (a) => a.flatMap((r) => r.AttentionSignalEHRExtract.map((e: any) => `${e.time_created.value} ${e.AttentionSignal.SignalDataType}`)),
  // FHIR's search asks for booked, arrived and checked-in meetings only (docs/upstream-fhir.md#38-video-meetings-operation-8):
  // one already held is `fulfilled` and not listed, where the legacy document keeps it.
  getVideoMeetings: (a) => a.filter((m) => m.endDateTimeInUnix > NOW).map((m) => `${m.actionId} ${m.startDateTimeInUnix} ${m.meetingLink}`),
  getMedications: (a) => a.flatMap((r) => r.PrescriptionEHRExtract.map((e: any) => `${e.Prescription.MedicationTreatmentId.extension} ${e.time_created.value}`)),
  // A note made inactive upstream is entered-in-error in FHIR, which is never answered.
  getJournalNotes: (a) => a.flatMap((r) => r.JournalNoteEHRExtract.filter((e: any) => e.Note.NoteActive !== false)
    .map((e: any) => `${e.Note.NoteId.extension} ${e.Note.NoteDateTime.value}`)),
  getLabResults: (a) => a.flatMap((r) => r.chemistryReportEHRExtract.map((e: any) => `${e.report.reportId} ${e.report.reportDateTime.value}`)),
  // FHIR holds one Condition per diagnosis note, of its first diagnosis, where a legacy note may hold several
  // (docs/upstream-fhir.md#312-diagnoses-operation-12): each note is named by its first code and its time.
  getDiagnoses: (a) => a.flatMap((r) => r.diagnosisEHRExtract.flatMap((e: any) => codes(e.diagnoses?.diagnosis ?? []).slice(0, 1)
    .map((code) => `${code} ${e.timeCreated.value}`))),
};
/* eslint-enable @typescript-eslint/no-explicit-any */

const demo = demoBothFormsForTests(NOW, ZONE);

describe('the development FHIR server with the demo people', () => {
  it('answers Patient?identifier=… with exactly one Patient for each demo person, none for the unknown one', async () => {
    const lookup = async (id: string) => {
      const system = isCoordinationNumber(id) ? 'samordningsnummer' : 'personnummer';
      const res = await fetch(`${demo.sim.baseUrl}/Patient?identifier=http://electronichealth.se/identifier/${system}%7C${id}`);
      return ((await res.json()) as { entry?: { resource: { identifier: { value: string }[] } }[] }).entry ?? [];
    };
    for (const person of DEMO_PEOPLE) {
      const found = await lookup(person.id);
      expect(found.map((e) => e.resource.identifier[0]?.value), person.id).toEqual([person.id]);
    }
    expect(await lookup(UNKNOWN_PATIENT_ID)).toEqual([]);
  });

  it('every read of the FHIR client names the same records as the embedded EHR, for every demo person', async () => {
    const reads = readsOf(clientFor(demo.sim));
    const compared: string[] = [];
    for (const person of DEMO_PEOPLE) {
      for (const read of Object.keys(READ_PLANS) as ReadName[]) {
        const keys = KEYS[read as FhirRead];
        const overFhir = await (reads[read] as (id: string, r: typeof ALL) => Promise<unknown[]>)(person.id, ALL);
        const overXml = await (demo.embedded.reads[read] as (id: string, r: typeof ALL) => Promise<unknown[]>)(person.id, ALL);
        expect(keys?.(overFhir).sort(), `${person.id} ${read}`).toEqual(keys?.(overXml).sort());
        compared.push(...(keys?.(overFhir) ?? []));
      }
    }
    // Not a comparison of nothing: the demo people have records in every read.
    expect(compared.length).toBeGreaterThan(100);
  }, 90_000);

  it('gives the demo actor the same registry rows as the XML registry', async () => {
    const rows = await registryOf(clientFor(demo.sim))(DEMO_ACTOR_ID);
    expect(rows).toHaveLength(5);
    expect(rows).toEqual(expect.arrayContaining(await demo.embedded.relationshipsOf(DEMO_ACTOR_ID)));
  });
});

/**
 * The reads over a real FHIR server (Medplum's router in memory, in this process): the contract's
 * worked examples come back through search, paging, includes and the patient lookup as they do
 * from the mappers alone; includes the server leaves out are fetched by `_id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FhirSim } from '../../../../src/dev/fhir-sim/fhir-sim.js';
import { expectedAnswer, TOLVAN } from '../support/demo-bundle.js';
import { clientFor, readsOf, recordingExchange, registryOf, startDemoSim } from '../support/fhir-sim.js';

const YEARS_2026_2027 = { from: '20260101000000', to: '20271231235959' };
const YEAR_2025 = { from: '20250101000000', to: '20251231235959' };

let sim: FhirSim;
beforeAll(async () => {
  sim = await startDemoSim();
});
afterAll(() => sim.close());

describe('reads over the FHIR development server', () => {
  it('answers the contract\'s worked examples', async () => {
    const reads = readsOf(clientFor(sim));
    expect(await reads.getAppointments?.(TOLVAN, YEARS_2026_2027)).toStrictEqual(expectedAnswer('appointments.json'));
    expect(await reads.getVideoMeetings?.(TOLVAN, YEARS_2026_2027)).toStrictEqual(expectedAnswer('videomeetings.json'));
    expect(await reads.getJournalNotes?.(TOLVAN, YEAR_2025)).toStrictEqual(expectedAnswer('journalnotes.json'));
    expect(await registryOf(clientFor(sim))(TOLVAN)).toStrictEqual(expectedAnswer('relationships-191212121212.json'));
  });

  it('answers lab results and diagnoses, the procedures read by reason-reference when the server sends no _revinclude', async () => {
    const exchange = recordingExchange();
    const reads = readsOf(clientFor(sim, { exchange }));
    expect(await reads.getLabResults?.(TOLVAN, YEAR_2025)).toStrictEqual(expectedAnswer('labresults.json'));
    expect(await reads.getDiagnoses?.(TOLVAN, { from: '20200101000000', to: '20251231235959' })).toStrictEqual(expectedAnswer('diagnoses.json'));
    expect(exchange.urls.find((u) => u.includes('/Procedure?'))).toContain('reason-reference=Condition/cond-0001,Condition/cond-0002');
  });

  it('sends the time bounds an hour wider, in UTC, and the identifier forms as FHIR\'s OR', async () => {
    const exchange = recordingExchange();
    await readsOf(clientFor(sim, { exchange })).getAppointments?.(TOLVAN, YEARS_2026_2027);
    const [lookup, search] = exchange.urls;
    expect(lookup).toBe(`${sim.baseUrl}/Patient?identifier=http://electronichealth.se/identifier/personnummer%7C${TOLVAN},`
      + `urn:oid:1.2.752.129.2.1.3.1%7C${TOLVAN},http://electronichealth.se/identifier/samordningsnummer%7C${TOLVAN},`
      + `urn:oid:1.2.752.129.2.1.3.3%7C${TOLVAN}&_count=10`);
    expect(search).toContain('/Appointment?patient=Patient/pat-tolvan&date=ge2025-12-31T22:00:00Z&date=le2027-12-31T23:59:59Z&status=booked,');
    expect(search).toContain('&_include=Appointment:actor&_include:iterate=Location:organization&');
    expect(exchange.urls.join()).not.toContain('+');
  });

  it('follows next links page by page to the same answer', async () => {
    const exchange = recordingExchange();
    const reads = readsOf(clientFor(sim, { exchange, pageSize: 1 }));
    expect(await reads.getJournalNotes?.(TOLVAN, YEAR_2025)).toStrictEqual(expectedAnswer('journalnotes.json'));
    expect(exchange.urls.filter((u) => u.includes('/Composition?')).length).toBeGreaterThan(1);
  });

  it('fetches by _id what a server that ignores _include left out, and answers the same', async () => {
    const exchange = recordingExchange({ url: (url) => url.replace(/&_include(:iterate)?=[^&]*/g, '') });
    const reads = readsOf(clientFor(sim, { exchange }));
    expect(await reads.getJournalNotes?.(TOLVAN, YEAR_2025)).toStrictEqual(expectedAnswer('journalnotes.json'));
    expect(await reads.getAppointments?.(TOLVAN, YEARS_2026_2027)).toStrictEqual(expectedAnswer('appointments.json'));
    expect(exchange.urls.filter((u) => u.includes('?_id=')).map((u) => new URL(u).pathname.split('/').pop())).toContain('Organization');
  });

  it('reads the custodian of a note and its head care provider by _id, since R4 has no include for them', async () => {
    const exchange = recordingExchange();
    await readsOf(clientFor(sim, { exchange })).getJournalNotes?.(TOLVAN, YEAR_2025);
    const fetched = exchange.urls.filter((u) => u.includes('/Organization?_id=')).flatMap((u) => new URL(u).searchParams.get('_id')?.split(',') ?? []);
    expect(fetched).toEqual(expect.arrayContaining(['org-vc-tolvstad', 'org-region']));
    // Each is asked for once, however many references name it.
    expect(new Set(fetched).size).toBe(fetched.length);
  });

  it('answers every read of the operation table for the demo patient', async () => {
    const reads = readsOf(clientFor(sim));
    const all = { from: '19000101000000', to: '21001231235959' };
    expect((await reads.getPatient?.(TOLVAN, {}))?.[0]?.PatientEHRExtract[0]?.Patient?.PatientID.extension).toBe(TOLVAN);
    expect((await reads.getPatientV2?.(TOLVAN, {}))?.[0]?.patientEHRExtract[0]?.patient?.patientRelatives.patientRelative).toHaveLength(1);
    expect((await reads.getContacts?.(TOLVAN, all))?.[0]?.contactEHRExtract.map((e) => e.contact?.contactInternalID)).toEqual(['enc-0002', 'enc-0001']);
    expect((await reads.getAttentionSignals?.(TOLVAN, all))?.[0]?.AttentionSignalEHRExtract).toHaveLength(2);
    expect((await reads.getMedications?.(TOLVAN, all))?.[0]?.PrescriptionEHRExtract.map((e) => e.ehr_id.extension))
      .toEqual(['MedicationRequest/mr-0002', 'MedicationRequest/mr-0001']);
  });
});

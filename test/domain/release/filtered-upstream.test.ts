/**
 * What the EHR itself withheld (a FHIR server's SUBSETTED Bundle, src/domain/release/filtered-upstream.ts)
 * is told as what this service's release policy withholds: the read counts it as withheld, so the answer
 * carries Patient-Data-Filtered (docs/fhir-api.md#one-dialect-in-and-out). Failed before: an answer the
 * EHR marked was answered as complete (test/e2e/fhir-chain.e2e.test.ts, with A's release policy).
 */
import { describe, expect, it } from 'vitest';
import { PatientAccessPolicy } from '../../../src/domain/access/patient-access.js';
import { filteredUpstream, markFilteredUpstream } from '../../../src/domain/release/filtered-upstream.js';
import { ReadPatientData } from '../../../src/domain/use-cases/read-patient-data.js';
import { patientRecord } from '../../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../../fakes/fake-ehr.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { journal, PATIENT, ZONE } from '../records/builders.js';

const clock = new FixedClock(Date.UTC(2026, 10, 21, 9));

async function readNotes(notes: ReturnType<typeof journal>, release?: ConstructorParameters<typeof ReadPatientData>[1]) {
  const ehr = new FakeEhr().withPatient(PATIENT, { getPatient: [patientRecord(PATIENT)], getJournalNotes: notes });
  const access = await new PatientAccessPolicy(ehr, new FakeRegistry(), clock, ZONE).resolve({ personId: PATIENT }, PATIENT);
  return new ReadPatientData(ZONE, release).execute('getJournalNotes', access, {});
}

describe('an answer the EHR withheld records from', () => {
  it('counts one withheld, its records as the EHR gave them', async () => {
    const released = await readNotes(markFilteredUpstream(journal('20250101120000', '20250102120000')));
    expect(released.withheld).toBe(1);
    expect(released.records[0]?.JournalNoteEHRExtract).toHaveLength(2);
  });

  it('adds the one to what the release policy withholds too', async () => {
    // The builder's notes have no signing time: a policy that withholds unsigned notes withholds both.
    const policy = { unsignedNotes: { withhold: true } };
    expect((await readNotes(journal('20250101120000', '20250102120000'), { policy, clock })).withheld).toBe(2);
    expect((await readNotes(markFilteredUpstream(journal('20250101120000', '20250102120000')), { policy, clock })).withheld).toBe(3);
  });

  it('counts nothing for an answer the EHR did not mark', async () => {
    expect((await readNotes(journal('20250101120000'))).withheld).toBe(0);
  });

  it('keeps the mark out of the answer\'s JSON and off a copy', () => {
    const marked = markFilteredUpstream([{ a: 1 }]);
    expect(filteredUpstream(marked)).toBe(true);
    expect(JSON.stringify(marked)).toBe('[{"a":1}]');
    expect(filteredUpstream([...marked])).toBe(false);
  });
});

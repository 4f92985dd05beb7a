/**
 * The mark of a range's answer is of the whole record (docs/contract.md#only-what-may-be-released): a read
 * whose range held nothing withheld is marked where the rest of the record holds something (hostile review
 * helper-184, F2), and the range itself is still asked of the EHR as the caller gave it. Re-review helper-186,
 * F2: every range read of a filtered read fetched the whole record, and a one-day read of a journal over the
 * EHR's limits failed. Failed before: the EHR was asked for the whole record alone; its failure failed the read.
 */
import { describe, expect, it, vi } from 'vitest';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import { EhrError } from '../../src/domain/ehr-error.js';
import type { TimeRange } from '../../src/domain/time/time-range.js';
import { ReadPatientData } from '../../src/domain/use-cases/read-patient-data.js';
import { patientRecord } from '../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../fakes/fake-ehr.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { journal, PATIENT, ZONE } from './records/builders.js';

const clock = new FixedClock(Date.UTC(2026, 10, 21, 9));
/** The builder's notes have no signing time: this policy withholds every one of them. */
const WITHHOLDS_UNSIGNED = { policy: { unsignedNotes: { withhold: true } }, clock };
const DAY: TimeRange = { from: '20260601000000', to: '20260601235959' };

/** The patient's notes: none in the day asked, two unsigned ones in the whole record (or `whole` instead). */
async function readDay(whole: () => Promise<ReturnType<typeof journal>>) {
  const ehr = new FakeEhr().withPatient(PATIENT, { getPatient: [patientRecord(PATIENT)] });
  const asked: TimeRange[] = [];
  vi.spyOn(ehr.reads, 'getJournalNotes').mockImplementation(async (_patient, range) => {
    asked.push(range);
    return range.from === undefined && range.to === undefined ? whole() : journal();
  });
  const access = await new PatientAccessPolicy(ehr, new FakeRegistry(), clock, ZONE).resolve({ personId: PATIENT }, PATIENT);
  return { released: await new ReadPatientData(ZONE, WITHHOLDS_UNSIGNED).execute('getJournalNotes', access, DAY), asked };
}

describe('the mark of a range\'s answer', () => {
  it('asks the EHR for the range, then the whole record only to decide the mark: counted one withheld', async () => {
    const { released, asked } = await readDay(async () => journal('20250101120000', '20250102120000'));
    expect([released.withheld, released.records.flatMap((r) => r.JournalNoteEHRExtract)]).toEqual([1, []]);
    expect(asked).toEqual([DAY, {}]);
  });

  it('answers the range, marked, when the EHR cannot answer the whole record (over its limits): when in doubt, mark', async () => {
    const { released } = await readDay(() => Promise.reject(new EhrError('bad-response', 'a document over the limit')));
    expect(released.withheld).toBe(1);
  });

  it('marks nothing when the whole record holds nothing withheld', async () => {
    const { released } = await readDay(async () => journal());
    expect(released.withheld).toBe(0);
  });
});

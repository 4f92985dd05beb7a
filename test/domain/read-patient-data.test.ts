import { describe, expect, it } from 'vitest';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import type { JournalNoteRecord, PrescriptionRecord } from '../../src/domain/records/index.js';
import { ReadPatientData } from '../../src/domain/use-cases/read-patient-data.js';
import { patientRecord } from '../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../fakes/fake-ehr.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { journal, prescriptions } from './records/builders.js';

const ZONE = 'Europe/Stockholm';
const CHILD = '201701012393';
const GUARDIAN = '198112189876';
const denied = expect.objectContaining({ code: 'ACCESS_DENIED' });

/** The documents of a patient whose own patient document does not (yet) say protected, but the answered document does. */
function protectedIn(): { notes: JournalNoteRecord[]; drugs: PrescriptionRecord[] } {
  const notes = journal('20250101120000', '20250102120000');
  const drugs = prescriptions('20250101120000');
  const [firstNote, secondNote] = notes[0]?.JournalNoteEHRExtract ?? [];
  if (firstNote) firstNote.Patient = { PatientID: { extension: CHILD, root: '1.2.752.129.2.1.3.1' }, PatientProtectedId: false };
  if (secondNote) secondNote.Patient = { PatientID: { extension: CHILD, root: '1.2.752.129.2.1.3.1' }, PatientProtectedId: true };
  const [drug] = drugs[0]?.PrescriptionEHRExtract ?? [];
  if (drug) drug.Patient = { PatientId: { extension: CHILD, root: '1.2.752.129.2.1.3.1' }, PatientProtectedId: true };
  return { notes, drugs };
}

/** A guardian of CHILD, whose notes and medications mark her protected though her patient document does not. */
function setUp() {
  const { notes, drugs } = protectedIn();
  const ehr = new FakeEhr().withPatient(CHILD, { getPatient: [patientRecord(CHILD)], getJournalNotes: notes, getMedications: drugs });
  const registry = new FakeRegistry().grant(GUARDIAN, { patient: CHILD, type: 'guardian', validFrom: '20170101' });
  const policy = new PatientAccessPolicy(ehr, registry, new FixedClock(Date.UTC(2026, 10, 21, 9)), ZONE);
  return { policy, read: new ReadPatientData(ZONE) };
}

describe('ReadPatientData and a protected identity named in the answered document', () => {
  it('issue 12 item 12: refuses a delegate when the journal notes or medications mark the patient protected, though the patient document does not', async () => {
    const { policy, read } = setUp();
    const access = await policy.resolve({ personId: GUARDIAN }, CHILD);
    expect(access.basis).toBe('guardian');
    await expect(read.execute('getJournalNotes', access, {})).rejects.toEqual(denied);
    await expect(read.execute('getMedications', access, {})).rejects.toEqual(denied);
  });

  it('issue 12 item 12: still answers the patient and a client token (access by delegation is what a protected identity stops)', async () => {
    const { policy, read } = setUp();
    const { records: own } = await read.execute('getJournalNotes', await policy.resolve({ personId: CHILD }, CHILD), {});
    expect(own[0]?.JournalNoteEHRExtract).toHaveLength(2);
    const { records: client } = await read.execute('getMedications', await policy.resolve({}, CHILD), {});
    expect(client[0]?.PrescriptionEHRExtract).toHaveLength(1);
  });

  it('issue 12 item 12: lets a delegate read documents that mark nobody protected', async () => {
    const { policy, read } = setUp();
    const access = await policy.resolve({ personId: GUARDIAN }, CHILD);
    await expect(read.execute('getAppointments', access, {})).resolves.toEqual({ records: [], withheld: 0 });
  });
});

describe('ReadPatientData and the request\'s view of the EHR', () => {
  it('issue 34 item 7: reads through the view of the EHR the access was decided through, never past it', async () => {
    const { policy, read } = setUp();
    const access = await policy.resolve({ personId: CHILD }, CHILD);
    const view = new FakeEhr().withPatient(CHILD, { getJournalNotes: [] });
    const { records } = await read.execute('getJournalNotes', { ...access, ehr: view }, {});
    expect(records).toEqual([]);
    expect(view.calls).toEqual([`read getJournalNotes ${CHILD}`]);
  });
});

/**
 * What the EHR says of a person who gives or accepts a grant (docs/proxies.md): their name, and whether their
 * identity is protected in either patient document.
 */
import { describe, expect, it, vi } from 'vitest';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { personFacts } from '../../../src/domain/proxies/people.js';
import { ReadUnavailableError } from '../../../src/domain/read-availability/unavailable-read.js';
import { patientRecord } from '../../fakes/builders.js';
import { FakeEhr } from '../../fakes/fake-ehr.js';
import { patientV2, patientV2Data } from '../records/builders.js';

const PERSON = '194608632396';
const markedInV2 = () => patientV2(patientV2Data({ patientProtectedId: true }, PERSON));

describe('personFacts', () => {
  it('takes a protection mark in either patient document', async () => {
    const ehr = new FakeEhr().withPatient(PERSON, { getPatient: [patientRecord(PERSON)], getPatientV2: markedInV2() });
    await expect(personFacts(ehr, PERSON)).resolves.toMatchObject({ protectedIdentity: true, name: expect.any(String) });
    ehr.withPatient(PERSON, { getPatient: [patientRecord(PERSON, { protectedIdentity: true })] });
    await expect(personFacts(ehr, PERSON)).resolves.toMatchObject({ protectedIdentity: true });
    ehr.withPatient(PERSON, { getPatient: [patientRecord(PERSON)], getPatientV2: patientV2(patientV2Data({}, PERSON)) });
    await expect(personFacts(ehr, PERSON)).resolves.toMatchObject({ protectedIdentity: false });
  });

  // Re-review helper-186, F4: a person the patient document (v1) no longer knows was taken as not protected without
  // asking the v2 mirror, so a grant's kept name of someone only v2 marked protected went on being shown to the other side.
  it('asks the v2 mirror of a person the patient document does not know, and names no one', async () => {
    const ehr = new FakeEhr().withPatient(PERSON, { getPatient: [], getPatientV2: markedInV2() });
    await expect(personFacts(ehr, PERSON)).resolves.toEqual({ protectedIdentity: true });
    vi.spyOn(ehr.reads, 'getPatient').mockRejectedValue(new EhrError('patient-not-found', 'unknown patient'));
    await expect(personFacts(ehr, PERSON)).resolves.toEqual({ protectedIdentity: true });
  });

  it('says no mark where neither document knows the person, or the region serves no v2 read', async () => {
    await expect(personFacts(new FakeEhr(), PERSON)).resolves.toEqual({ protectedIdentity: false });
    const ehr = new FakeEhr().withPatient(PERSON, { getPatient: [] });
    vi.spyOn(ehr.reads, 'getPatientV2').mockRejectedValue(new ReadUnavailableError('getPatientV2', 'turned-off'));
    await expect(personFacts(ehr, PERSON)).resolves.toEqual({ protectedIdentity: false });
  });

  it('fails where either document cannot be read, as the access decision does', async () => {
    const ehr = new FakeEhr().withPatient(PERSON, { getPatient: [] });
    vi.spyOn(ehr.reads, 'getPatientV2').mockRejectedValue(new EhrError('bad-response', 'malformed'));
    await expect(personFacts(ehr, PERSON)).rejects.toBeInstanceOf(EhrError);
    ehr.failure = new EhrError('unavailable', 'down');
    await expect(personFacts(ehr, PERSON)).rejects.toBeInstanceOf(EhrError);
  });
});

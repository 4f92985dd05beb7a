/**
 * Whom a SMART launch's picker offers (src/domain/access/people-to-open.ts): everyone the access decision lets
 * the person open; a failure of anyone's decision fails the picker.
 */
import { describe, expect, it, vi } from 'vitest';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import { peopleToOpen } from '../../src/domain/access/people-to-open.js';
import { EhrError } from '../../src/domain/ehr-error.js';
import { patientRecord } from '../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../fakes/fake-ehr.js';
import { FixedClock } from '../fakes/fixed-clock.js';

const GUARDIAN = '198112189876';
const CHILD = '201701012393';
const UNREADABLE = '201203152382';


function world() {
  const ehr = new FakeEhr();
  for (const p of [GUARDIAN, CHILD, UNREADABLE]) ehr.withPatient(p, { getPatient: [patientRecord(p)] });
  const registry = new FakeRegistry()
    .grant(GUARDIAN, { patient: CHILD, type: 'guardian', validFrom: '20170101' })
    .grant(GUARDIAN, { patient: UNREADABLE, type: 'guardian', validFrom: '20120315' });
  return { ehr, policy: new PatientAccessPolicy(ehr, registry, new FixedClock(Date.UTC(2026, 10, 26, 9)), 'Europe/Stockholm') };
}

describe('peopleToOpen', () => {
  // Re-reviews helper-187 F3 and helper-188 F2: leaving out someone whose decision failed (a timeout, an EHR's 500, an
  // unreadable document) ended an app's right to them at its next refresh. Failed before (7fd5ecd6): the child left out.
  it.each([
    ['an unreadable document', new EhrError('bad-response', 'a v2 document that cannot be read')],
    ['a timeout', new EhrError('timeout', 'slow')],
  ])('fails, rather than leave someone out, on %s of another\'s record', async (_what, failure) => {
    const { ehr, policy } = world();
    const read = ehr.reads.getPatientV2;
    vi.spyOn(ehr.reads, 'getPatientV2').mockImplementation((patient, range) => (patient === UNREADABLE ? Promise.reject(failure) : read(patient, range)));
    await expect(peopleToOpen(policy, GUARDIAN)).rejects.toBe(failure);
  });

  it('offers everyone the decision lets the person open, the person first', async () => {
    const { policy } = world();
    expect((await peopleToOpen(policy, GUARDIAN)).map((p) => [p.identityNumber, p.basis])).toEqual([[GUARDIAN, 'self'], [CHILD, 'guardian'], [UNREADABLE, 'guardian']]);
  });

  it('fails when the person\'s own record cannot be read: nobody is offered in their stead', async () => {
    const { ehr, policy } = world();
    ehr.failure = new EhrError('unavailable', 'down');
    await expect(peopleToOpen(policy, GUARDIAN)).rejects.toBeInstanceOf(EhrError);
  });
});

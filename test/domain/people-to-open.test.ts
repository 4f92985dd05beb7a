/**
 * Whom a SMART launch's picker offers (src/domain/access/people-to-open.ts). Re-review helper-186, F1: one
 * child's patient document that could not be read (an empty v2 mirror) made the guardian's whole sign-in a 500,
 * her own record included. Failed before: the EhrError of that child's decision was thrown.
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
  const read = ehr.reads.getPatientV2;
  vi.spyOn(ehr.reads, 'getPatientV2').mockImplementation((patient, range) =>
    (patient === UNREADABLE ? Promise.reject(new EhrError('bad-response', 'a v2 document that cannot be read')) : read(patient, range)));
  return { ehr, policy: new PatientAccessPolicy(ehr, registry, new FixedClock(Date.UTC(2026, 10, 26, 9)), 'Europe/Stockholm') };
}

describe('peopleToOpen', () => {
  it('leaves out someone whose record cannot be decided on now, and offers the rest, the person first', async () => {
    const { policy } = world();
    expect((await peopleToOpen(policy, GUARDIAN)).map((p) => [p.identityNumber, p.basis])).toEqual([[GUARDIAN, 'self'], [CHILD, 'guardian']]);
  });

  // Re-review helper-187, F3: an EHR that failed for a moment left the child out, and the app's next refresh ended its
  // right to her for good. Only a record the EHR answers and cannot be read leaves someone out.
  it('fails, rather than leave someone out, when the EHR fails for now', async () => {
    const { ehr, policy } = world();
    vi.spyOn(ehr.reads, 'getPatientV2').mockRejectedValue(new EhrError('timeout', 'slow'));
    await expect(peopleToOpen(policy, GUARDIAN)).rejects.toMatchObject({ failure: 'timeout' });
  });

  it('fails when the person\'s own record cannot be read: nobody is offered in their stead', async () => {
    const { ehr, policy } = world();
    ehr.failure = new EhrError('unavailable', 'down');
    await expect(peopleToOpen(policy, GUARDIAN)).rejects.toBeInstanceOf(EhrError);
  });
});

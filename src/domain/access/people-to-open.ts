import { EhrError } from '../ehr-error.js';
import { DomainError } from '../errors.js';
import { patientDisplayName } from '../records/index.js';
import type { PatientAccessPolicy } from './patient-access.js';
import type { AccessBasis, ProxyReach } from './relationship.js';

/** One person whose record someone may open now, with what a picker shows of them. */
export interface PersonToOpen {
  identityNumber: string;
  name: string;
  basis: AccessBasis;
  /** Only for basis `proxy`: the categories the patient shared (PatientAccess.reach). */
  reach?: ProxyReach;
}

/**
 * Everyone `personId` may open now, themself first, each decided as a read of their record would be
 * (the registry today, protected identity): what a SMART launch's picker offers (docs/smart-launch.md).
 * Someone the decision refuses is not offered at all; nor is someone else whose record the EHR answers and
 * cannot be read (one child's unreadable document made the guardian's whole sign-in fail: re-review helper-186,
 * F1). An EHR that fails for now (unavailable, slow) fails the picker, as the person's own record failing does:
 * leaving the person out then would end an app's right to them at its next refresh (helper-187, F3).
 */
export async function peopleToOpen(policy: PatientAccessPolicy, personId: string): Promise<PersonToOpen[]> {
  const out: PersonToOpen[] = [];
  for (const patient of await policy.peopleFor(personId)) {
    try {
      const access = await policy.resolve({ personId }, patient);
      out.push({ identityNumber: patient, name: patientDisplayName(access.patientRecords, patient), basis: access.basis, ...(access.reach === undefined ? {} : { reach: access.reach }) });
    } catch (err) {
      const refused = err instanceof DomainError && err.code === 'ACCESS_DENIED';
      const unreadable = err instanceof EhrError && err.failure === 'bad-response';
      if (!refused && (patient === personId || !unreadable)) throw err;
    }
  }
  return out;
}

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
 * Someone the decision refuses is not offered at all. Any other failure fails the picker: leaving someone out
 * on an EHR's failure would end an app's right to them at its next refresh, and the EHR's errors (a 500, an
 * unreadable document) cannot be told from one another here (re-reviews helper-187 F3, helper-188 F2).
 */
export async function peopleToOpen(policy: PatientAccessPolicy, personId: string): Promise<PersonToOpen[]> {
  const out: PersonToOpen[] = [];
  for (const patient of await policy.peopleFor(personId)) {
    try {
      const access = await policy.resolve({ personId }, patient);
      out.push({ identityNumber: patient, name: patientDisplayName(access.patientRecords, patient), basis: access.basis, ...(access.reach === undefined ? {} : { reach: access.reach }) });
    } catch (err) {
      if (!(err instanceof DomainError && err.code === 'ACCESS_DENIED')) throw err;
    }
  }
  return out;
}

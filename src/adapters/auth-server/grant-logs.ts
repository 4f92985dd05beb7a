// Whose access log the records of a grant go to (docs/sign-in.md#what-the-person-sees): a SMART
// launch's in the picked patient's, a plain OAuth grant's (the API's own scopes, no pick) in the
// person's own, as its consent is. Each record of the grant, its tokens and its end, says the same.
import type { GrantEvent, SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { fhirUserOf, type KeptGrant } from './smart-launch.js';

export type GrantLog = Pick<GrantEvent, 'patientId' | 'basis' | 'fhirUser'>;

/**
 * The log of `kept`, asked of the registry now: a launch's patient is named whether or not the person
 * may still open their record (then basis `refused`), for the record belongs in the log its grant is in.
 */
export async function logOf(smart: SmartLaunchContext, kept: Pick<KeptGrant, 'accountId' | 'patientId' | 'fhirUser'>): Promise<GrantLog> {
  const people = await smart.peopleFor(kept.accountId);
  if (kept.patientId === undefined) {
    const self = people.find((p) => p.basis === 'self');
    return { basis: 'self', ...(self === undefined ? {} : { fhirUser: fhirUserOf(self) }) };
  }
  const basis = people.find((p) => p.patientId === kept.patientId)?.basis ?? 'refused';
  return { patientId: kept.patientId, basis, ...(kept.fhirUser === undefined ? {} : { fhirUser: kept.fhirUser }) };
}

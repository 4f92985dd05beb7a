import type { EhrRecords } from '../../ports/ehr-records.port.js';
import { EhrError } from '../ehr-error.js';
import { isProtectedInEhr } from '../access/protected-identity.js';
import { knowsPatient, patientDisplayName } from '../records/index.js';
import { readerOf } from '../use-cases/read-sources.js';

/** What the EHR says of a person who gives or accepts a grant: never asked about a number someone typed. */
export interface PersonFacts {
  /** As the EHR writes it; absent when the EHR does not know the person, or writes no name for them. */
  name?: string;
  protectedIdentity: boolean;
}

/**
 * A person's own facts, from their own patient record (the EHR's patient read), and a protection mark from either
 * patient document. One the patient document does not know is still asked of the v2 mirror, which may mark them:
 * a grant's kept name of such a person went on being shown (re-review helper-186, F4).
 */
export async function personFacts(ehr: EhrRecords, personId: string): Promise<PersonFacts> {
  const view = ehr.forRequest();
  const records = await readerOf(view.reads, 'getPatient')(personId, {}).catch((err: unknown) => {
    if (err instanceof EhrError && err.failure === 'patient-not-found') return [];
    throw err;
  });
  const name = knowsPatient(records, personId) ? patientDisplayName(records, personId) : '';
  return { ...(name === '' ? {} : { name }), protectedIdentity: await isProtectedInEhr(view, personId, records) };
}

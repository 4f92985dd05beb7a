import type { EhrRecords } from '../../ports/ehr-records.port.js';
import { EhrError } from '../ehr-error.js';
import { isProtectedInEhr } from '../access/protected-identity.js';
import { knowsPatient, patientDisplayName } from '../records/index.js';
import { readerOf } from '../use-cases/read-sources.js';

/** What the EHR says of a person who gives or accepts a grant: never asked about a number someone typed. */
export interface PersonFacts {
  /** As the EHR writes it; absent when the EHR does not know the person. */
  name?: string;
  protectedIdentity: boolean;
}

/** A person's own facts, from their own patient record (the EHR's patient read). */
export async function personFacts(ehr: EhrRecords, personId: string): Promise<PersonFacts> {
  try {
    const view = ehr.forRequest();
    const records = await readerOf(view.reads, 'getPatient')(personId, {});
    if (!knowsPatient(records, personId)) return { protectedIdentity: false };
    const name = patientDisplayName(records, personId);
    return { ...(name === '' ? {} : { name }), protectedIdentity: await isProtectedInEhr(view, personId, records) };
  } catch (err) {
    if (err instanceof EhrError && err.failure === 'patient-not-found') return { protectedIdentity: false };
    throw err;
  }
}

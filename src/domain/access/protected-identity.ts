/**
 * Protected identity as the EHR marks it (docs/contract.md#token-kinds): in either of its patient
 * documents. A legacy EHR keeps the patient document and its v2 mirror apart, and they may disagree;
 * when in doubt, protect. The access decision read the patient document (v1) alone, and a person only
 * the v2 mirror marked was read by her delegates on both doors, and a kiosk shown her address
 * (hostile review helper-184, F1).
 */
import type { EhrCalls } from '../../ports/ehr-records.port.js';
import { EhrError } from '../ehr-error.js';
import { readPolicyOf } from '../operations/table.js';
import { ReadUnavailableError } from '../read-availability/unavailable-read.js';
import { isProtectedIdentity, type PatientRecord } from '../records/index.js';
import { readerOf } from '../use-cases/read-sources.js';

/**
 * Whether `patientId` is a protected identity: marked in `patientRecords` (the patient document, already
 * read), else in the v2 mirror, read through `ehr`. A v2 the EHR does not keep for the patient, or a v2 read
 * the region does not serve (READS_OFF, or a FHIR server that cannot answer it), has no mark to read: the
 * patient document decides, and one read's absence takes no other down (re-review helper-186, F1). Any other
 * failure to read it fails the decision, as a failed patient read does.
 */
export async function isProtectedInEhr(ehr: EhrCalls, patientId: string, patientRecords: PatientRecord[]): Promise<boolean> {
  if (isProtectedIdentity(patientRecords, patientId)) return true;
  try {
    return readPolicyOf('getPatientV2').marksProtectedIdentity(await readerOf(ehr.reads, 'getPatientV2')(patientId, {}));
  } catch (err) {
    if ((err instanceof EhrError && err.failure === 'patient-not-found') || err instanceof ReadUnavailableError) return false;
    throw err;
  }
}

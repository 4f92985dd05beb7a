import type { EhrRecords, ReadKind, ReadResults, TimeRange } from '../../ports/ehr-records.port.js';
import type { PatientAccess } from '../access/patient-access.js';
import { accessDenied, isDelegated } from '../access/patient-access.js';
import {
  marksProtectedIdentity, selectInRange, withoutContactDetails, type PatientV2,
} from '../records/index.js';

/** The seven reads: one patient's records, within a time range, masked where the law says so. */
export class ReadPatientData {
  constructor(private readonly ehr: EhrRecords, private readonly zone: string) {}

  async execute<K extends ReadKind>(kind: K, access: PatientAccess, range: TimeRange): Promise<ReadResults[K]> {
    const fetched = kind === 'patient'
      ? (access.patientRecords as ReadResults[K])
      : await this.ehr.read(kind, access.patientId, range);
    // The answered document may mark the identity protected where the patient document did not.
    const protectedHere = marksProtectedIdentity(kind, fetched);
    if (protectedHere && isDelegated(access.basis)) throw accessDenied();
    // Upstream filtering is trusted for volume, not for correctness: select and sort here too.
    const selected = selectInRange(kind, fetched, range, this.zone);
    const mask = access.maskContactDetails || (protectedHere && access.basis === 'client');
    return mask ? withoutContactDetails(kind, selected) : selected;
  }

  /** The EHR's `patient-v2` document in the vendor's layout (`[]` when it has none), masked like every read. */
  patientV2(access: PatientAccess): Promise<PatientV2[]> {
    return this.execute('patient-v2', access, {});
  }
}

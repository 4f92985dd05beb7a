import type { EhrRecords, ReadKind, ReadResults, TimeRange } from '../../ports/ehr-records.port.js';
import type { Clock } from '../../ports/clock.port.js';
import type { PatientAccess } from '../access/patient-access.js';
import { accessDenied, isDelegated } from '../access/patient-access.js';
import {
  marksProtectedIdentity, selectInRange, withoutContactDetails, type PatientV2,
} from '../records/index.js';
import { releaseToCaller, type Released } from '../release/release.js';
import type { ReleasePolicy } from '../release/release-policy.js';

/** The region's release policy (RELEASE_POLICY_FILE) and the clock its signing delay and age limits read. */
export interface ReleaseSettings {
  policy: ReleasePolicy | undefined;
  clock: Clock;
}

/**
 * The seven reads: one patient's records, within a time range, less what the release policy
 * withholds from this caller, masked where the law says so.
 */
export class ReadPatientData {
  constructor(
    private readonly ehr: EhrRecords,
    private readonly zone: string,
    private readonly release: ReleaseSettings | undefined = undefined,
  ) {}

  async execute<K extends ReadKind>(kind: K, access: PatientAccess, range: TimeRange): Promise<Released<ReadResults[K]>> {
    const fetched = kind === 'patient'
      ? (access.patientRecords as ReadResults[K])
      : await this.ehr.read(kind, access.patientId, range);
    // The answered document may mark the identity protected where the patient document did not.
    const protectedHere = marksProtectedIdentity(kind, fetched);
    if (protectedHere && isDelegated(access.basis)) throw accessDenied();
    // Upstream filtering is trusted for volume, not for correctness: select and sort here too.
    const selected = selectInRange(kind, fetched, range, this.zone);
    const released = this.release === undefined ? { records: selected, withheld: 0 } : releaseToCaller(kind, selected, this.release.policy, {
      basis: access.basis, patientId: access.patientId, now: this.release.clock.now(), zone: this.zone,
    });
    const mask = access.maskContactDetails || (protectedHere && access.basis === 'client');
    return mask ? { ...released, records: withoutContactDetails(kind, released.records) } : released;
  }

  /** The EHR's `patient-v2` document in the vendor's layout (`[]` when it has none), masked like every read. */
  async patientV2(access: PatientAccess): Promise<PatientV2[]> {
    return (await this.execute('patient-v2', access, {})).records;
  }
}

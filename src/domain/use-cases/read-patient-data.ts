import type { Clock } from '../../ports/clock.port.js';
import { accessDenied, type PatientAccess } from '../access/patient-access.js';
import { reachesRead } from '../access/operation-reach.js';
import { isDelegated, type AccessBasis } from '../access/relationship.js';
import { readPolicyOf, selectInRange, type ReadItem, type ReadName } from '../operations/table.js';
import { carriesNoProtectionMark, type Released } from '../read-policy/read-policy.js';
import { activeRules } from '../release/active-rules.js';
import { filteredUpstream } from '../release/filtered-upstream.js';
import { ageLimitWithholds } from '../release/patient-age.js';
import type { ReleasePolicy } from '../release/release-policy.js';
import { isBounded, type TimeRange } from '../time/time-range.js';
import { readerOf } from './read-sources.js';

/** The region's release policy (RELEASE_POLICY_FILE) and the clock its signing delay and age limits read. */
export interface ReleaseSettings {
  policy: ReleasePolicy | undefined;
  clock: Clock;
}

export interface ReleaseContext {
  basis: AccessBasis;
  /** The patient the read is for; the age limits read the birth date from it. */
  patientId: string;
  now: number;
  zone: string;
}

/**
 * What of a read may be released to its caller under the region's policy
 * (docs/contract.md#only-what-may-be-released): its items less what the read's policy withholds,
 * all of them when an age limit of this read (the guardian's or the patient's own) takes the whole read.
 */
export function releaseToCaller<R extends ReadName>(
  read: R, items: ReadItem<R>[], policy: ReleasePolicy | undefined, context: ReleaseContext,
): Released<ReadItem<R>[]> {
  const release = readPolicyOf(read).release;
  if (policy === undefined || release === undefined) return { records: items, withheld: 0 };
  const { basis, patientId, now, zone } = context;
  const everything = ageLimitWithholds(policy, read, basis, patientId, now, zone);
  const released = release(items, activeRules(policy, basis, now, zone), everything);
  // A read the limit takes whole is marked in any range, as one withheld where nothing was: a mark only
  // where the range held something would tell, range by narrowed range, when the patient was cared for.
  return everything && released.withheld === 0 ? { ...released, withheld: 1 } : released;
}

/**
 * Every read of patient records, one way: the patient's records from the EHR, within a time range,
 * less what the release policy withholds from this caller, masked where the law says so. What
 * differs between reads is their policy in the operation table. The EHR is the request's view the
 * access was decided through (`access.ehr`), so the read is about the patient the decision was.
 */
export class ReadPatientData {
  constructor(
    private readonly zone: string,
    private readonly release: ReleaseSettings | undefined = undefined,
  ) {}

  async execute<R extends ReadName>(read: R, access: PatientAccess, range: TimeRange): Promise<Released<ReadItem<R>[]>> {
    // A proxy's grant opens its categories only (docs/proxies.md): every door's read ends here.
    if (!reachesRead(access, read)) throw accessDenied();
    // The patient document was read to decide the access: answered as it was read then.
    if (read === 'getPatient') return this.releaseFetched(read, access, access.patientRecords as ReadItem<R>[], range);
    const reader = readerOf(access.ehr.reads, read);
    if (!isBounded(range) || !this.decidedWhole(read, access)) return this.releaseFetched(read, access, await reader(access.patientId, range), range);
    // Its mark, and a protection mark in the record, are the same for every range, so narrowing the range dates nothing
    // (hostile reviews helper-184 F2, helper-187 F1, helper-188 F3). The whole record is read and the range selected here.
    // A whole record the EHR cannot answer (over the service's limits) fails the read, as it fails an unbounded one: a
    // fallback to the range took an EHR's 5xx or another patient's record for one (re-review helper-189, F1).
    const whole = await reader(access.patientId, {});
    // Both released every time, so that the time an answer takes does not tell whether its range held something
    // withheld (helper-188, F1); counted one withheld where the range held none and the record holds something.
    const everything = this.releaseFetched(read, access, whole, {});
    const released = this.releaseFetched(read, access, whole, range);
    return released.withheld === 0 && everything.withheld > 0 ? { ...released, withheld: 1 } : released;
  }

  /**
   * Whether a range of `read` asked through `access` is decided over the whole record: where the region's policy has
   * rules for the read, or where its document may carry a protection mark that a delegate or a client token is held to.
   * A read with neither (the bookings, the video meetings) is asked as given (re-review helper-190, R8-1).
   */
  private decidedWhole(read: ReadName, access: PatientAccess): boolean {
    const policy = readPolicyOf(read);
    const filters = this.release?.policy !== undefined && policy.release !== undefined;
    return filters || (access.basis !== 'self' && policy.marksProtectedIdentity !== carriesNoProtectionMark);
  }

  /**
   * What of records already fetched for `access.patientId` this access is given, by the same rules as
   * `execute`: a poll for notifications reads a patient's records once and decides for each of its
   * subscribers (docs/notifications.md#checked-at-sending).
   */
  releaseFetched<R extends ReadName>(read: R, access: PatientAccess, fetched: ReadItem<R>[], range: TimeRange): Released<ReadItem<R>[]> {
    if (!reachesRead(access, read)) throw accessDenied();
    const policy = readPolicyOf(read);
    // The answered document may mark the identity protected where the patient document did not.
    const protectedHere = policy.marksProtectedIdentity(fetched);
    if (protectedHere && isDelegated(access.basis)) throw accessDenied();
    // Upstream filtering is trusted for volume, not for correctness: select and sort here too.
    const selected = selectInRange(read, fetched, range, this.zone);
    const byPolicy = this.release === undefined ? { records: selected, withheld: 0 } : releaseToCaller(read, selected, this.release.policy, {
      basis: access.basis, patientId: access.patientId, now: this.release.clock.now(), zone: this.zone,
    });
    // What the EHR itself withheld (a FHIR server's SUBSETTED answer) is told as this policy's is: it counts one, its number unknown.
    const released = filteredUpstream(fetched) ? { ...byPolicy, withheld: byPolicy.withheld + 1 } : byPolicy;
    const mask = access.maskContactDetails || (protectedHere && access.basis === 'client');
    return mask ? { ...released, records: policy.withoutContactDetails(released.records) } : released;
  }
}

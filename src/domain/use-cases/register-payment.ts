import type { PaymentType } from '../writes/payment-types.js';
import type { WriteCoordinator } from '../../ports/write-coordinator.port.js';
import type { PatientAccess } from '../access/patient-access.js';
import { parsePersonalIdentityNumber } from '../identity/personal-identity-number.js';
import type { BookedAppointmentsResult, ResultRecord } from '../records/index.js';
import { readerOf } from './read-sources.js';
import { fromEhrResult, type EhrWriteResult } from '../writes/write-outcomes.js';

/**
 * Registers that an arrived appointment is paid. Identical payments take turns across instances
 * and the EHR keeps the first payment type, so a retry after a lost answer, or a double tap on two
 * kiosks, is INFO and never a second payment. The EHR is the request's view the access was decided
 * through (`access.ehr`).
 */
export class RegisterPayment {
  constructor(private readonly coordinator: WriteCoordinator) {}

  async execute(access: PatientAccess, contactId: string, paymentType: PaymentType, abandoned: AbortSignal): Promise<ResultRecord[]> {
    const pay = (): Promise<EhrWriteResult> => access.ehr.registerPayment(access.patientId, contactId, paymentType);
    // One inside the other, outer first: a payment that may have been made holds every turn it took.
    const written = await (await this.turnsOf(access, contactId)).reduceRight<() => Promise<EhrWriteResult>>(
      (inner, key) => () => this.coordinator.exclusive(key, abandoned, inner), pay)();
    return [fromEhrResult(written)];
  }

  /**
   * The turns a payment of `contactId` takes. One of the patient's bookings: the booking's, so a CARD and a
   * CASH payment for one visit do not race, nor one asked under each of two numbers the EHR knows the
   * patient by (a former coordination number: hostile review helper-136, F3). Any other id (unknown, another
   * patient's, cancelled) is the EHR's to refuse, in a turn of the patient's own: taking the booking's would
   * let a stranger hold the patient's own payment back, and learn from its wait that the id is somebody's
   * (helper-154, F1). That turn is named by the least of the numbers the bookings' answer names the patient
   * by, so a booking the list left out is still one turn under each of them (helper-156, F2). Where the list
   * may be incomplete (a booking source failed) or cannot be read at all (turned off, failing, too long to
   * page), both, the patient's (by the number asked) around the booking's: a booking the list leaves out may
   * still be the patient's to pay (a FHIR server's search need not list every appointment its write takes),
   * and a repeat read the other way took the other turn and paid it twice (re-review helper-176, F1).
   */
  private async turnsOf(access: PatientAccess, contactId: string): Promise<string[]> {
    const booking = `payment/${contactId}`;
    const unlisted = (number: string): string => `payment-unlisted/${number}/${contactId}`;
    let results: BookedAppointmentsResult[];
    try {
      results = await readerOf(access.ehr.reads, 'getAppointments')(access.patientId, {});
    } catch {
      return [unlisted(access.patientId), booking];
    }
    if (results.some((r) => (r.Booking ?? []).some((b) => b.ContactId === contactId))) return [booking];
    if (results.some((r) => r.ResultCode !== 'OK')) return [unlisted(access.patientId), booking];
    return [unlisted(leastNumberOf(access.patientId, results))];
  }
}

/**
 * The least of the identity numbers the bookings' answer names the patient by (as the header's own
 * parser reads them, spaces dropped), else `patientId`. Not `patientId` beside them: an answer that leaves
 * out a former number (the FHIR mapping drops identifiers of `use: old`) would make the one asked under
 * it a turn of its own (helper-157, F6).
 */
function leastNumberOf(patientId: string, results: readonly BookedAppointmentsResult[]): string {
  let least: string | undefined;
  for (const r of results) {
    for (const { Number: written } of r.Patient?.PersonNumbers ?? []) {
      const id = written === undefined ? undefined : parsePersonalIdentityNumber(written.replace(/\s/g, ''));
      if (id !== undefined && (least === undefined || id < least)) least = id;
    }
  }
  return least ?? patientId;
}

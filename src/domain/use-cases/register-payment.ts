import type { PaymentType } from '../writes/payment-types.js';
import type { WriteCoordinator } from '../../ports/write-coordinator.port.js';
import type { PatientAccess } from '../access/patient-access.js';
import type { ResultRecord } from '../records/index.js';
import { fromEhrResult } from '../writes/write-outcomes.js';

/**
 * Registers that an arrived appointment is paid. Identical payments take turns across instances
 * and the EHR keeps the first payment type, so a retry after a lost answer, or a double tap on two
 * kiosks, is INFO and never a second payment. The EHR is the request's view the access was decided
 * through (`access.ehr`).
 */
export class RegisterPayment {
  constructor(private readonly coordinator: WriteCoordinator) {}

  /**
   * In the booking's turn, whoever asks and however the patient's bookings read: one turn per visit is
   * what keeps two payments of it from the EHR at once. A turn chosen by what the bookings' list said
   * (the booking's where listed, the patient's where not, the list failing either way) gave one visit
   * two turns whenever two reads of it differed, a FHIR server's search leaving out an appointment its
   * write takes, or a patient asking under two numbers, and a repeat of a payment that may have been
   * made ran beside it and paid the visit twice (re-reviews helper-176 F1 and helper-178 F1, F2, both
   * HIGH). The price, as before helper-154: a payment of another's booking id waits in that booking's
   * turn, and one the EHR does not confirm holds it as any would (docs/contract.md "writes"). The turn is the
   * id as written: the EHR must know a booking by one spelling (docs/upstream-ehr.md §2; helper-179, F1).
   */
  async execute(access: PatientAccess, contactId: string, paymentType: PaymentType, abandoned: AbortSignal): Promise<ResultRecord[]> {
    const written = await this.coordinator.exclusive(`payment/${contactId}`, abandoned,
      () => access.ehr.registerPayment(access.patientId, contactId, paymentType));
    return [fromEhrResult(written)];
  }
}

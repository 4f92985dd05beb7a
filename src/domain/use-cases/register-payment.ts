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

  async execute(access: PatientAccess, contactId: string, paymentType: PaymentType, abandoned: AbortSignal): Promise<ResultRecord[]> {
    // Keyed by the booking alone: a CARD and a CASH payment for one visit must not race, nor one asked under each of
    // two numbers the EHR knows the patient by (a former coordination number: hostile review helper-136, F3).
    const written = await this.coordinator.exclusive(`payment/${contactId}`, abandoned,
      () => access.ehr.registerPayment(access.patientId, contactId, paymentType));
    return [fromEhrResult(written)];
  }
}

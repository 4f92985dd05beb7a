import type { EhrRecords, PaymentType } from '../../ports/ehr-records.port.js';
import type { PatientAccess } from '../access/patient-access.js';
import type { ResultRecord } from '../records/index.js';
import { fromEhrResult } from '../writes/write-outcomes.js';

/**
 * Registers that an arrived appointment is paid. The EHR keeps the first payment type, so a retry
 * after a lost answer is INFO and never a second payment.
 */
export class RegisterPayment {
  constructor(private readonly ehr: EhrRecords) {}

  async execute(access: PatientAccess, contactId: string, paymentType: PaymentType): Promise<ResultRecord[]> {
    return [fromEhrResult(await this.ehr.registerPayment(access.patientId, contactId, paymentType))];
  }
}

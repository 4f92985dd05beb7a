import type { ReadItem, ReadName } from '../domain/operations/table.js';
import type { TimeRange } from '../domain/time/time-range.js';
import type { PaymentType } from '../domain/writes/payment-types.js';
import type { EhrWriteResult } from '../domain/writes/write-outcomes.js';

/** One read of one patient's records, filtered to `range` and sorted oldest first. Throws EhrError. */
export type RecordReader<R extends ReadName> = (patientId: string, range: TimeRange) => Promise<ReadItem<R>[]>;

/** The reads an EHR serves, named as the operations name them; a read it does not serve is absent. */
export type EhrReads = { readonly [R in ReadName]?: RecordReader<R> };

/** The patient data of an EHR, already translated to the API's JSON records. */
export interface EhrRecords {
  /**
   * The reads this EHR serves. The composition root refuses to start when a read the API offers has
   * no source here, so a missing one is a start-up error, never an empty answer.
   */
  readonly reads: EhrReads;
  registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult>;
  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult>;
  /** Cheap reachability probe for readiness. */
  ping(): Promise<boolean>;
}

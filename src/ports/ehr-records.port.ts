import type { ReadItem, ReadName } from '../domain/operations/table.js';
import type { UnavailableReads } from '../domain/read-availability/unavailable-read.js';
import type { TimeRange } from '../domain/time/time-range.js';
import type { ArrivalCheck } from '../domain/writes/arrival-window.js';
import type { PaymentType } from '../domain/writes/payment-types.js';
import type { EhrWriteResult } from '../domain/writes/write-outcomes.js';

/** One read of one patient's records, filtered to `range` and sorted oldest first. Throws EhrError. */
export type RecordReader<R extends ReadName> = (patientId: string, range: TimeRange) => Promise<ReadItem<R>[]>;

/**
 * Every read of the operation table, named as the operations name them. An EHR without data for one
 * answers it with no records (its folder declares it NOT_SERVED, src/reads/read-sources.ts).
 */
export type EhrReads = { readonly [R in ReadName]: RecordReader<R> };

/** What the use cases ask of the EHR about a patient: the reads and the two writes. */
export interface EhrCalls {
  /** Every read, each from where the read's folder says this EHR has it. */
  readonly reads: EhrReads;
  /**
   * Marks booking `contactId` arrived. An adapter that reads the booking before it writes asks `arrivable`
   * of the start it reads, and answers `ERROR OUTSIDE_ARRIVAL_WINDOW` without writing when it says no.
   */
  registerArrival(patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult>;
  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult>;
}

/** The patient data of an EHR, already translated to the API's JSON records. */
export interface EhrRecords extends EhrCalls {
  /**
   * The EHR as one API request sees it (docs/architecture.md#one-request-one-patient): every call made
   * through it about one identity number is about the same patient record, the one its first call
   * found. An EHR that finds the patient anew for each call (the FHIR adapter's identity lookup) finds
   * it once per view; one that needs nothing of the kind answers itself. A view is opened for one
   * request and dropped with it: nothing it holds is kept past the request or shared with another.
   */
  forRequest(): EhrCalls;
  /** Cheap reachability probe for readiness. */
  ping(): Promise<boolean>;
  /**
   * The reads this EHR cannot serve now, each with why (a FHIR server lacking a read's searches), as its
   * latest `ping` found; such a read rejects with ReadUnavailableError and the others serve. None when absent.
   */
  unavailableReads?(): UnavailableReads;
}

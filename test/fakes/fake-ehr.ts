import type { DelegationRegistry } from '../../src/ports/delegation-registry.port.js';
import type { Relationship } from '../../src/domain/access/relationship.js';
import { EhrError } from '../../src/domain/ehr-error.js';
import { READ_NAMES, type ReadItem, type ReadName } from '../../src/domain/operations/table.js';
import type { ArrivalCheck } from '../../src/domain/writes/arrival-window.js';
import type { PaymentType } from '../../src/domain/writes/payment-types.js';
import type { EhrWriteResult } from '../../src/domain/writes/write-outcomes.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../src/ports/ehr-records.port.js';

type Data = { [R in ReadName]?: ReadItem<R>[] };

/** An EHR held in memory, recording every call so tests can assert what was (not) asked upstream. */
export class FakeEhr implements EhrRecords {
  readonly calls: string[] = [];
  readonly patients = new Map<string, Data>();
  writeResult: EhrWriteResult = { resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' };
  failure: EhrError | undefined;
  /** Every read of the operation table, each answering what `withPatient` gave it. */
  readonly reads: EhrReads = Object.fromEntries(READ_NAMES.map((read) => [read, (patientId: string) => this.read(read, patientId)])) as unknown as EhrReads;

  withPatient(patientId: string, data: Data): this {
    this.patients.set(patientId, data);
    return this;
  }

  private async read<R extends ReadName>(read: R, patientId: string): Promise<ReadItem<R>[]> {
    this.calls.push(`read ${read} ${patientId}`);
    if (this.failure) throw this.failure;
    const data = this.patients.get(patientId);
    if (!data) throw new EhrError('patient-not-found', 'unknown patient');
    return (data[read] ?? []) as ReadItem<R>[];
  }

  /** The window check the last arrival was given, to ask of the appointment as an adapter reads it. */
  arrivalCheck: ArrivalCheck | undefined;

  async registerArrival(patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
    this.calls.push(`arrival ${patientId} ${contactId}`);
    this.arrivalCheck = arrivable;
    return this.writeResult;
  }

  async registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    this.calls.push(`payment ${patientId} ${contactId} ${paymentType}`);
    return this.writeResult;
  }

  /** A request's view: this EHR itself (it finds nothing anew per call). */
  forRequest(): EhrCalls {
    return this;
  }

  async ping(): Promise<boolean> {
    return true;
  }
}

export class FakeRegistry implements DelegationRegistry {
  readonly rows = new Map<string, Relationship[]>();
  lookups = 0;

  grant(actorId: string, row: Relationship): this {
    this.rows.set(actorId, [...(this.rows.get(actorId) ?? []), row]);
    return this;
  }

  revokeAll(actorId: string): void {
    this.rows.delete(actorId);
  }

  async relationshipsOf(actorId: string): Promise<Relationship[]> {
    this.lookups++;
    return this.rows.get(actorId) ?? [];
  }
}

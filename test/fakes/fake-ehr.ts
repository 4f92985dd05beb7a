import type { DelegationRegistry, Relationship } from '../../src/ports/delegation-registry.port.js';
import {
  EhrError, type EhrRecords, type EhrWriteResult, type PaymentType, type ReadKind, type ReadResults, type TimeRange,
} from '../../src/ports/ehr-records.port.js';

type Data = { [K in ReadKind]?: ReadResults[K] };

/** An EHR held in memory, recording every call so tests can assert what was (not) asked upstream. */
export class FakeEhr implements EhrRecords {
  readonly calls: string[] = [];
  readonly patients = new Map<string, Data>();
  writeResult: EhrWriteResult = { resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' };
  failure: EhrError | undefined;

  withPatient(patientId: string, data: Data): this {
    this.patients.set(patientId, data);
    return this;
  }

  async read<K extends ReadKind>(kind: K, patientId: string, _range: TimeRange): Promise<ReadResults[K]> {
    this.calls.push(`read ${kind} ${patientId}`);
    if (this.failure) throw this.failure;
    const data = this.patients.get(patientId);
    if (!data) throw new EhrError('patient-not-found', 'unknown patient');
    return (data[kind] ?? []) as ReadResults[K];
  }

  async registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult> {
    this.calls.push(`arrival ${patientId} ${contactId}`);
    return this.writeResult;
  }

  async registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    this.calls.push(`payment ${patientId} ${contactId} ${paymentType}`);
    return this.writeResult;
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

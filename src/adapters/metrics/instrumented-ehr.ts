import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { Relationship } from '../../domain/access/relationship.js';
import { EhrError } from '../../domain/ehr-error.js';
import { eachRead } from '../../domain/use-cases/read-sources.js';
import type { PaymentType } from '../../domain/writes/payment-types.js';
import type { EhrWriteResult } from '../../domain/writes/write-outcomes.js';
import type { EhrReads, EhrRecords } from '../../ports/ehr-records.port.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

/** Times every EHR call and counts its failures, whichever adapter answers it. */
export class InstrumentedEhr implements EhrRecords, DelegationRegistry {
  readonly reads: EhrReads;

  constructor(
    private readonly ehr: EhrRecords,
    private readonly registry: DelegationRegistry,
    private readonly metrics: PrometheusMetrics,
  ) {
    this.reads = eachRead(ehr.reads, (read, reader) => (patientId, range) => this.timed(`read:${read}`, () => reader(patientId, range)));
  }

  registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult> {
    return this.timed('arrival', () => this.ehr.registerArrival(patientId, contactId));
  }

  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    return this.timed('payment', () => this.ehr.registerPayment(patientId, contactId, paymentType));
  }

  relationshipsOf(actorId: string): Promise<Relationship[]> {
    return this.timed('relationships', () => this.registry.relationshipsOf(actorId));
  }

  ping(): Promise<boolean> {
    return this.ehr.ping();
  }

  private async timed<T>(call: string, run: () => Promise<T>): Promise<T> {
    const end = this.metrics.ehrCallDuration.startTimer({ call });
    try {
      const result = await run();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      const failure = err instanceof EhrError ? err.failure : 'error';
      end({ outcome: failure });
      if (failure !== 'patient-not-found') this.metrics.ehrErrors.inc({ call, failure });
      throw err;
    }
  }
}

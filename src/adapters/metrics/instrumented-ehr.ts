import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { Relationship } from '../../domain/access/relationship.js';
import { EhrError } from '../../domain/ehr-error.js';
import { ReadUnavailableError, type UnavailableReads } from '../../domain/read-availability/unavailable-read.js';
import { eachRead } from '../../domain/use-cases/read-sources.js';
import type { PaymentType } from '../../domain/writes/payment-types.js';
import type { ArrivalCheck } from '../../domain/writes/arrival-window.js';
import type { EhrWriteResult } from '../../domain/writes/write-outcomes.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../ports/ehr-records.port.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

/** Times every EHR call and counts its failures, whichever adapter answers it. */
export class InstrumentedEhr implements EhrRecords, DelegationRegistry {
  private readonly calls: EhrCalls;

  constructor(
    private readonly ehr: EhrRecords,
    private readonly registry: DelegationRegistry,
    private readonly metrics: PrometheusMetrics,
  ) {
    this.calls = this.timedCalls(ehr);
  }

  get reads(): EhrReads {
    return this.calls.reads;
  }

  registerArrival(patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
    return this.calls.registerArrival(patientId, contactId, arrivable);
  }

  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    return this.calls.registerPayment(patientId, contactId, paymentType);
  }

  /**
   * The request's view, its calls timed and counted as these are. An adapter whose view is itself (the
   * embedded EHR) keeps nothing per request: its timed calls, made once, serve every request (issue 56
   * item 4; a dozen closures a request before).
   */
  forRequest(): EhrCalls {
    const view = this.ehr.forRequest();
    return view === this.ehr ? this.calls : this.timedCalls(view);
  }

  relationshipsOf(actorId: string): Promise<Relationship[]> {
    return this.timed('relationships', () => this.registry.relationshipsOf(actorId));
  }

  /** The readiness check: its answer is kept as pdas_dependency_up{dependency="ehr"}. */
  ping(): Promise<boolean> {
    return this.metrics.observeCheck('ehr', () => this.ehr.ping());
  }

  /** Asked by /health/ready: its answer is kept as pdas_read_unavailable{read, reason}. */
  unavailableReads(): UnavailableReads {
    return this.metrics.observeUnavailableReads(this.ehr.unavailableReads?.() ?? new Map());
  }

  private timedCalls(calls: EhrCalls): EhrCalls {
    return {
      reads: eachRead(calls.reads, (read, reader) => (patientId, range) => this.timed(`read:${read}`, () => reader(patientId, range))),
      registerArrival: (patientId, contactId, arrivable) => this.timed('arrival', () => calls.registerArrival(patientId, contactId, arrivable)),
      registerPayment: (patientId, contactId, paymentType) => this.timed('payment', () => calls.registerPayment(patientId, contactId, paymentType)),
    };
  }

  private async timed<T>(call: string, run: () => Promise<T>): Promise<T> {
    const end = this.metrics.ehrCallDuration.startTimer({ call });
    try {
      const result = await run();
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      // A read the EHR cannot serve was never sent: no failure of the EHR's (readiness names it).
      const failure = err instanceof EhrError ? err.failure : err instanceof ReadUnavailableError ? 'unavailable-read' : 'error';
      end({ outcome: failure });
      if (failure !== 'patient-not-found' && failure !== 'unavailable-read') this.metrics.ehrErrors.inc({ call, failure });
      throw err;
    }
  }
}

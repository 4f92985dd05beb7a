/**
 * Spans for the two things a request waits on, whichever adapter serves them: the EHR (embedded or
 * remote; a remote call has its undici span below this one) and the audit trail (file or
 * PostgreSQL). Attributes name the call, never the patient: ids stay out of every span.
 */
import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { AuditRecord, AuditTrail } from '../ports/audit-trail.port.js';
import type { DelegationRegistry } from '../ports/delegation-registry.port.js';
import type { Relationship } from '../domain/access/relationship.js';
import { EhrError } from '../domain/ehr-error.js';
import { eachRead } from '../domain/use-cases/read-sources.js';
import type { UnavailableReads } from '../domain/read-availability/unavailable-read.js';
import type { PaymentType } from '../domain/writes/payment-types.js';
import type { ArrivalCheck } from '../domain/writes/arrival-window.js';
import type { EhrWriteResult } from '../domain/writes/write-outcomes.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../ports/ehr-records.port.js';

const tracer = trace.getTracer('patient-data-access');

async function inSpan<T>(name: string, attributes: Attributes, run: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await run();
    } catch (err) {
      // A fixed word, never the error's text: it is not ours to vouch for.
      const failure = err instanceof EhrError ? err.failure : 'error';
      span.setAttribute('pdas.failure', failure);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** `calls` with a span around each. */
function tracedCalls(calls: EhrCalls): EhrCalls {
  return {
    reads: eachRead(calls.reads, (read, reader) => (patientId, range) =>
      inSpan(`ehr ${read}`, { 'pdas.ehr.call': `read:${read}` }, () => reader(patientId, range))),
    registerArrival: (patientId, contactId, arrivable) =>
      inSpan('ehr write arrival', { 'pdas.ehr.call': 'arrival' }, () => calls.registerArrival(patientId, contactId, arrivable)),
    registerPayment: (patientId, contactId, paymentType) =>
      inSpan('ehr write payment', { 'pdas.ehr.call': 'payment' }, () => calls.registerPayment(patientId, contactId, paymentType)),
  };
}

export class TracedEhr implements EhrRecords, DelegationRegistry {
  private readonly calls: EhrCalls;

  constructor(private readonly ehr: EhrRecords, private readonly registry: DelegationRegistry) {
    this.calls = tracedCalls(ehr);
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

  /** The request's view, its calls traced as these are. */
  forRequest(): EhrCalls {
    return tracedCalls(this.ehr.forRequest());
  }

  relationshipsOf(actorId: string): Promise<Relationship[]> {
    return inSpan('ehr read relationships', { 'pdas.ehr.call': 'relationships' }, () => this.registry.relationshipsOf(actorId));
  }

  ping(): Promise<boolean> {
    return this.ehr.ping();
  }

  unavailableReads(): UnavailableReads {
    return this.ehr.unavailableReads?.() ?? new Map();
  }
}

export class TracedAuditTrail implements AuditTrail {
  constructor(private readonly trail: AuditTrail) {}

  append(record: AuditRecord): Promise<void> {
    const attributes: Attributes = { 'pdas.operation': record.operation, 'pdas.audit.phase': record.phase ?? 'outcome' };
    return inSpan('audit append', attributes, () => this.trail.append(record));
  }

  ping(): Promise<boolean> {
    return this.trail.ping();
  }

  close(): Promise<void> {
    return this.trail.close();
  }
}

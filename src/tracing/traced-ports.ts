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
import type { PaymentType } from '../domain/writes/payment-types.js';
import type { EhrWriteResult } from '../domain/writes/write-outcomes.js';
import type { EhrReads, EhrRecords } from '../ports/ehr-records.port.js';

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

export class TracedEhr implements EhrRecords, DelegationRegistry {
  readonly reads: EhrReads;

  constructor(private readonly ehr: EhrRecords, private readonly registry: DelegationRegistry) {
    this.reads = eachRead(ehr.reads, (read, reader) => (patientId, range) =>
      inSpan(`ehr ${read}`, { 'pdas.ehr.call': `read:${read}` }, () => reader(patientId, range)));
  }

  registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult> {
    return inSpan('ehr write arrival', { 'pdas.ehr.call': 'arrival' }, () => this.ehr.registerArrival(patientId, contactId));
  }

  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    return inSpan('ehr write payment', { 'pdas.ehr.call': 'payment' }, () => this.ehr.registerPayment(patientId, contactId, paymentType));
  }

  relationshipsOf(actorId: string): Promise<Relationship[]> {
    return inSpan('ehr read relationships', { 'pdas.ehr.call': 'relationships' }, () => this.registry.relationshipsOf(actorId));
  }

  ping(): Promise<boolean> {
    return this.ehr.ping();
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

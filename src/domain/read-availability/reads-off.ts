/**
 * READS_OFF: the reads a region turns off (docs/operations.md#turning-a-read-off). The EHR is never
 * asked for one; every door's call of it ends here, in ReadUnavailableError, so the COS API, the FHIR
 * API and the notifications' polls answer it alike.
 */
import type { EhrCalls, EhrReads, EhrRecords } from '../../ports/ehr-records.port.js';
import type { ReadName } from '../operations/table.js';
import { eachRead } from '../use-cases/read-sources.js';
import { ReadUnavailableError, type UnavailableReads } from './unavailable-read.js';

/**
 * The read every access decision reads (src/domain/access/patient-access.ts): turned off, no read
 * would be served, so READS_OFF refuses it.
 */
export const ALWAYS_ON: ReadonlySet<ReadName> = new Set<ReadName>(['getPatient']);

function guarded(reads: EhrReads, off: ReadonlySet<ReadName>): EhrReads {
  return eachRead(reads, (read, reader) => (off.has(read) ? () => Promise.reject(new ReadUnavailableError(read, 'turned-off')) : reader));
}

/** `ehr` without the reads `off` names; `ehr` itself when it names none. */
export function withReadsOff(ehr: EhrRecords, off: ReadonlySet<ReadName>): EhrRecords {
  if (off.size === 0) return ehr;
  const calls = (inner: EhrCalls): EhrCalls => ({
    reads: guarded(inner.reads, off),
    registerArrival: (patientId, contactId, arrivable) => inner.registerArrival(patientId, contactId, arrivable),
    registerPayment: (patientId, contactId, paymentType) => inner.registerPayment(patientId, contactId, paymentType),
  });
  return {
    ...calls(ehr),
    forRequest: () => calls(ehr.forRequest()),
    ping: () => ehr.ping(),
    unavailableReads: (): UnavailableReads => new Map([...ehr.unavailableReads?.() ?? [], ...[...off].map((read) => [read, 'turned-off'] as const)]),
  };
}

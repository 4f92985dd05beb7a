import type { AuditRecord } from '../../ports/audit-trail.port.js';
import type { ChainCheck, ChainCheckOptions } from './chain-check.js';

/**
 * Reading the audit trail back, for the question a patient may ask under the law: who accessed my
 * data, and when. Separate from the AuditTrail port because the service itself never reads it.
 */
export interface AuditQuery {
  /** Every record for `patientId` with `from <= time <= to`, oldest first. */
  accessesTo(patientId: string, from: Date, to: Date): Promise<AuditRecord[]>;
  /** The hash chain checked from its first record, or from a checkpoint, with the keys and signed heads given (docs/operations.md#checking-the-chain). */
  chain(options?: ChainCheckOptions): Promise<ChainCheck>;
  close(): Promise<void>;
}

/** Raised when the trail to read is not there at all, so "no accesses" is never reported by mistake. */
export class AuditTrailMissingError extends Error {
  override name = 'AuditTrailMissingError';
}

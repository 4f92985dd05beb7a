import { isAttempt, type AuditRecord } from '../../ports/audit-trail.port.js';

/**
 * How long after its attempt a write's outcome record may come: the audit deadline, the EHR's and
 * the wait for an identical write, with room to spare. Records this far past the window are read
 * only to find the outcomes of attempts inside it.
 */
export const OUTCOME_WITHIN_MS = 10 * 60_000;

/**
 * The accesses in [from, to], oldest first, each request counted once: its outcome record, or,
 * where a write's attempt has no outcome (the service stopped in between, so the write may or may
 * not have happened), the attempt. `records` may reach OUTCOME_WITHIN_MS past `to`.
 */
export function accessesIn(records: readonly AuditRecord[], from: Date, to: Date): AuditRecord[] {
  const answered = new Set<string>();
  for (const r of records) if (!isAttempt(r) && r.serviceRequestId !== undefined) answered.add(r.serviceRequestId);
  const found: Array<{ record: AuditRecord; ms: number }> = [];
  for (const record of records) {
    const ms = Date.parse(record.time);
    if (ms < from.getTime() || ms > to.getTime()) continue;
    if (isAttempt(record) && record.serviceRequestId !== undefined && answered.has(record.serviceRequestId)) continue;
    found.push({ record, ms });
  }
  // The stable sort keeps the order records were read in for ties.
  return found.sort((a, b) => a.ms - b.ms).map((f) => f.record);
}

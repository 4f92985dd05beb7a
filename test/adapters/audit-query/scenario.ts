import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';
import { CHILD, fullRecord, GUARDIAN, minimalRecord } from '../audit-postgres/records.js';

export { CHILD, GUARDIAN };

/**
 * A day of accesses around one patient (CHILD), appended out of time order. The window asked
 * about is 21 November 2026 in Swedish local time (CET, UTC+1): 2026-11-20T23:00:00.000Z to
 * 2026-11-21T22:59:59.999Z, both included.
 */
export const FROM = new Date('2026-11-20T23:00:00.000Z');
export const TO = new Date('2026-11-21T22:59:59.999Z');

export const inWindow: AuditRecord[] = [
  fullRecord(1, { requestId: 'first-local-ms', time: '2026-11-20T23:00:00.000Z' }),
  // Issue 34 item 10: the caller's X-Request-Id, kept beside the service's id for operators.
  fullRecord(2, { requestId: 'guardian-read', serviceRequestId: 'guardian-read', callerRequestId: 'app-trace-7f3a', time: '2026-11-21T09:00:02.123Z' }),
  {
    ...minimalRecord(3), requestId: 'kiosk-refused', operation: 'markArrived', time: '2026-11-21T12:30:00.000Z',
    actor: { issuer: 'https://idp.example.test', subject: 'kiosk-7' }, clientId: 'kiosk-7', subscription: 'kiosk',
    patientId: CHILD, delegation: 'client', sourceAddress: '10.0.0.7', outcome: 'denied', status: 403,
  },
  fullRecord(4, { requestId: 'last-local-ms', time: '2026-11-21T22:59:59.999Z', outcome: 'failed', status: 503 }),
];

export const outside: AuditRecord[] = [
  fullRecord(5, { requestId: 'day-before', time: '2026-11-20T22:59:59.999Z' }),
  fullRecord(6, { requestId: 'day-after', time: '2026-11-21T23:00:00.000Z' }),
  // The patient acting for someone else: about GUARDIAN's data, not CHILD's.
  fullRecord(7, { requestId: 'other-patient', patientId: GUARDIAN, actor: { issuer: 'i', subject: 's', personId: CHILD } }),
  minimalRecord(8),
];

/** Appended in this order (not time order): the query must sort. */
export const appendOrder: AuditRecord[] = [outside[0], inWindow[2], inWindow[0], outside[2], inWindow[3], outside[1], inWindow[1], outside[3]]
  .filter((r): r is AuditRecord => r !== undefined);

import type { AccessLogReader, AccessLogQuery, LoggedAccess } from '../../../src/ports/access-log.port.js';
import type { AuditRecord } from '../../../src/ports/audit-trail.port.js';

export const CHILD = '201701012393';
export const GUARDIAN = '198112189876';
export const OTHER = '191212121212';
export const T0 = Date.UTC(2026, 10, 21, 8, 0, 0, 0);

/**
 * `n` requests as the service appends them, in time order: the child's own reads, a guardian's,
 * a kiosk's, a refused stranger's, failures, writes with their attempt records, another patient's
 * requests, and runs of requests in the same millisecond (ties the stores must keep in append order).
 */
export function trailRecords(n: number): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (let i = 0; i < n; i++) {
    const time = new Date(T0 + Math.floor(i / 3) * 1000 + (i % 3 === 2 ? 5 : 0)).toISOString();
    const base = { time, requestId: `req-${i}`, serviceRequestId: `svc-${i}`, sourceAddress: '10.1.2.3', subscription: 'vardapp' };
    const person = (id: string) => ({ issuer: 'https://idp.example.test', subject: `sub-${id.slice(-4)}`, personId: id });
    switch (i % 6) {
      case 0: {
        // Every other one a FHIR search of care contacts that included the journal notes and the diagnoses (OutcomeRecord.alsoRead).
        const read = i % 12 === 0 ? { operation: 'getJournalNotes' } : { operation: 'getContacts', alsoRead: ['getJournalNotes', 'getDiagnoses'] };
        out.push({ ...base, ...read, actor: person(CHILD), patientId: CHILD, delegation: 'self', outcome: 'allowed', status: 200 });
        break;
      }
      case 1: out.push({ ...base, operation: 'getMedications', actor: person(GUARDIAN), clientId: 'patient-app', patientId: CHILD, delegation: 'guardian', outcome: 'allowed', status: 200 }); break;
      case 2:
        out.push({ ...base, operation: 'changeAppointment', actor: { issuer: 'https://idp.example.test', subject: 'kiosk-1' }, clientId: 'kiosk-1', patientId: CHILD, delegation: 'client', phase: 'attempt', outcome: 'allowed' });
        // What the EHR answered, the patient's log says (hostile review helper-133, F4): a check-in made, a repeat, one refused;
        // and one the EHR was sent and did not confirm, a failure whose outcome is not known.
        out.push({
          ...base, operation: 'changeAppointment', actor: { issuer: 'https://idp.example.test', subject: 'kiosk-1' }, clientId: 'kiosk-1', patientId: CHILD, delegation: 'client',
          ...(Math.floor(i / 6) % 4 === 3 ? { outcome: 'failed', status: 504, writeResult: 'UNKNOWN' } : {
            outcome: 'allowed', status: 200, writeResult: ['OK ARRIVAL_REGISTERED', 'INFO ALREADY_ARRIVED', 'ERROR OUTSIDE_ARRIVAL_WINDOW'][Math.floor(i / 6) % 4] ?? 'OK', contactId: '00261130101',
          }),
        });
        break;
      case 3: out.push({ ...base, operation: 'getPatient', actor: person(OTHER), patientId: CHILD, delegation: 'delegation', outcome: 'denied', status: 403 }); break;
      case 4: out.push({ ...base, operation: 'getContacts', actor: person(OTHER), patientId: OTHER, delegation: 'self', outcome: 'allowed', status: 200 }); break;
      default: out.push({ ...base, operation: 'getAttentionSignals', actor: person(GUARDIAN), patientId: CHILD, delegation: 'guardian', outcome: 'failed', status: 503 }); break;
    }
  }
  return out;
}

/** What the access log of `patientId` must show of these records: outcome records only, in append order. */
export function expectedLog(records: readonly AuditRecord[], patientId: string, fromMs = -Infinity, toMs = Infinity): LoggedAccess[] {
  return records.filter((r) => r.patientId === patientId && r.phase !== 'attempt' && Date.parse(r.time) >= fromMs && Date.parse(r.time) <= toMs)
    .map((r) => {
      // The service's own id: a caller's X-Request-Id, which older records hold as `requestId`, is never the log's (issue 34 item 10).
      const a: LoggedAccess = { timeMs: Date.parse(r.time), requestId: r.serviceRequestId ?? r.requestId, operation: r.operation, outcome: r.outcome, status: r.status ?? 0 };
      if (r.actor?.personId !== undefined) a.actorPersonId = r.actor.personId;
      if (r.clientId !== undefined) a.clientId = r.clientId;
      if (r.subscription !== undefined) a.subscription = r.subscription;
      if (r.delegation !== undefined) a.delegation = r.delegation;
      if (r.phase === undefined && r.alsoRead !== undefined) a.alsoRead = r.alsoRead;
      if (r.phase === undefined && r.writeResult !== undefined) a.writeResult = r.writeResult;
      return a;
    });
}

/** Every page of a query, `limit` at a time, following each page's last position. */
export async function allPages(reader: AccessLogReader, query: Omit<AccessLogQuery, 'after'>): Promise<LoggedAccess[]> {
  const all: LoggedAccess[] = [];
  let after: AccessLogQuery['after'];
  for (;;) {
    const page = await reader.page({ ...query, ...(after ? { after } : {}) });
    all.push(...page.map((p) => p.access));
    if (page.length < query.limit) return all;
    after = page.at(-1)?.position;
  }
}

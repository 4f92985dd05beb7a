/**
 * The requests the deployment test sends through HAProxy, as the soak plans them
 * (scripts/soak/plan.ts: method, path, headers, the status expected, a check of a 2xx body), and the
 * audit each answered one must have left: exactly one outcome row with the status the caller got,
 * and for a write one attempt row before it (docs/operations.md#the-audit-store).
 */
import type { AuditRow } from '../../../scripts/soak/infra.js';
import type { Outcome } from '../../../scripts/soak/load.js';
import type { PlannedRequest } from '../../../scripts/soak/plan.js';

const READS = [
  '/patients/journalnotes/', '/patients/appointments/', '/patients/patient/', '/patients/medications/',
  '/patients/contacts/', '/patients/attentionsignals/', '/patients/videomeetings/',
];

const isArray = (body: unknown): string | undefined => (Array.isArray(body) ? undefined : 'not a JSON array');

/** A write's outcome is in its body: OK, or INFO when it was done already (a repeated arrival or payment). */
const doneOrAlreadyDone = (wrapped: boolean) => (body: unknown): string | undefined => {
  const record = (wrapped ? (Array.isArray(body) ? body[0] : undefined) : body) as { ResultCode?: unknown } | undefined;
  return record?.ResultCode === 'OK' || record?.ResultCode === 'INFO' ? undefined : `ResultCode ${String(record?.ResultCode)}`;
};

/** Requests of one person (`token`) under subscription key `key`. */
export class Traffic {
  constructor(private readonly token: string) {}

  headers(key: string, json = false): Record<string, string> {
    return { 'ocp-apim-subscription-key': key, authorization: `Bearer ${this.token}`, ...(json ? { 'content-type': 'application/json' } : {}) };
  }

  read(key: string, n: number): PlannedRequest {
    const path = READS[n % READS.length] as string;
    return { label: `read ${path}`, kind: 'read', method: 'GET', path, headers: this.headers(key), expect: 200, audited: true, check: isArray };
  }

  arrival(key: string, booking: string): PlannedRequest {
    return {
      label: 'arrival', kind: 'write', method: 'PUT', path: `/patients/appointments/?id=${encodeURIComponent(booking)}`, headers: this.headers(key, true),
      body: JSON.stringify({ status: 'arrived' }), expect: 200, audited: true, check: doneOrAlreadyDone(false),
    };
  }

  payment(key: string, booking: string): PlannedRequest {
    return {
      label: 'payment', kind: 'write', method: 'POST', path: '/patients/paymentnotice/', headers: this.headers(key, true),
      body: JSON.stringify({ status: 'PAID', contactId: booking, paymentType: 'CARD' }), expect: 200, audited: true, check: doneOrAlreadyDone(true),
    };
  }

  /** The load's n-th request: every fifth a write (arrivals and payments in turn), the rest the reads in turn. */
  mixed(key: string, n: number, booking: string): PlannedRequest {
    if (n % 5 !== 4) return this.read(key, n);
    return Math.floor(n / 5) % 2 === 0 ? this.arrival(key, booking) : this.payment(key, booking);
  }
}

/** Today's booking whose arrival window (120 minutes before its start to 30 after) stays open longest, from an appointments answer. */
export function openBooking(answer: unknown, now = Date.now()): string | undefined {
  const bookings = (Array.isArray(answer) ? answer : []).flatMap((r: { Booking?: Array<{ ContactId: string; TypedStartDateTime: string }> }) => r.Booking ?? []);
  return bookings
    .filter((b) => {
      const start = Date.parse(b.TypedStartDateTime);
      return now >= start - 120 * 60_000 && now <= start + 20 * 60_000;
    })
    .sort((a, b) => Date.parse(b.TypedStartDateTime) - Date.parse(a.TypedStartDateTime))[0]?.ContactId;
}

/** A failed request, for the report: what was sent, what came back. */
export const failure = (o: Outcome): string => `${o.requestId} ${o.method} ${o.label} at ${o.at.toFixed(1)} s: ${o.status}${o.problem ? ` (${o.problem})` : ''}`;

/**
 * Every answered request has exactly one outcome row, with the status it was answered, and a write
 * one attempt row too (a read none); no row names a request that was not sent. Empty when all hold.
 */
export function auditProblems(sent: readonly Outcome[], rows: readonly AuditRow[]): string[] {
  const byId = new Map<string, AuditRow[]>();
  for (const row of rows) byId.set(row.requestId, [...(byId.get(row.requestId) ?? []), row]);
  const problems: string[] = [];
  for (const o of sent) {
    const found = byId.get(o.requestId) ?? [];
    byId.delete(o.requestId);
    if (o.status === 0) continue;
    const outcomes = found.filter((r) => r.phase !== 'attempt');
    const attempts = found.length - outcomes.length;
    if (outcomes.length !== 1) problems.push(`${o.requestId} (${o.label}, answered ${o.status}): ${outcomes.length} outcome rows`);
    else if (outcomes[0]?.status !== o.status) problems.push(`${o.requestId} (${o.label}): audited ${outcomes[0]?.status}, answered ${o.status}`);
    if (attempts !== (o.kind === 'write' ? 1 : 0)) problems.push(`${o.requestId} (${o.label}): ${attempts} attempt rows`);
  }
  for (const id of byId.keys()) problems.push(`${id}: audit rows for a request never sent`);
  return problems;
}

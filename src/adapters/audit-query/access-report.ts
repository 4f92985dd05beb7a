import { wallClockAt, type WallClock } from '../../domain/time/local-time.js';
import type { AuditRecord } from '../../ports/audit-trail.port.js';

export interface ReportHeading {
  patientId: string;
  from: Date;
  to: Date;
  zone: string;
  /** Where the records came from, e.g. `PostgreSQL schema audit`; never a connection string. */
  source: string;
}

const HEADERS = ['Time', 'Who', 'Client', 'Subscription', 'Operation', 'Outcome', 'Basis', 'Address', 'Request id', 'Service request id', 'Caller request id'];
/** Only in a report with a record of a proxy grant (docs/proxies.md#audited-and-shown): most have none. */
const GRANT_HEADERS = ['Proxy grant', 'Reason'];
/** Only in a report with a write's outcome: what the EHR answered, the booking and a payment's type (OutcomeRecord.writeResult, contactId). */
const WRITE_HEADERS = ['Answer', 'Booking', 'Payment type'];

const pad = (n: number): string => String(n).padStart(2, '0');
const wall = (w: WallClock): string => `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;

/** Local wall-clock time in `zone`, e.g. `2026-11-21 10:00:00`. */
export function localTime(date: Date, zone: string): string {
  return wall(wallClockAt(date.getTime(), zone));
}

// A value in the trail came from a caller's token or headers; it must not drive the terminal.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const printable = (v: string): string => v.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Who acted: the person, else the client, else the token's subject; a refusal before any valid token has none. */
function who(r: AuditRecord): string {
  if (r.actor?.personId) return r.actor.personId;
  if (r.clientId) return `client ${r.clientId}`;
  if (r.actor) return `${r.actor.subject} (${r.actor.issuer})`;
  return '(no valid token)';
}

/** The operation, and every other read of the patient's data the request made (OutcomeRecord.alsoRead): `getContacts + getJournalNotes`. */
const operationOf = (r: AuditRecord): string => (r.phase === undefined && r.alsoRead !== undefined ? [r.operation, ...r.alsoRead].join(' + ') : r.operation);

/** What a report holds besides every record's columns. */
interface Extra {
  grants: boolean;
  writes: boolean;
}

function cells(r: AuditRecord, zone: string, extra: Extra): string[] {
  const outcome = r.phase === undefined ? r : undefined;
  return [
    localTime(new Date(r.time), zone), who(r), r.clientId ?? '-', r.subscription ?? '-', operationOf(r),
    // An attempt shown here has no outcome: the service stopped between the two, so the write may have happened.
    r.phase === 'attempt' ? 'attempted, no outcome recorded' : `${r.outcome} ${r.status}`,
    r.delegation ?? '-', r.sourceAddress || '-', r.requestId, r.serviceRequestId ?? '-', r.callerRequestId ?? '-',
    ...(extra.grants ? [r.proxyGrantId ?? '-', r.reason ?? '-'] : []),
    ...(extra.writes ? [outcome?.writeResult ?? '-', outcome?.contactId ?? '-', outcome?.paymentType ?? '-'] : []),
  ].map(printable);
}

/** A plain-text table, oldest first, for an operator answering a patient's request. */
export function formatAccessTable(records: readonly AuditRecord[], h: ReportHeading): string {
  const extra = {
    grants: records.some((r) => r.proxyGrantId !== undefined || r.reason !== undefined),
    writes: records.some((r) => r.phase === undefined && (r.writeResult !== undefined || r.contactId !== undefined)),
  };
  const headers = [...HEADERS, ...(extra.grants ? GRANT_HEADERS : []), ...(extra.writes ? WRITE_HEADERS : [])];
  const rows = [headers, ...records.map((r) => cells(r, h.zone, extra))];
  const widths = headers.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
  const line = (row: string[]): string => row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const out = [
    `Accesses to the data of patient ${h.patientId}`,
    `from ${localTime(h.from, h.zone)} to ${localTime(h.to, h.zone)} (${h.zone} local time); source: ${h.source}`,
    '',
  ];
  if (records.length > 0) out.push(line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), '');
  out.push(`${records.length} ${records.length === 1 ? 'access' : 'accesses'} recorded.`);
  return `${out.join('\n')}\n`;
}

/** The same as JSON; C1 control characters are escaped too, which JSON.stringify leaves raw. */
export function formatAccessJson(records: readonly AuditRecord[], h: ReportHeading): string {
  const body = { patientId: h.patientId, from: h.from.toISOString(), to: h.to.toISOString(), source: h.source, count: records.length, records };
  return `${JSON.stringify(body, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

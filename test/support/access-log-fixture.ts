/**
 * Access log entries of the kind a patient's log gathers over months and a fresh demo does not:
 * other people and apps on earlier days, a refusal among them. Written out by the service's own
 * AuditEvent form (src/http/access-log/fhir-audit-event.ts), so the patient app's browser test of
 * issue 55 item 5 pages through a log of a realistic length.
 */
import type { AccessLogEntry } from '../../src/domain/access-log/access-log-entry.js';
import { operationDisplayName } from '../../src/domain/access-log/display-names.js';
import { auditEvent } from '../../src/http/access-log/fhir-audit-event.js';

const DAY = 86_400_000;
type Basis = AccessLogEntry['basis'];

/** [days ago, hour (UTC), basis, who, app, operations, outcome]: one group of the log each. */
const GROUPS: readonly [number, number, Basis, string | undefined, string, readonly string[], AccessLogEntry['outcome']][] = [
  [1, 9, 'power-of-attorney', '197309159817', 'Vårdappen', ['getJournalNotes', 'getLabResults'], 'allowed'],
  [2, 18, 'partner', '197703262391', 'patient-app', ['getMedications'], 'allowed'],
  [3, 7, 'refused', undefined, 'Vårdappen', ['getJournalNotes'], 'denied'],
  [5, 12, 'guardian', '197709239286', 'patient-app', ['getAppointments', 'getDiagnoses'], 'allowed'],
  [8, 10, 'power-of-attorney', '197309159817', 'Vårdappen', ['getLabResults'], 'allowed'],
  [13, 15, 'partner', '197703262391', 'patient-app', ['getJournalNotes'], 'allowed'],
  [21, 8, 'guardian', '197709239286', 'Vårdappen', ['getMedications', 'getLabResults'], 'allowed'],
  [34, 16, 'power-of-attorney', '197309159817', 'Vårdappen', ['getJournalNotes'], 'failed'],
  [55, 11, 'partner', '197703262391', 'patient-app', ['getDiagnoses'], 'allowed'],
  [89, 9, 'guardian', '197709239286', 'patient-app', ['getLabResults'], 'allowed'],
];

/** How many groups (person, app, day) the fixture adds to a log. */
export const FIXTURE_GROUPS = GROUPS.length;

/** The fixture's AuditEvents of `patient` (its identity number), as searchset entries, dated back from `now`. */
export function accessLogFixture(patient: string, now = Date.now()): object[] {
  return GROUPS.flatMap(([daysAgo, hour, basis, person, app, operations, outcome], g) => operations.map((operation, i) => {
    const day = Math.floor((now - daysAgo * DAY) / DAY) * DAY;
    const entry: AccessLogEntry = {
      time: '', timeInUnix: day + hour * 3_600_000 + i * 1_000, operation, operationDisplayName: operationDisplayName(operation), outcome, basis,
      ...(person === undefined ? {} : { actorPersonId: person }),
      clientApplication: { displayName: app, clientId: app }, requestId: `00000000-0000-4000-8000-${String(g * 10 + i).padStart(12, '0')}`,
    };
    return { fullUrl: `urn:uuid:fixture-log-${g}-${i}`, search: { mode: 'match' }, resource: { ...auditEvent(entry, patient), id: `fixture-log-${g}-${i}` } };
  }));
}

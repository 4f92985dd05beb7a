/**
 * Request paths of the EHR's HTTP interface (docs/upstream-ehr.md#2-requests-and-answers). Every value that becomes part of a
 * path or query is checked first, so a crafted id can never reach the EHR (threat 28 of docs/threat-model.md#the-upstream-ehr-api10).
 */
import { DOCUMENTS, type DocumentKind } from '../ehr-xml/documents.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import { compactToEpochMs, isCompactDateTime } from '../../domain/time/local-time.js';
import { isContactId as takenByApi } from '../../domain/writes/contact-id.js';

const PERSON_ID = /^\d{12}$/;

export const isPersonId = (id: string): boolean => PERSON_ID.test(id);

/** `.` and `..` match the pattern but are dot-segments that a front proxy may resolve. */
export const isContactId = (id: string): boolean => takenByApi(id) && id !== '.' && id !== '..';

/** Only the documents the EHR filters (documents.ts) carry a time filter upstream. */
function rangeQuery(kind: DocumentKind, range: TimeRange, zone: string): string {
  if (DOCUMENTS[kind].filtered === undefined) return '';
  const params = new URLSearchParams();
  for (const name of ['from', 'to'] as const) {
    const value = range[name];
    if (value === undefined) continue;
    if (!isCompactDateTime(value)) throw new RangeError(`range.${name} must be a 14-digit local time`);
    params.set(name, value);
  }
  if (range.from !== undefined && range.to !== undefined && compactToEpochMs(range.from, zone) > compactToEpochMs(range.to, zone)) {
    throw new RangeError('range.from must not be after range.to');
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

export function readPath(kind: DocumentKind, patientId: string, range: TimeRange, zone: string): string {
  return `/ehr/v1/patients/${patientId}/${kind}${rangeQuery(kind, range, zone)}`;
}

export function relationshipsPath(actorId: string): string {
  return `/ehr/v1/relationships/${actorId}`;
}

export function writePath(patientId: string, contactId: string, action: 'arrival' | 'payment'): string {
  return `/ehr/v1/patients/${patientId}/bookings/${encodeURIComponent(contactId)}/${action}`;
}

/** What an AuditEvent of the access log says was read, in the service's own words (src/http/access-log/fhir-audit-event.ts). */
import type { AuditEvent } from './fhir-types.js';
import { OPERATION_NAMES, type Lang } from './i18n.js';

const OPERATION_SYSTEM = 'urn:patient-data-access:operation';

/** Each kind of data the event read: the one it is named for, then any other its request read (a search's includes, a summary's sections). */
export function dataRead(e: AuditEvent, lang: Lang): string[] {
  const named = (e.subtype ?? []).filter((s) => s.system === OPERATION_SYSTEM)
    .map((op) => (op.code === undefined ? undefined : OPERATION_NAMES[op.code]?.[lang]) ?? op.display ?? '?');
  return named.length === 0 ? ['?'] : named;
}

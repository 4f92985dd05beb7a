/**
 * Which PaymentNotice is a payment of an appointment (docs/upstream-fhir.md §5): one of this service's,
 * naming it by the payment identifier exactly (system and value, letter case and all) and by its
 * `request`, and not voided by the EHR's staff. A server may match more than it was asked: one that
 * ignores `identifier` in a search or in If-None-Exist, or matches a token in any letter case, answered
 * another appointment's notice, and the patient was told ALREADY_PAID with nothing paid (re-review
 * helper-172, R1). A status the answer leaves out, or one other than voided, is a payment (R2).
 */
import { serverKey } from '../resource-index.js';

const VOIDED: ReadonlySet<string> = new Set(['cancelled', 'entered-in-error']);

interface NoticeParts {
  resourceType?: unknown;
  status?: unknown;
  identifier?: unknown;
  request?: { reference?: unknown };
}

/** Whether `resource`, from the server at `baseUrl`, pays appointment `contactId` under the identifier system `system`. */
export function paysAppointment(resource: unknown, { system, contactId, baseUrl }: { system: string; contactId: string; baseUrl: string }): boolean {
  if (typeof resource !== 'object' || resource === null) return false;
  const notice = resource as NoticeParts;
  if (notice.resourceType !== 'PaymentNotice' || (typeof notice.status === 'string' && VOIDED.has(notice.status))) return false;
  const identifiers: unknown[] = Array.isArray(notice.identifier) ? notice.identifier : [];
  const named = identifiers.some((i) => typeof i === 'object' && i !== null && (i as { system?: unknown }).system === system && (i as { value?: unknown }).value === contactId);
  const reference = typeof notice.request?.reference === 'string' ? notice.request.reference : undefined;
  return named && serverKey(baseUrl, reference) === `Appointment/${contactId}`;
}

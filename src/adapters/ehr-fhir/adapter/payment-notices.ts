/**
 * Which PaymentNotice is a payment of an appointment (docs/upstream-fhir.md §5): one of this service's,
 * naming it by the payment identifier exactly (system and value, letter case and all) and by its
 * `request`, and not voided by the EHR's staff. A server may match more than it was asked: one that
 * ignores `identifier` in a search or in If-None-Exist, or matches a token in any letter case, answered
 * another appointment's notice, and the patient was told ALREADY_PAID with nothing paid (re-review
 * helper-172, R1). A status the answer leaves out is a payment (R2); a voided or draft one is not.
 */
import { serverKey } from '../resource-index.js';

/** Statuses of a notice that pays nothing: voided by the EHR's staff, or not yet issued (a `draft`). */
const UNPAID: ReadonlySet<string> = new Set(['cancelled', 'entered-in-error', 'draft']);

interface NoticeParts {
  resourceType?: unknown;
  status?: unknown;
  identifier?: unknown;
  request?: { reference?: unknown };
}

export interface PaymentKey {
  system: string;
  contactId: string;
  baseUrl: string;
}

/**
 * What a notice of a search by the payment identifier says of appointment `contactId`: it `pays` it;
 * it names it and pays nothing (`unpaid`: voided or a draft); it is another's (`foreign`: not named by
 * the identifier exactly, or its `request` names another appointment of this server); or it names it by
 * the identifier and its `request` cannot be read as this server's appointment (`unclear`: another host
 * name, none): taken as unpaid, a payment was made again (re-review helper-174, F5).
 */
function verdictOf(resource: unknown, { system, contactId, baseUrl }: PaymentKey): 'pays' | 'unpaid' | 'foreign' | 'unclear' {
  if (typeof resource !== 'object' || resource === null) return 'unclear';
  const notice = resource as NoticeParts;
  if (notice.resourceType !== 'PaymentNotice') return 'unclear';
  const identifiers: unknown[] = Array.isArray(notice.identifier) ? notice.identifier : [];
  const named = identifiers.some((i) => typeof i === 'object' && i !== null && (i as { system?: unknown }).system === system && (i as { value?: unknown }).value === contactId);
  const requested = serverKey(baseUrl, typeof notice.request?.reference === 'string' ? notice.request.reference : undefined);
  if (!named || (requested?.startsWith('Appointment/') === true && requested !== `Appointment/${contactId}`)) return 'foreign';
  if (requested !== `Appointment/${contactId}`) return 'unclear';
  return typeof notice.status === 'string' && UNPAID.has(notice.status) ? 'unpaid' : 'pays';
}

/**
 * Whether the notices a search by the payment identifier found pay appointment `key.contactId`: `paid`
 * when one does; `unclear` when one cannot be read as paying or not, or the server cut the answer
 * (SUBSETTED: the one that pays may be left out); else `unpaid`.
 */
export function paymentOf(found: { matches: readonly unknown[]; subsetted?: boolean }, key: PaymentKey): 'paid' | 'unpaid' | 'unclear' {
  const verdicts = found.matches.map((match) => verdictOf(match, key));
  if (verdicts.includes('pays')) return 'paid';
  return verdicts.includes('unclear') || found.subsetted === true ? 'unclear' : 'unpaid';
}

/**
 * The contact a record names (a prescription's, a note's) as the Encounter the inbound mapper reads
 * it from: Text(`type[0]`), `status`, TS of `period` and the `serviceProvider`
 * (docs/upstream-fhir.md#39-medications-operation-9, docs/upstream-fhir.md#310-journal-notes-operation-10).
 */
import type { AsFhirContext, FhirResource } from './as-fhir.js';
import { fhirDateTime, fhirOnly } from './as-fhir-common.js';
import { textConcept, UNKNOWN } from './as-fhir-datatypes.js';

/** Encounter.status, a required binding: a status read from FHIR is one of these already. */
const STATUSES: ReadonlySet<string> = new Set(['planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished', 'cancelled', 'entered-in-error', 'unknown']);

/**
 * The legacy words and the FHIR code the same contact has over FHIR (test/adapters/ehr-fhir/equivalence.test.ts
 * pairs them: docs/upstream-fhir.md#rules-the-mapping-tables-use, "a status as FHIR writes it").
 */
const LEGACY_STATUSES: ReadonlyMap<string, string> = new Map([
  ['Planerad', 'planned'], ['Avslutad', 'finished'], ['Avbokad', 'cancelled'], ['ARRIVED', 'finished'],
]);

/**
 * A contact's status as Encounter.status: the code as it is, a legacy word as its code, else
 * `unknown`, as R4 requires a status and its Encounter has no element for a word of another system.
 */
export const encounterStatus = (status: string | undefined): string =>
  (status === undefined ? 'unknown' : STATUSES.has(status) ? status : LEGACY_STATUSES.get(status) ?? 'unknown');

export interface ContactFacts {
  /** The Encounter's logical id. */
  id: string;
  status?: string;
  type?: string;
  /** 14-digit or 8-digit local times. */
  start?: string;
  end?: string;
  serviceProvider?: { reference: string };
}

export function encounterOf(contact: ContactFacts, ctx: AsFhirContext): FhirResource {
  const period = fhirOnly({ start: fhirDateTime(contact.start, ctx.zone), end: fhirDateTime(contact.end, ctx.zone) });
  return fhirOnly({
    resourceType: 'Encounter', id: contact.id,
    status: encounterStatus(contact.status),
    // R4 requires a class (1..1) and these records carry none.
    class: UNKNOWN,
    type: contact.type === undefined ? undefined : [textConcept(contact.type)],
    subject: { reference: ctx.patientReference },
    period: Object.keys(period).length === 0 ? undefined : period,
    serviceProvider: contact.serviceProvider,
  });
}

/**
 * The demo's care contacts as FHIR Encounters (docs/upstream-fhir.md#36-care-contacts-operation-6):
 * every booking and every call, letter and admission of the plan, the ContactId as the logical id,
 * the legacy status as FHIR's code, the unit as `serviceProvider`, the clinician as a participant.
 */
import { contactsOf, type Contact } from '../appointments.js';
import type { DemoClock } from '../clock.js';
import { CARE_PROVIDER_TYPE, DISCHARGE_DESTINATION, TYPE_OF_VISIT } from '../contacts.js';
import type { DemoPerson } from '../people.js';
import { instant, meta, orgId, patientRef, practitionerId, ref, secrecyLabels, text, type FhirResource } from './fhir-base.js';

const STATUS: Readonly<Record<string, string>> = { PLANNED: 'planned', FINISHED: 'finished', IN_PROGRESS: 'in-progress', CANCELLED: 'cancelled' };
const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
const CLASS: Readonly<Record<string, { code: string; display: string }>> = {
  INSKRIVNING: { code: 'IMP', display: 'inpatient encounter' },
  VIDEO: { code: 'VR', display: 'virtual' },
  TELEFON: { code: 'VR', display: 'virtual' },
  DIGITALT: { code: 'VR', display: 'virtual' },
};
const AMBULATORY = { code: 'AMB', display: 'ambulatory' };

/** When the contact's record was last changed: its end once finished, else its start. */
export const contactRecorded = (c: Contact): string => (c.end !== undefined && c.status === 'FINISHED' ? c.end : c.start);

export function encounter(person: DemoPerson, c: Contact, clock: DemoClock): FhirResource {
  const security = secrecyLabels(c.secrecy);
  return {
    resourceType: 'Encounter', id: c.contactId,
    meta: meta(contactRecorded(c), clock, security.length === 0 ? {} : { security }),
    status: STATUS[c.status] ?? 'unknown',
    class: { system: ACT_CODE, ...(CLASS[c.type] ?? AMBULATORY) },
    type: [text(TYPE_OF_VISIT[c.type] ?? 'Övrig kontakt')],
    serviceType: text(c.appointment ? 'Återbesök' : 'Nybesök'),
    subject: patientRef(person),
    participant: [{ type: [text(CARE_PROVIDER_TYPE)], individual: ref('Practitioner', practitionerId(c.staff)) }],
    period: { start: instant(c.start, clock.zone), ...(c.end === undefined ? {} : { end: instant(c.end, clock.zone) }) },
    ...(c.reason ? { reasonCode: [text(c.reason)] } : {}),
    ...(c.type === 'INSKRIVNING' && c.end !== undefined ? { hospitalization: { dischargeDisposition: text(DISCHARGE_DESTINATION) } } : {}),
    serviceProvider: ref('Organization', orgId(c.unit)),
  };
}

export const encounters = (person: DemoPerson, clock: DemoClock): FhirResource[] =>
  contactsOf(person, clock).map((c) => encounter(person, c, clock));

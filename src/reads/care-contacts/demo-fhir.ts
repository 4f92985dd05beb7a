/**
 * The demo's care contacts as FHIR Encounters (docs/upstream-fhir.md#36-care-contacts-operation-6):
 * every booking and every call, letter and admission of the plan, the ContactId as the logical id,
 * the legacy status as FHIR's code, the unit as `serviceProvider`, the clinician's role at their own
 * unit as a participant, an admission's room as its location.
 */
import { contactsOf, type Contact } from '../../dev/demo-data/appointments.js';
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { ADMISSION_ROOM, CARE_PROVIDER_TYPE, DISCHARGE_DESTINATION, typeOfVisit } from './demo-xml.js';
import { DEMO_PEOPLE, type DemoPerson } from '../../dev/demo-data/people.js';
import type { UnitKey } from '../../dev/demo-data/units.js';
import { instant, locationId, meta, orgId, patientRef, ref, roleId, secrecyLabels, text, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';
import { SINCE } from '../../dev/demo-data/fhir/parties.js';

const STATUS: Readonly<Record<string, string>> = { PLANNED: 'planned', FINISHED: 'finished', IN_PROGRESS: 'in-progress', CANCELLED: 'cancelled' };
const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
const CLASS: Readonly<Record<string, { code: string; display: string }>> = {
  INSKRIVNING: { code: 'IMP', display: 'inpatient encounter' },
  VIDEO: { code: 'VR', display: 'virtual' },
  TELEFON: { code: 'VR', display: 'virtual' },
  DIGITALT: { code: 'VR', display: 'virtual' },
};
const AMBULATORY = { code: 'AMB', display: 'ambulatory' };
const ROOM = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/location-physical-type', code: 'ro', display: 'Room' }] };
const roomId = (unit: UnitKey): string => `${locationId(unit)}-room`;

/** When the contact's record was last changed: its end once finished, else its start. */
export const contactRecorded = (c: Contact): string => (c.end !== undefined && c.status === 'FINISHED' ? c.end : c.start);

export function encounter(person: DemoPerson, c: Contact, clock: DemoClock): FhirResource {
  const security = secrecyLabels(c.secrecy);
  return {
    resourceType: 'Encounter', id: c.contactId,
    meta: meta(contactRecorded(c), clock, security.length === 0 ? {} : { security }),
    status: STATUS[c.status] ?? 'unknown',
    class: { system: ACT_CODE, ...(CLASS[c.type] ?? AMBULATORY) },
    type: [text(typeOfVisit(c.type))],
    serviceType: text(c.appointment ? 'Återbesök' : 'Nybesök'),
    subject: patientRef(person),
    participant: [{ type: [text(CARE_PROVIDER_TYPE)], individual: ref('PractitionerRole', roleId(c.staff)) }],
    period: { start: instant(c.start, clock.zone), ...(c.end === undefined ? {} : { end: instant(c.end, clock.zone) }) },
    ...(c.reason ? { reasonCode: [text(c.reason)] } : {}),
    ...(c.type === 'INSKRIVNING' ? { location: [{ location: ref('Location', roomId(c.unit)), physicalType: ROOM }] } : {}),
    ...(c.type === 'INSKRIVNING' && c.end !== undefined ? { hospitalization: { dischargeDisposition: text(DISCHARGE_DESTINATION) } } : {}),
    serviceProvider: ref('Organization', orgId(c.unit)),
  };
}

export const encounters = (person: DemoPerson, clock: DemoClock): FhirResource[] =>
  contactsOf(person, clock).map((c) => encounter(person, c, clock));

/** The room of each unit the demo admits patients to, a Location within the unit's. */
export function admissionRooms(clock: DemoClock): FhirResource[] {
  const units = new Set(DEMO_PEOPLE.flatMap((p) => contactsOf(p, clock)).filter((c) => c.type === 'INSKRIVNING').map((c) => c.unit));
  return [...units].map((unit) => ({
    resourceType: 'Location', id: roomId(unit), meta: meta(SINCE, clock), status: 'active', name: ADMISSION_ROOM,
    physicalType: ROOM, managingOrganization: ref('Organization', orgId(unit)), partOf: ref('Location', locationId(unit)),
  }));
}

/**
 * The demo's bookings as FHIR Appointments (docs/upstream-fhir.md#33-booked-appointments-operation-3,
 * #38-video-meetings-operation-8): the ContactId is the logical id (the writes use it), a past
 * booking is `fulfilled`, a coming one `booked`, a web booking not yet scheduled `pending`. The unit
 * is a Location participant, the clinician the primary performer; a video booking carries R5's
 * virtual service and the project's video-server extension, its ActionId an identifier.
 */
import { appointmentsOf, registeredBookingsOf, type Contact } from '../../dev/demo-data/appointments.js';
import { plusMinutes, type DemoClock } from '../../dev/demo-data/clock.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { STAFF, type StaffKey, type UnitKey } from '../../dev/demo-data/units.js';
import { meetingLink, SERVERS } from '../video-meetings/demo-xml.js';
import {
  DEMO_FHIR_SETTINGS, instant, locationId, meta, patientRef, practitionerId, ref, SYSTEMS, text, type FhirResource,
} from '../../dev/demo-data/fhir/fhir-base.js';

const FEE = 'http://example.org/fhir/pdas/StructureDefinition/patient-fee';
const VIRTUAL_SERVICE = 'http://hl7.org/fhir/5.0/StructureDefinition/extension-Appointment.virtualService';
const VIDEO_SERVER = 'http://example.org/fhir/pdas/StructureDefinition/video-server';
const PRIMARY = { coding: [{ system: SYSTEMS.participationType, code: 'PPRF', display: 'primary performer' }] };

function participants(person: DemoPerson, unit: UnitKey, staff: StaffKey, others: readonly StaffKey[] = []) {
  return [
    { actor: patientRef(person), status: 'accepted' },
    { type: [PRIMARY], actor: ref('Practitioner', practitionerId(staff)), status: 'accepted' },
    // The clinician's own profession as this event's role, as an interpreter's is written.
    ...others.map((key) => ({ type: [text(STAFF[key].type)], actor: ref('Practitioner', practitionerId(key)), status: 'accepted' })),
    { actor: ref('Location', locationId(unit)), status: 'accepted' },
  ];
}

const money = (value: string) => ({ value: Number(value), currency: 'SEK' });

function fee(price: { price: string; reduction: string; reason?: string }) {
  return {
    url: FEE,
    extension: [
      { url: 'price', valueMoney: money(price.price) },
      { url: 'reduction', valueMoney: money(price.reduction) },
      ...(price.reason === undefined || price.reason === '' ? [] : [{ url: 'reductionReason', valueString: price.reason }]),
    ],
  };
}

function video(spec: NonNullable<Contact['appointment']>) {
  const server = spec.video?.onPremise ? SERVERS.onPremise : SERVERS.cloud;
  return [
    { url: VIRTUAL_SERVICE, extension: [{ url: 'address', valueUrl: meetingLink(spec.actionId) }] },
    {
      url: VIDEO_SERVER,
      extension: [
        { url: 'discoveryURI', valueUri: server.discoveryURI },
        { url: 'clientID', valueString: server.clientId },
        { url: 'onPremise', valueBoolean: spec.video?.onPremise ?? false },
      ],
    },
  ];
}

function booking(person: DemoPerson, contact: Contact, clock: DemoClock): FhirResource {
  const spec = contact.appointment;
  if (!spec || contact.end === undefined) throw new Error('a booking needs its appointment and its end');
  const extension = [...(spec.price ? [fee(spec.price)] : []), ...(spec.video ? video(spec) : [])];
  return {
    resourceType: 'Appointment', id: contact.contactId, meta: meta(`${clock.today}000000`, clock),
    ...(extension.length === 0 ? {} : { extension }),
    ...(spec.video ? { identifier: [{ system: DEMO_FHIR_SETTINGS.videoActionIdSystem, value: spec.actionId }] } : {}),
    status: spec.day < 0 ? 'fulfilled' : 'booked',
    serviceType: [text(spec.service)],
    start: instant(contact.start, clock.zone),
    end: instant(contact.end, clock.zone),
    ...(spec.info === undefined ? {} : { patientInstruction: spec.info }),
    participant: participants(person, contact.unit, contact.staff, spec.video?.others),
  };
}

export function appointments(person: DemoPerson, clock: DemoClock): FhirResource[] {
  return [
    ...appointmentsOf(person, clock).map((c) => booking(person, c, clock)),
    ...registeredBookingsOf(person, clock).map((r): FhirResource => ({
      resourceType: 'Appointment', id: r.bookingId, meta: meta(`${clock.today}000000`, clock),
      status: 'pending',
      start: instant(r.start, clock.zone),
      end: instant(plusMinutes(r.start, r.minutes, clock.zone), clock.zone),
      patientInstruction: r.info,
      participant: participants(person, r.unit, r.staff),
    })),
  ];
}

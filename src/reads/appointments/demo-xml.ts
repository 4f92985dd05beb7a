import { appointmentsOf, registeredBookingsOf, type Contact } from '../../dev/demo-data/appointments.js';
import { epochMsToCompact } from '../../domain/time/local-time.js';
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { tv } from '../../dev/demo-data/ix.js';
import { displayName, idRoot, type DemoPerson } from '../../dev/demo-data/people.js';
import { isCoordinationNumber } from '../../domain/identity/person-number-systems.js';
import { STAFF, UNITS, type UnitKey } from '../../dev/demo-data/units.js';
import { cdataIfMarkup, el, leaf, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/** BookedAppointmentsResults (docs/upstream-ehr.md#3-documents): one result per booking source. */

function performingUnit(key: UnitKey): XmlElement {
  const unit = UNITS[key];
  return el('PerformingUnit',
    el('Name', unit.name),
    el('Id', unit.internalId),
    el('Address',
      el('StreetAddress', unit.street),
      el('CareOfAddress'),
      el('PostalCode', unit.postcode), el('City', unit.city), el('Country', 'Sverige'),
      el('Type', el('Id', '01'), el('Name', 'Besöksadress'))),
    el('HSAId', unit.hsaId));
}

function any(fields: Readonly<Record<string, string>> | undefined): XmlElement | undefined {
  return fields && el('Any', Object.entries(fields).map(([k, v]) => el(k, v)));
}

function booking(contact: Contact, index: number): XmlElement {
  const spec = contact.appointment;
  if (!spec) throw new Error('a booking needs its appointment');
  // One booking carries the namespace prefix, as some upstream producers write it.
  return el(index === 1 ? 'b:Booking' : 'Booking',
    el('ContactId', contact.contactId),
    tv('StartTime', contact.start),
    performingUnit(contact.unit),
    el('CareGiver', STAFF[contact.staff].name),
    leaf('PatientInformation', spec.info === undefined ? undefined : cdataIfMarkup(spec.info)),
    spec.price && el('PaymentDetails',
      el('Price', spec.price.price),
      el('Reduction', spec.price.reduction),
      spec.price.reason === undefined ? undefined : el('ReductionReason', spec.price.reason)),
    any(spec.any));
}

function patientSection(person: DemoPerson): XmlElement {
  const coordination = isCoordinationNumber(person.id);
  return el('Patient',
    el('Name', displayName(person)),
    el('PersonNumbers',
      el('Number', person.id),
      el('Type', el('Id', idRoot(person.id)), el('Name', coordination ? 'Samordningsnummer' : 'Personnummer'))),
    person.addresses.map((a) => el('Addresses',
      el('StreetAddress', a.street), leaf('CareOfAddress', a.co), el('PostalCode', a.postcode),
      el('City', a.city), el('Country', a.country),
      el('Type', el('Id', a.type === 'FOLKBOKFORING' ? '02' : '03'),
        el('Name', a.type === 'FOLKBOKFORING' ? 'Folkbokföringsadress' : 'Annan adress')))),
    person.phones.map((p) => el('PhoneNumbers',
      el('Number', p.number),
      el('Type', el('Id', p.type), el('Name', p.type === 'MOBIL' ? 'Mobiltelefon' : 'Telefon')))));
}

// Tolvan's data shows a booking source that did not answer: the consumer must keep the other result.
const SILENT_SOURCE: Readonly<Record<string, string>> = {
  '191212121212': 'Tidboken för Ungdomsmottagningen svarade inte \u2013 bokningar därifrån saknas',
};

export function bookingsDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const bookings = appointmentsOf(person, clock);
  const registered = registeredBookingsOf(person, clock);
  const silent = SILENT_SOURCE[person.id];
  const root = tag('BookedAppointmentsResults', { xmlns: ns, 'xmlns:b': ns },
    el('BookedAppointmentsResult',
      bookings.map(booking),
      registered.map((r) => el('RegisteredBooking',
        el('BookingId', r.bookingId),
        tv('StartTime', r.start),
        performingUnit(r.unit),
        el('CareGiver', STAFF[r.staff].name),
        el('PatientInformation', cdataIfMarkup(r.info)),
        el('Any', el('Channel', r.channel), el('Confirmed', 'true')))),
      patientSection(person),
      el('ResultCode', 'OK'),
      el('Comment', `${bookings.length + registered.length} bokningar hittades`),
      el('Any', el('Source', 'COSMIC'), el('Generated', epochMsToCompact(clock.now, clock.zone)))),
    silent !== undefined && el('BookedAppointmentsResult', el('ResultCode', 'INFO'), el('Comment', silent)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/bookings (synthetic demo data, generated for `
    + `${clock.today}). Traps where present: bookings out of time order, ContactIds with leading zeros, `
    + 'Address Type Id "01", repeated PhoneNumbers/PersonNumbers/Addresses without wrapper, Price as a '
    + 'number and Any as text, an empty ReductionReason, CDATA, a prefixed element, an INFO result.');
}

/**
 * The hand-kept facts of getAppointments that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { RULES, under, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';
import { epochMsToCompact } from '../../domain/time/local-time.js';

const SECTION = '#33-booked-appointments-operation-3';
/** What the description changes of a booking, the same in both lists of a result. */
const bookingDifferences = (list: 'Booking' | 'RegisteredBooking'): Difference[] => {
  const rule = under(`${list}/*/`);
  return [
    rule('Any', 'absent', `${SECTION}: both Any arrays absent`),
    rule('PerformingUnit/Address/Type', 'absent', `${SECTION}: FHIR has no unit-address-type code`),
    rule('PerformingUnit/Id', 'differs', `${RULES}: a unit's internal id is the Organization's logical id`),
    rule('PerformingUnit/Address/Country', 'differs', `${RULES}: Address, the country as FHIR writes it (ISO 3166 code)`),
  ];
};
const patient = under('Patient/');

export const getAppointments = {
  reading: 'own reading',
  times: (data, zone) => data.flatMap((r) => [...r.Booking, ...r.RegisteredBooking].map((b) => epochMsToCompact(Date.parse(b.TypedStartDateTime), zone))),
  formTypes: ['Appointment'],
  keys: (a) => a.flatMap((r) => [...(r.Booking ?? []).map((b) => `${b.ContactId} ${b.StartTime}`),
    ...(r.RegisteredBooking ?? []).map((b) => `${b.BookingId} ${b.StartTime}`)]),
  differences: [
    { member: 'Comment', kind: 'absent', why: `${SECTION}: absent` },
    { member: 'Any', kind: 'absent', why: `${SECTION}: both Any arrays absent` },
    ...bookingDifferences('Booking'),
    ...bookingDifferences('RegisteredBooking'),
    patient('PhoneNumbers/*/Type/Name', 'absent', `${SECTION}: Type.Name of phone numbers absent`),
    patient('PhoneNumbers/*/Type/Id', 'differs', `${RULES}: Telecom, the type is \`use\` (mobile, home, work)`),
    patient('Addresses/*/Type', 'differs', `${SECTION}: the HL7 Sweden address type's code and display, absent without one`),
    patient('Name', 'differs', `${RULES}: Name as one string, every given name`),
  ],
} satisfies ReadOracles<'getAppointments'>;

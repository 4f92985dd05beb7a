/** Where each EHR gets getAppointments from (src/reads/read-sources.ts). */
import { APPOINTMENT_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { appointmentSearch } from '../../adapters/ehr-fhir/client/read-plan.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { appointmentsAsFhir } from './as-fhir.js';
import { mapAppointments } from './fhir.js';
import { bookingsReading } from './xml.js';

export const getAppointments = {
  xml: xmlDocument({
    path: 'bookings', namespace: 'urn:example:ehr:booking:2', reading: bookingsReading,
    patients: (results) => results.flatMap((r) => (r.Patient?.PersonNumbers ?? []).map((p) => p.Number)),
    filtered: [
      { path: ['BookedAppointmentsResult', 'Booking'], time: ['StartTime'] },
      { path: ['BookedAppointmentsResult', 'RegisteredBooking'], time: ['StartTime'] },
    ],
  }),
  fhir: {
    searches: [appointmentSearch('booked,arrived,checked-in,fulfilled,proposed,pending,waitlist')],
    follows: APPOINTMENT_FOLLOWS,
    map: mapAppointments,
  },
  asFhir: appointmentsAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getAppointments'>;

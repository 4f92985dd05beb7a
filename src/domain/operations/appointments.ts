import { carriesNoProtectionMark } from '../read-policy/read-policy.js';
import { select } from '../read-policy/time-selection.js';
import { BookedAppointmentsResultSchema, maskBookings, ResultRecordSchema } from '../records/index.js';
import { EMPTY, INTERVAL, WHO } from './docs-text.js';
import { recordsRead, type Tag, type Write } from './operation.js';
import { AppointmentChangeBody, AppointmentChangeQuery, TimeFilterQuery } from './parameters.js';

const TAG: Tag = { name: 'Appointments', description: 'Booked appointments: read them, and check a patient in when they arrive.' };
const VENDOR_PATHS = ['/api/open/appointments/'];
const typedStart = (b: { TypedStartDateTime: string }): number => Date.parse(b.TypedStartDateTime);

/** Operation 2: the check-in of a kiosk or an app. */
export const changeAppointment: Write = {
  handler: 'arrival',
  method: 'PUT',
  scope: { name: 'user/Appointment-write', description: 'Check a patient in (mark an appointment as arrived)' },
  displayName: { sv: 'Registrera ankomst till besök', en: 'Check in for an appointment' },
  errorShape: 'status',
  path: '/patients/appointments/',
  vendorPaths: VENDOR_PATHS,
  query: AppointmentChangeQuery,
  body: AppointmentChangeBody,
  answer: { item: ResultRecordSchema, schemaName: 'ResultRecord', array: false },
  docs: {
    tag: TAG,
    summary: 'Check a patient in (mark an appointment as arrived)',
    description: 'Marks a booked appointment as `arrived`, from 120 minutes before its start until 30 minutes after it. '
      + 'The outcome is in the answer: `OK` when it changed, `INFO` when it already was so, `ERROR` with a comment when it cannot be done. '
      + WHO,
    success: 'The outcome: OK, INFO (already arrived) or ERROR with a comment.',
  },
};

/** Operation 3: booked appointments, filtered and sorted on their start. */
export const getAppointments = recordsRead({
  scope: { name: 'user/Appointment-read', description: 'Read booked appointments' },
  displayName: { sv: 'Läsa bokade besök', en: 'Read booked appointments' },
  errorShape: 'status',
  path: '/patients/appointments/',
  vendorPaths: VENDOR_PATHS,
  query: TimeFilterQuery,
  answer: { item: BookedAppointmentsResultSchema, schemaName: 'BookedAppointmentsResult' },
  policy: {
    select: (results, bounds) => results.map((r) => ({
      ...r, Booking: select(r.Booking, typedStart, bounds), RegisteredBooking: select(r.RegisteredBooking, typedStart, bounds),
    })),
    marksProtectedIdentity: carriesNoProtectionMark,
    withoutContactDetails: maskBookings,
  },
  docs: {
    tag: TAG,
    summary: 'List booked appointments',
    description: `The patient's booked appointments, oldest first, each with its time, care unit and \`ContactId\` (the id that check-in and payment take). ${INTERVAL} ${EMPTY} ${WHO}`,
    success: 'The booked appointments, oldest first.',
  },
});

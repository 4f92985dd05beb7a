import { carriesNoProtectionMark } from '../../domain/read-policy/read-policy.js';
import { select } from '../../domain/read-policy/time-selection.js';
import { BookedAppointmentsResultSchema, maskBookings } from '../../domain/records/index.js';
import { EMPTY, INTERVAL, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead, type Tag } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { APPOINTMENT_TYPES } from './resource-types.js';

const TAG: Tag = { name: 'Appointments', description: 'Booked appointments: read them, and check a patient in when they arrive.' };
const VENDOR_PATHS = ['/api/open/appointments/'];
const typedStart = (b: { TypedStartDateTime: string }): number => Date.parse(b.TypedStartDateTime);

/** Operation 3: booked appointments, filtered and sorted on their start. */
export const getAppointments = recordsRead({
  number: 3,
  scope: { name: 'user/Appointment-read', description: 'Read booked appointments' },
  displayName: { sv: 'Bokade besök', en: 'Booked appointments' },
  errorShape: 'status',
  path: '/patients/appointments/',
  vendorPaths: VENDOR_PATHS,
  query: TimeFilterQuery,
  answer: { item: BookedAppointmentsResultSchema, schemaName: 'BookedAppointmentsResult', example: EXAMPLE },
  fhirTypes: APPOINTMENT_TYPES,
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

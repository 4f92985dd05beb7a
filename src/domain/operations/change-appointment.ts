import { getAppointments } from '../../reads/appointments/operation.js';
import { ResultRecordSchema } from '../records/index.js';
import { WHO } from './docs-text.js';
import type { Write } from './operation.js';
import { AppointmentChangeBody, AppointmentChangeQuery } from './parameters.js';

/** Operation 2: the check-in of a kiosk or an app. */
export const changeAppointment: Write = {
  number: 2,
  handler: 'arrival',
  method: 'PUT',
  scope: { name: 'user/Appointment-write', description: 'Check a patient in (mark an appointment as arrived)' },
  displayName: { sv: 'Ankomstregistrering till besök', en: 'Check-in for an appointment' },
  errorShape: 'status',
  path: '/patients/appointments/',
  vendorPaths: getAppointments.vendorPaths,
  query: AppointmentChangeQuery,
  body: AppointmentChangeBody,
  answer: { item: ResultRecordSchema, schemaName: 'ResultRecord', array: false },
  docs: {
    tag: getAppointments.docs.tag,
    summary: 'Check a patient in (mark an appointment as arrived)',
    description: 'Marks a booked appointment as `arrived`, from 120 minutes before its start until 30 minutes after it. '
      + 'The outcome is in the answer: `OK` when it changed, `INFO` when it already was so, `ERROR` with a comment when it cannot be done. '
      + WHO,
    success: 'The outcome: OK, INFO (already arrived) or ERROR with a comment.',
  },
};

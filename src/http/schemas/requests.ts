import { Type } from 'typebox';
import { PAYMENT_TYPES, type PaymentType } from '../../ports/ehr-records.port.js';

/**
 * Headers every patient-data route documents. The credentials (subscription key, bearer token) are
 * security schemes of the OpenAPI document and are checked before validation, so they are not
 * asked for here a second time.
 */
export const PatientHeadersSchema = Type.Object({
  patient: Type.Optional(Type.String({
    maxLength: 13,
    pattern: '^[0-9]{8}-?[0-9]{4}$',
    description: 'Personal identity or coordination number (YYYYMMDDNNNC or YYYYMMDD-NNNC) of the patient to act for. '
      + 'Leave it out to act for yourself with a person token; required with a client token (kiosk, integration).',
  })),
});

const dateTime = (description: string) => Type.Optional(Type.String({
  maxLength: 19,
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: `${description}, local time in the EHR's time zone (Europe/Stockholm by default), form YYYY-MM-DDThh:mm:ss, inclusive. Leave it out for no bound.`,
}));

const filterProperties = {
  fromDateTime: dateTime('Earliest time to include'),
  toDateTime: dateTime('Latest time to include'),
};

const apiVersion = (description: string) => Type.Optional(Type.String({ maxLength: 16, pattern: '^[A-Za-z0-9._-]{1,16}$', description }));

export const TimeFilterQuerySchema = Type.Object(filterProperties, { additionalProperties: false });

export const VersionedTimeFilterQuerySchema = Type.Object({
  ...filterProperties,
  'api-version': apiVersion('Layout of the answer. Only v2 is supported, and it is the default.'),
}, { additionalProperties: false });

/** A route that takes no query parameters still refuses unknown ones (CONTRACT §3: unknown field → 400). */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false });

export const PatientQuerySchema = Type.Object({
  'api-version': apiVersion('Layout of the answer: leave it out for the older layout (an array of PatientRecord), v2 for the v2 layout.'),
}, { additionalProperties: false });

const CONTACT_ID = { maxLength: 64, pattern: '^[A-Za-z0-9._-]{1,64}$' };

export const AppointmentChangeQuerySchema = Type.Object({
  id: Type.String({ ...CONTACT_ID, description: 'ContactId of the booking, as the booked-appointments read returns it.' }),
}, { additionalProperties: false });

export const AppointmentChangeSchema = Type.Object({
  status: Type.Literal('arrived', { description: 'The only change a client can make: the patient has arrived.' }),
}, { additionalProperties: false, title: 'AppointmentChange', description: 'Marks a booked appointment as arrived (check-in).' });

export const PaymentSchema = Type.Object({
  status: Type.Literal('PAID', { description: 'The only payment status a client can set.' }),
  contactId: Type.String({ ...CONTACT_ID, description: 'ContactId of the arrived appointment that was paid.' }),
  paymentType: Type.Unsafe<PaymentType>({ type: 'string', enum: [...PAYMENT_TYPES], description: 'How it was paid: CASH, CARD or INVOICE.' }),
}, { additionalProperties: false, title: 'Payment', description: 'Registers that the visit of an arrived appointment is paid.' });

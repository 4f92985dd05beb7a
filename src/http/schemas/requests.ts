import { Type } from 'typebox';

/** Headers every patient-data route documents; the credentials are checked before validation. */
export const PatientHeadersSchema = Type.Object({
  'ocp-apim-subscription-key': Type.Optional(Type.String({ description: 'Subscription key of the calling application.' })),
  authorization: Type.Optional(Type.String({ description: 'Bearer <OAuth 2.0 JWT access token>.' })),
  patient: Type.Optional(Type.String({
    maxLength: 13,
    description: 'Identity number (YYYYMMDDNNNC or YYYYMMDD-NNNC) of the patient acted for.',
  })),
});

const dateTime = (description: string) => Type.Optional(Type.String({
  maxLength: 19,
  description: `${description}, local time in EHR_TIMEZONE, form YYYY-MM-DDThh:mm:ss, inclusive.`,
  examples: ['2025-03-14T09:30:00'],
}));

const filterProperties = {
  fromDateTime: dateTime('Interval start'),
  toDateTime: dateTime('Interval end'),
};

export const TimeFilterQuerySchema = Type.Object(filterProperties, { additionalProperties: false });

export const VersionedTimeFilterQuerySchema = Type.Object({
  ...filterProperties,
  'api-version': Type.Optional(Type.String({ maxLength: 16, description: 'Only v2 is supported (the default).' })),
}, { additionalProperties: false });

/** A route that takes no query parameters still refuses unknown ones (CONTRACT §3: unknown field → 400). */
export const NoQuerySchema = Type.Object({}, { additionalProperties: false });

export const PatientQuerySchema = Type.Object({
  'api-version': Type.Optional(Type.String({ maxLength: 16, description: 'Absent: the older layout; v2: the v2 layout.' })),
}, { additionalProperties: false });

export const AppointmentChangeQuerySchema = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'ContactId of the booking, as returned by the booked-appointments read.' }),
}, { additionalProperties: false });

export const AppointmentChangeSchema = Type.Object({
  status: Type.Literal('arrived'),
}, { additionalProperties: false, title: 'AppointmentChange' });

export const PaymentSchema = Type.Object({
  status: Type.Literal('PAID'),
  contactId: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }),
  paymentType: Type.Union([Type.Literal('CASH'), Type.Literal('CARD')]),
}, { additionalProperties: false, title: 'Payment' });

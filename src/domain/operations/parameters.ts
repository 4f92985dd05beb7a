/**
 * The query parameters and bodies the operations take, as closed typebox schemas: whatever they do
 * not name is refused (docs/contract.md#errors: an unknown field is 400). A parameter that is not
 * one of a few values says under `x-expected` what it must be, in words a person can act on: the
 * one error mapper makes every 400 about it say that, never the validator's wording. Query strings
 * are coerced to the schema's type only where it is a number (`limit`); everything else stays text.
 */
import { Type } from 'typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../access-log/page-size.js';
import { LOCAL_DATE_TIME_EXPECTED } from '../time/local-time.js';
import { CONTACT_ID_PATTERN } from '../writes/contact-id.js';
import { PAYMENT_TYPES, type PaymentType } from '../writes/payment-types.js';

/** The schema keyword holding what a value must be, as a 400 message says it after "must be". */
export const EXPECTED = 'x-expected';

const closed = { additionalProperties: false } as const;

const dateTime = (description: string) => Type.Optional(Type.String({
  maxLength: 19,
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$',
  description: `${description}, local time in the EHR's time zone (Europe/Stockholm by default), form YYYY-MM-DDThh:mm:ss, inclusive. Leave it out for no bound.`,
  [EXPECTED]: LOCAL_DATE_TIME_EXPECTED,
}));

const timeFilter = {
  fromDateTime: dateTime('Earliest time to include'),
  toDateTime: dateTime('Latest time to include'),
};

/** The one layout value there is; `whenAbsent` says what leaving it out gives. */
const apiVersion = (description: string, whenAbsent: string) => Type.Optional(Type.Unsafe<'v2'>({
  type: 'string', enum: ['v2'], description, [EXPECTED]: `v2, or left out for ${whenAbsent}`,
}));

/** A read of an interval. */
export const TimeFilterQuery = Type.Object(timeFilter, closed);

/** A read of an interval whose only layout, v2, is also the default (care contacts). */
export const VersionedTimeFilterQuery = Type.Object({
  ...timeFilter,
  'api-version': apiVersion('Layout of the answer. Only v2 is supported, and it is the default.', 'the same v2 layout'),
}, closed);

/** The patient's information: the layout chosen by `api-version`. */
export const PatientQuery = Type.Object({
  'api-version': apiVersion('Layout of the answer: leave it out for the older layout (an array of PatientRecord), v2 for the v2 layout.',
    'the older layout (an array of PatientRecord)'),
}, closed);

/** An operation that takes no query parameters still refuses unknown ones. */
export const NoQuery = Type.Object({}, closed);

/** The access log: the interval of the other reads, and paging. */
export const AccessLogQuery = Type.Object({
  ...timeFilter,
  limit: Type.Optional(Type.Integer({
    minimum: 1, maximum: MAX_PAGE_SIZE, format: 'int32',
    description: `Entries per page, an integer from 1 to ${MAX_PAGE_SIZE}; ${DEFAULT_PAGE_SIZE} when left out. It may change from one page to the next.`,
    [EXPECTED]: `a whole number from 1 to ${MAX_PAGE_SIZE}, e.g. 100`,
  })),
  cursor: Type.Optional(Type.String({
    maxLength: 128, pattern: '^[A-Za-z0-9_-]+$',
    description: 'Where the next page starts: copy it from the `Link: <...>; rel="next"` header of the page before. Opaque; valid only '
      + 'for the same patient and interval.',
    [EXPECTED]: 'the cursor of the `Link: <...>; rel="next"` header of the page before, copied as it is',
  })),
}, closed);

const CONTACT_ID = {
  maxLength: 64, pattern: CONTACT_ID_PATTERN,
  [EXPECTED]: 'a ContactId as the booked-appointments read returns it: 1 to 64 letters, digits, dots, hyphens or underscores, e.g. 4711',
};

export const AppointmentChangeQuery = Type.Object({
  id: Type.String({ ...CONTACT_ID, description: 'ContactId of the booking, as the booked-appointments read returns it.' }),
}, closed);

export const AppointmentChangeBody = Type.Object({
  status: Type.Literal('arrived', { description: 'The only change a client can make: the patient has arrived.' }),
}, { ...closed, title: 'AppointmentChange', description: 'Marks a booked appointment as arrived (check-in).' });

export const PaymentBody = Type.Object({
  status: Type.Literal('PAID', { description: 'The only payment status a client can set.' }),
  contactId: Type.String({ ...CONTACT_ID, description: 'ContactId of the arrived appointment that was paid.' }),
  paymentType: Type.Unsafe<PaymentType>({ type: 'string', enum: [...PAYMENT_TYPES], description: 'How it was paid: CASH, CARD or INVOICE.' }),
}, { ...closed, title: 'Payment', description: 'Registers that the visit of an arrived appointment is paid.' });

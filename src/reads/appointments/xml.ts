/**
 * BookedAppointmentsResults (ns urn:example:ehr:booking:2) -> BookedAppointmentsResult[]. Here
 * PersonNumbers, Addresses and PhoneNumbers are the repeated elements themselves, not wrappers.
 */
import type { BookedAppointmentsResult } from '../../domain/records/index.js';
import { compactToDisplay, compactToEpochMs, epochMsToUtcIso } from '../../domain/time/local-time.js';
import { documentType, reading } from '../../adapters/ehr-xml/document.js';
import { ANY } from '../../adapters/ehr-xml/free-form.js';
import { NUMBER, STR, timeValueOf } from '../../adapters/ehr-xml/leaves.js';
import { RESULT_CODE } from '../../adapters/ehr-xml/result-code.js';
import { field, leaf, many, obj, req } from '../../adapters/ehr-xml/shape.js';

/** StartTime TV -> local `YYYY-MM-DD hh:mm` and the UTC instant `TypedStartDateTime` (docs/upstream-ehr.md#4-time). */
const START_TIME = field(leaf((raw, name, ctx) => {
  const value = timeValueOf(raw, name, 'dateTime');
  if (value === undefined) return undefined;
  return { StartTime: compactToDisplay(value), TypedStartDateTime: epochMsToUtcIso(compactToEpochMs(value, ctx.zone)) };
}), { required: true, spread: true });

const TYPE_REF = obj({ Id: STR, Name: STR });
const ADDRESS = obj({ StreetAddress: STR, CareOfAddress: STR, PostalCode: STR, City: STR, Country: STR, Type: TYPE_REF });
const UNIT = obj({ Name: STR, Id: STR, HSAId: STR, Address: ADDRESS });
const NUMBER_WITH_TYPE = obj({ Number: STR, Type: TYPE_REF });

const BOOKING = obj({
  ContactId: req(STR),
  StartTime: START_TIME,
  PerformingUnit: UNIT,
  CareGiver: STR,
  PatientInformation: STR,
  PaymentDetails: obj({ Price: NUMBER, Reduction: NUMBER, ReductionReason: STR }),
  Any: many(ANY),
});

const REGISTERED_BOOKING = obj({
  BookingId: req(STR),
  StartTime: START_TIME,
  PerformingUnit: UNIT,
  CareGiver: STR,
  PatientInformation: STR,
  Any: many(ANY),
});

const RESULT = obj({
  Booking: many(BOOKING),
  RegisteredBooking: many(REGISTERED_BOOKING),
  Patient: obj({
    Name: STR,
    PersonNumbers: many(NUMBER_WITH_TYPE),
    Addresses: many(ADDRESS),
    PhoneNumbers: many(NUMBER_WITH_TYPE),
  }),
  ResultCode: RESULT_CODE,
  Comment: STR,
  Any: many(ANY),
});

const DOCUMENT = documentType('BookedAppointmentsResults', obj({ BookedAppointmentsResult: many(RESULT) }));

export const bookingsReading = reading(DOCUMENT, (root) => root.BookedAppointmentsResult as BookedAppointmentsResult[]);

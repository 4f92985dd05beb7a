/**
 * BookedAppointmentsResult: one result per booking source. `StartTime` is local `YYYY-MM-DD hh:mm`;
 * `TypedStartDateTime` is the same instant in UTC, `YYYY-MM-DDThh:mm:ssZ`.
 */
import { Type, type Static } from 'typebox';
import { AnySchema, OptStr, ResultCodeSchema } from '../../domain/records/common.js';

const TypeRefSchema = Type.Object({ Id: OptStr, Name: OptStr });

export const AddressSchema = Type.Object({
  StreetAddress: OptStr,
  CareOfAddress: OptStr,
  PostalCode: OptStr,
  City: OptStr,
  Country: OptStr,
  Type: Type.Optional(TypeRefSchema),
});

export const UnitSchema = Type.Object({
  Name: OptStr,
  Id: OptStr,
  HSAId: OptStr,
  Address: Type.Optional(AddressSchema),
});

export const BookingSchema = Type.Object({
  ContactId: Type.String(),
  StartTime: Type.String(),
  TypedStartDateTime: Type.String(),
  PerformingUnit: Type.Optional(UnitSchema),
  CareGiver: OptStr,
  PatientInformation: OptStr,
  PaymentDetails: Type.Optional(Type.Object({
    Price: Type.Optional(Type.Number()),
    Reduction: Type.Optional(Type.Number()),
    ReductionReason: OptStr,
  })),
  Any: AnySchema,
});

export const RegisteredBookingSchema = Type.Object({
  BookingId: Type.String(),
  StartTime: Type.String(),
  TypedStartDateTime: Type.String(),
  PerformingUnit: Type.Optional(UnitSchema),
  CareGiver: OptStr,
  PatientInformation: OptStr,
  Any: AnySchema,
});

const NumberWithTypeSchema = Type.Object({ Number: OptStr, Type: Type.Optional(TypeRefSchema) });

export const PatientSummarySchema = Type.Object({
  Name: OptStr,
  PersonNumbers: Type.Array(NumberWithTypeSchema),
  Addresses: Type.Array(AddressSchema),
  PhoneNumbers: Type.Array(NumberWithTypeSchema),
});

export const BookedAppointmentsResultSchema = Type.Object({
  Booking: Type.Array(BookingSchema),
  RegisteredBooking: Type.Array(RegisteredBookingSchema),
  Patient: Type.Optional(PatientSummarySchema),
  ResultCode: ResultCodeSchema,
  Comment: OptStr,
  Any: AnySchema,
});

export type Booking = Static<typeof BookingSchema>;
export type RegisteredBooking = Static<typeof RegisteredBookingSchema>;
export type PatientSummary = Static<typeof PatientSummarySchema>;
export type BookedAppointmentsResult = Static<typeof BookedAppointmentsResultSchema>;

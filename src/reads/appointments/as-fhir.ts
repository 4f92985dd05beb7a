/**
 * getAppointments as FHIR (docs/upstream-fhir.md#33-booked-appointments-operation-3 read backwards):
 * each Booking and RegisteredBooking an Appointment of the patient (as-fhir-appointment.ts), its
 * ContactId or BookingId the logical id the writes use, a Booking's patient fee the project's
 * `patient-fee` extension. The patient summary is the Patient's own, which the patient reads serve.
 */
import { PDAS_BASE } from '../../adapters/ehr-fhir/extensions.js';
import type { Booking, RegisteredBooking } from '../../domain/records/index.js';
import type { AsFhirContext, FhirForm } from '../as-fhir.js';
import { appointmentOf, type AppointmentUnit } from '../as-fhir-appointment.js';
import { logicalIdOf } from '../as-fhir-datatypes.js';
import { WrittenResources } from '../as-fhir-parties.js';

const PATIENT_FEE = `${PDAS_BASE}StructureDefinition/patient-fee`;

/** `patient-fee`: the sub-extensions the record has values for; none without one (ext-1 forbids an empty extension). */
function fee(payment: Booking['PaymentDetails']): object[] {
  if (payment === undefined) return [];
  const parts = [
    ...(payment.Price === undefined ? [] : [{ url: 'price', valueMoney: { value: payment.Price } }]),
    ...(payment.Reduction === undefined ? [] : [{ url: 'reduction', valueMoney: { value: payment.Reduction } }]),
    ...(payment.ReductionReason === undefined ? [] : [{ url: 'reductionReason', valueString: payment.ReductionReason }]),
  ];
  return parts.length === 0 ? [] : [{ url: PATIENT_FEE, extension: parts }];
}

const unitOf = (u: Booking['PerformingUnit']): AppointmentUnit | undefined => (u === undefined ? undefined : {
  internalId: u.Id,
  hsaId: u.HSAId,
  name: u.Name,
  address: u.Address === undefined ? undefined : {
    careOf: u.Address.CareOfAddress, street: u.Address.StreetAddress, postcode: u.Address.PostalCode, city: u.Address.City, country: u.Address.Country,
  },
});

/**
 * A booking's Appointment. Its status is the least-saying code the inbound reads back as the same
 * kind of record: `booked` for a Booking, `proposed` for a RegisteredBooking (the record keeps no
 * finer status). `start` is the exact instant, `TypedStartDateTime`.
 */
function appointment(b: Booking | RegisteredBooking, id: string, status: 'booked' | 'proposed', extension: object[], out: WrittenResources, ctx: AsFhirContext) {
  return appointmentOf({
    id: logicalIdOf('Appointment', id, ctx),
    status,
    startMs: Date.parse(b.TypedStartDateTime),
    extension,
    patientInstruction: b.PatientInformation,
    unit: unitOf(b.PerformingUnit),
    main: b.CareGiver === undefined ? undefined : { name: b.CareGiver },
  }, out, ctx);
}

export const appointmentsAsFhir = {
  types: ['Appointment'],
  app: { search: 'Appointment?patient={id}&_include=Appointment:practitioner&_include=Appointment:location', view: 'appointments', position: 10 },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    for (const result of items) {
      for (const b of result.Booking) out.add(appointment(b, b.ContactId, 'booked', fee(b.PaymentDetails), out, ctx));
      for (const r of result.RegisteredBooking) out.add(appointment(r, r.BookingId, 'proposed', [], out, ctx));
    }
    return out.list();
  },
} satisfies FhirForm<'getAppointments'>;

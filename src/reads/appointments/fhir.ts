/**
 * Operation 3, booked appointments (docs/upstream-fhir.md#33-booked-appointments-operation-3):
 * Appointments -> one BookedAppointmentsResult, since the FHIR server is one booking source.
 * Booked, arrived, checked-in and fulfilled ones are Bookings; proposed, pending and waitlisted ones
 * are RegisteredBookings; cancelled, no-show and entered-in-error ones are never listed, whatever
 * the server's own status filter did.
 */
import type { Booking, BookedAppointmentsResult, PatientSummary, RegisteredBooking } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { compactToDisplay, epochMsToCompact, epochMsToUtcIso } from '../../domain/time/local-time.js';
import { addressParts, currentAddresses, type AddressParts } from '../../adapters/ehr-fhir/address.js';
import { appointmentUnit, feeOf, mainPerformer } from '../../adapters/ehr-fhir/appointment-parts.js';
import { roleTextOf, staffOf } from '../../adapters/ehr-fhir/care-parties.js';
import { instantOf } from '../../adapters/ehr-fhir/fhir-time.js';
import { personNumberKindOf } from '../../domain/identity/person-number-systems.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import type { Appointment } from './resource-types.js';
import type { Patient } from '../../domain/fhir/resources/parties.js';
import { phones } from '../../adapters/ehr-fhir/telecom.js';

const BOOKED: ReadonlySet<string> = new Set(['booked', 'arrived', 'checked-in', 'fulfilled']);
const REQUESTED: ReadonlySet<string> = new Set(['proposed', 'pending', 'waitlist']);

type UnitMember = NonNullable<Booking['PerformingUnit']>;

const unitAddress = (a: AddressParts): NonNullable<UnitMember['Address']> => definedOnly({
  StreetAddress: a.street, CareOfAddress: a.careOf, PostalCode: a.postcode, City: a.city, Country: a.country,
});

function performingUnit(appointment: Appointment, index: ResourceIndex): UnitMember | undefined {
  const found = appointmentUnit(appointment, index);
  if (found === undefined) return undefined;
  const { unit, location } = found;
  const address = location === undefined ? unit.address : location.address === undefined ? undefined : addressParts(location.address);
  return definedOnly({ Name: unit.org.name, Id: unit.org.id, HSAId: unit.hsaId, Address: address === undefined ? undefined : unitAddress(address) });
}

function paymentDetails(appointment: Appointment): Booking['PaymentDetails'] {
  const fee = feeOf(appointment);
  if (fee === undefined) return undefined;
  return definedOnly({ Price: fee.price?.value, Reduction: fee.reduction?.value, ReductionReason: fee.reason });
}

/** The members a Booking and a RegisteredBooking share. */
function common(appointment: Appointment, start: string, input: ReadInput, ctx: MapContext) {
  const epochMs = instantOf(start, ctx);
  const main = mainPerformer(appointment);
  return {
    StartTime: compactToDisplay(epochMsToCompact(epochMs, ctx.zone)),
    TypedStartDateTime: epochMsToUtcIso(epochMs),
    PerformingUnit: performingUnit(appointment, input.index),
    CareGiver: main === undefined ? undefined : staffOf(main.actor, input.index, roleTextOf(main.type))?.name,
    PatientInformation: appointment.patientInstruction,
    Any: [],
  };
}

function patientSummary(patient: Patient, wholeName: string | undefined, ctx: MapContext): PatientSummary {
  return definedOnly({
    Name: wholeName,
    PersonNumbers: (patient.identifier ?? []).flatMap((i) => {
      const kind = personNumberKindOf(i.system);
      return kind === undefined || i.use === 'old' ? [] : [definedOnly({ Number: i.value, Type: { Id: kind.oid, Name: kind.name } })];
    }),
    Addresses: currentAddresses(patient.address, ctx).map((a) => {
      const parts = addressParts(a);
      const type = parts.seType === undefined ? undefined : definedOnly({ Id: parts.seType.code, Name: parts.seType.display });
      return definedOnly({ ...unitAddress(parts), Type: type });
    }),
    PhoneNumbers: phones(patient.telecom).map((p) => definedOnly({ Number: p.value, Type: p.use === undefined ? undefined : { Id: p.use } })),
  });
}

export function mapAppointments(input: ReadInput, ctx: MapContext): BookedAppointmentsResult[] {
  const Booking: Booking[] = [];
  const RegisteredBooking: RegisteredBooking[] = [];
  for (const appointment of answerable(input, 'Appointment')) {
    const booked = BOOKED.has(appointment.status);
    if (!booked && !REQUESTED.has(appointment.status)) continue;
    if (appointment.start === undefined) {
      ctx.note('an appointment without a start was left out');
      continue;
    }
    const shared = common(appointment, appointment.start, input, ctx);
    if (booked) Booking.push(definedOnly({ ContactId: appointment.id, ...shared, PaymentDetails: paymentDetails(appointment) }));
    else RegisteredBooking.push(definedOnly({ BookingId: appointment.id, ...shared }));
  }
  const Patient = patientSummary(input.patient.resource, input.patient.name?.whole, ctx);
  return [{ Booking, RegisteredBooking, Patient, ResultCode: 'OK', Any: [] }];
}

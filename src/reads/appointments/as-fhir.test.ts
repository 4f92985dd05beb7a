/**
 * getAppointments as FHIR: the demo people's bookings come back exactly (describeFhirForm), and what
 * the demo does not hold: a start in summer, in winter and in the hour the autumn change repeats,
 * text with inner spaces and line breaks, a care-of line, a unit known by its name alone, a fee with
 * only a price, and a booking request.
 */
import { describe, expect, it } from 'vitest';
import type { BookedAppointmentsResult, Booking, RegisteredBooking } from '../../domain/records/index.js';
import { DEMO_PEOPLE } from '../../dev/demo-data/people.js';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import type { FhirResource } from '../as-fhir.js';
import { appointmentsAsFhir } from './as-fhir.js';

describeFhirForm('getAppointments', []);

describe('getAppointments as FHIR, beyond the demo', () => {
  const person = DEMO_PEOPLE[0];
  if (person === undefined) throw new Error('no demo people');
  const ctx = asFhirContext(person);

  const booking = (more: Partial<Booking>): Booking => ({
    ContactId: 'b-1', StartTime: '2026-12-14 09:30', TypedStartDateTime: '2026-12-14T08:30:00Z', Any: [], ...more,
  });
  const result = (bookings: Booking[], requests: RegisteredBooking[] = []): BookedAppointmentsResult =>
    ({ Booking: bookings, RegisteredBooking: requests, ResultCode: 'OK', Any: [] });
  /** Written as FHIR and sent through JSON as the API sends it; valid R4. */
  const written = (r: BookedAppointmentsResult): FhirResource[] => {
    const resources = JSON.parse(JSON.stringify(appointmentsAsFhir.resources([r], ctx))) as FhirResource[];
    expect(structureProblems(resources)).toEqual([]);
    return resources;
  };
  const back = (resources: FhirResource[]) => {
    const [answer] = readBack('getAppointments', person, resources);
    if (answer === undefined) throw new Error('no answer read back');
    return { Booking: answer.Booking, RegisteredBooking: answer.RegisteredBooking };
  };
  const appointments = (resources: FhirResource[]) => resources.filter((r) => r.resourceType === 'Appointment');

  it('writes the start with the offset of its own instant: summer, winter and the repeated autumn hour', () => {
    const bookings = [
      booking({ ContactId: 'summer', StartTime: '2026-07-01 10:00', TypedStartDateTime: '2026-07-01T08:00:00Z' }),
      booking({ ContactId: 'winter', StartTime: '2026-12-14 09:30', TypedStartDateTime: '2026-12-14T08:30:00Z' }),
      booking({ ContactId: 'first', StartTime: '2026-10-25 02:30', TypedStartDateTime: '2026-10-25T00:30:00Z' }),
      booking({ ContactId: 'second', StartTime: '2026-10-25 02:30', TypedStartDateTime: '2026-10-25T01:30:00Z' }),
    ];
    const resources = written(result(bookings));
    expect(appointments(resources).map((a) => a.start)).toEqual([
      '2026-07-01T10:00:00+02:00', '2026-12-14T09:30:00+01:00', '2026-10-25T02:30:00+02:00', '2026-10-25T02:30:00+01:00',
    ]);
    // Read back in time order, as every answer is: the autumn's two 02:30s by their instants.
    const byInstant = [...bookings].sort((a, b) => a.TypedStartDateTime.localeCompare(b.TypedStartDateTime));
    expect(back(resources).Booking?.map((b) => b.ContactId)).toEqual(byInstant.map((b) => b.ContactId));
    expect(new Set(back(resources).Booking)).toEqual(new Set(bookings));
  });

  it('copies text exactly, inner spaces and line breaks, and keeps a care-of line apart from the street', () => {
    const b = booking({
      PatientInformation: '  Kom 10 min före.\n\nTa med  <legitimation> & frikort.  ',
      CareGiver: 'Anna  Läkare',
      PerformingUnit: { Name: 'Mottagning  Ö', Id: 'unit-1', Address: { CareOfAddress: 'c/o Vårdcentralen', StreetAddress: 'Gatan 1, hus 2', PostalCode: '118 20', City: 'Stockholm' } },
    });
    expect(back(written(result([b]))).Booking).toEqual([b]);
  });

  it('writes a unit known by its name alone, and a fee with only its price', () => {
    const b = booking({ PerformingUnit: { Name: 'Vårdcentralen Utan Id' }, PaymentDetails: { Price: 200 } });
    const resources = written(result([b]));
    expect(resources.find((r) => r.resourceType === 'Organization')).toMatchObject({ name: 'Vårdcentralen Utan Id' });
    // Every Organization has an id, and the inbound reads it as the unit's Id (docs/upstream-fhir.md#33-booked-appointments-operation-3).
    const id = resources.find((r) => r.resourceType === 'Organization')?.id;
    expect(back(resources).Booking).toEqual([{ ...b, PerformingUnit: { Name: 'Vårdcentralen Utan Id', Id: id } }]);
  });

  it('writes a booking request as a proposed Appointment its participants have yet to accept, without a fee', () => {
    const request: RegisteredBooking = { BookingId: 'req-1', StartTime: '2026-12-14 09:30', TypedStartDateTime: '2026-12-14T08:30:00Z', CareGiver: 'Sven', Any: [] };
    const resources = written(result([], [request]));
    const [appointment] = appointments(resources);
    expect(appointment).toMatchObject({ status: 'proposed', participant: [{ status: 'needs-action' }, { status: 'needs-action' }] });
    expect(appointment?.extension).toBeUndefined();
    expect(back(resources)).toEqual({ Booking: [], RegisteredBooking: [request] });
  });
});

import type { LightMyRequestResponse } from 'fastify';

const MIN = 60_000;

export interface Booking { ContactId: string; TypedStartDateTime: string }

/** What a test app offers for reading bookings: a clock and a way to call the API with a person token. */
interface BookingReader {
  clock: { now(): number };
  personToken(personId: string): Promise<string>;
  call(options: { method: 'GET'; url: string; token: string }): Promise<LightMyRequestResponse>;
}

/** A booking of the patient whose arrival window (120 min before start to 30 min after) is open now. */
export async function bookingInWindow(t: BookingReader, patientId: string): Promise<Booking> {
  const res = await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(patientId) });
  const now = t.clock.now();
  const found = (res.json() as Array<{ Booking: Booking[] }>).flatMap((r) => r.Booking).find((b) => {
    const start = Date.parse(b.TypedStartDateTime);
    return now >= start - 120 * MIN && now <= start + 30 * MIN;
  });
  if (!found) throw new Error('demo data has no booking in its arrival window now');
  return found;
}

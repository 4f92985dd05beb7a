import { READ_NAMES } from '../../src/domain/operations/table.js';
import { routeByOperation, urlOf } from '../security/support/routes.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The day the examples are taken on; the demo data is generated around it. */
export const EXAMPLE_NOW = Date.UTC(2026, 0, 15, 8, 0);
const PERSON = '191212121212';
const MAX_ITEMS = 1;
const MIN = 60_000;

/** The ContactId of a booking whose arrival window (120 min before to 30 min after its start) is open. */
async function bookingInWindow(t: TestApp, token: string): Promise<string> {
  const res = await t.call({ method: 'GET', url: '/patients/appointments/', token });
  const bookings = (res.json() as Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>).flatMap((r) => r.Booking);
  const now = t.clock.now();
  const found = bookings.find((b) => Math.abs(now - Date.parse(b.TypedStartDateTime) + 45 * MIN) <= 75 * MIN);
  if (!found) throw new Error('demo data has no booking in its arrival window on EXAMPLE_NOW');
  return found.ContactId;
}

/** Every array cut to its first items, so an example shows the shape without a whole journal. */
function cut(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(cut);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
}


/**
 * One answer per operation from the embedded EHR's generated demo data, through the real HTTP app:
 * the reads as the demo person sees them, and a check-in and a payment of a booking in its window.
 */
export async function collectOpenApiExamples(): Promise<Record<string, unknown>> {
  const t = await startTestApp({ now: EXAMPLE_NOW });
  try {
    const token = await t.personToken(PERSON);
    const examples: Record<string, unknown> = {};
    for (const operation of READ_NAMES) {
      const url = urlOf(routeByOperation(operation));
      const res = await t.call({ method: 'GET', url, token });
      if (res.statusCode !== 200) throw new Error(`${operation}: ${res.statusCode} ${res.body}`);
      examples[operation] = cut(res.json());
    }
    const booking = await bookingInWindow(t, token);
    const arrival = await t.call({ method: 'PUT', url: `/patients/appointments/?id=${booking}`, token, payload: { status: 'arrived' } });
    examples.changeAppointment = arrival.json();
    const payment = await t.call({ method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId: booking, paymentType: 'CARD' } });
    examples.registerPayment = payment.json();
    return examples;
  } finally {
    await t.close();
  }
}

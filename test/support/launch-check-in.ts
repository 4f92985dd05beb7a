// A check-in (the COS arrival, `PUT /patients/appointments/?id=`) with a launch token: the booking of
// `patient` now in its arrival window (120 minutes before its start to 30 after), marked arrived, and
// the same booking asked for as `other`'s, whom the token should not reach.
import { request } from 'undici';

const MIN = 60_000;

export interface CheckIns { own: { status: number; resultCode?: string }; other: { status: number } }

export async function checkInBoth(base: string, token: string, subscriptionKey: string, patient: string, other: string): Promise<CheckIns> {
  const cos = async (method: 'GET' | 'PUT', url: string, as: string, body?: unknown) => {
    const response = await request(`${base}${url}`, {
      method, headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': subscriptionKey, patient: as, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: await response.body.json() as unknown };
  };
  const listed = await cos('GET', '/patients/appointments/', patient);
  if (listed.status !== 200) throw new Error(`the bookings could not be read: ${listed.status}`);
  const now = Date.now();
  const booking = (listed.body as Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>).flatMap((r) => r.Booking)
    .find((b) => now >= Date.parse(b.TypedStartDateTime) - 120 * MIN && now <= Date.parse(b.TypedStartDateTime) + 30 * MIN);
  if (booking === undefined) throw new Error('the demo data has no booking in its arrival window now');
  const own = await cos('PUT', `/patients/appointments/?id=${booking.ContactId}`, patient, { status: 'arrived' });
  const others = await cos('PUT', `/patients/appointments/?id=${booking.ContactId}`, other, { status: 'arrived' });
  const resultCode = (own.body as { ResultCode?: string }).ResultCode;
  return { own: { status: own.status, ...(resultCode === undefined ? {} : { resultCode }) }, other: { status: others.status } };
}

/**
 * What an integrator writes against the client types openapi-typescript generates from /openapi.json
 * (openapi-fetch over them). The types are generated when the test runs (generated/, not committed),
 * and this file is compiled against them there: a change of the document that breaks these calls
 * fails that test. It is outside `npm run typecheck` (tsconfig.json), which runs before any test.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/patient-data-access.js';

type Booking = components['schemas']['BookedAppointmentsResult'];
type Result = components['schemas']['ResultRecord'];
type Headers = Record<string, string>;

/** Lists booked appointments at the spec's path, then checks the first in at the vendor's, the key in the query. */
export async function checkInFirstBooking(baseUrl: string, key: string, auth: Headers) {
  const client = createClient<paths>({ baseUrl });
  const listed = await client.GET('/patients/appointments', { headers: { 'Ocp-Apim-Subscription-Key': key, ...auth } });
  const bookings: Booking[] = listed.data ?? [];
  const booking = bookings.flatMap((b) => b.Booking).at(0);
  const changed = await client.PUT('/api/open/appointments', {
    params: { query: { id: booking?.ContactId ?? '' } },
    body: { status: 'arrived' },
    headers: auth,
    querySerializer: (query) => new URLSearchParams({ ...query, 'subscription-key': key }).toString(),
  });
  const result: Result | undefined = changed.data;
  return { listed: listed.response.status, contactId: booking?.ContactId, changed: changed.response.status, resultCode: result?.ResultCode };
}

/** Lab results at the vendor's path with the vendor's parameter names: the names of the tests. */
export async function labTestNames(baseUrl: string, key: string, auth: Headers) {
  const client = createClient<paths>({ baseUrl });
  const read = await client.GET('/api/open/chemistrylabreports', {
    params: { query: { startActionDateTime: '2020-01-01T00:00:00' } },
    headers: { 'Ocp-Apim-Subscription-Key': key, ...auth },
  });
  const reports: components['schemas']['ChemistryReportEHRExtracts'][] = read.data ?? [];
  return { status: read.response.status, names: reports.flatMap((r) => r.chemistryReportEHRExtract.flatMap((e) => e.report?.testResult ?? [])).map((t) => t.testName) };
}

/** A read with a token that is no token: the error body as the document types it. */
export async function refusedRead(baseUrl: string, key: string) {
  const client = createClient<paths>({ baseUrl });
  const refused = await client.GET('/patients/videomeetings', { headers: { 'Ocp-Apim-Subscription-Key': key, Authorization: 'Bearer not-a-token' } });
  const error: components['schemas']['ErrorResponse'] | undefined = refused.error;
  return { status: refused.response.status, challenge: refused.response.headers.get('www-authenticate'), error };
}

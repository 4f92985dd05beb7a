/**
 * The kit's writes (`--sandbox-writes`, against a sandbox only): an arrival and a payment on a
 * booking of the test patient, through the `fhir-r4` adapter's own writes
 * (docs/upstream-fhir.md#5-the-two-writes), each asked twice. The second asking is a client's retry
 * after a lost answer: it must find the first one's effect (`ALREADY_ARRIVED`, `ALREADY_PAID`) and
 * change nothing, which proves the server honours the version check and the conditional create the
 * service relies on to never overwrite and never pay twice.
 */
import { FhirWrites } from '../adapters/ehr-fhir/adapter/fhir-writes.js';
import type { CapabilityCheck } from '../adapters/ehr-fhir/client/capabilities.js';
import type { FhirClient } from '../adapters/ehr-fhir/client/fhir-client.js';
import type { TimeRange } from '../domain/time/time-range.js';
import { AT_ANY_TIME } from '../domain/writes/arrival-window.js';
import type { EhrWriteResult } from '../domain/writes/write-outcomes.js';
import type { EhrReads } from '../ports/ehr-records.port.js';
import { errorDetail } from './record-checks.js';
import { row, type CheckRow } from './report.js';

export interface WriteChecksInput {
  client: FhirClient;
  reads: EhrReads;
  capabilities: CapabilityCheck | undefined;
  patient: string;
  range: TimeRange;
  paymentIdSystem: string;
  zone: string;
  now: () => number;
  callTimeoutMs: number;
}

/** Bookings tried for an arrival at most: a test patient's first bookable one is usually among the first. */
const MAX_TRIED = 20;
const ARRIVED: ReadonlySet<string | undefined> = new Set(['ARRIVAL_REGISTERED', 'ALREADY_ARRIVED']);
const PAID: ReadonlySet<string | undefined> = new Set(['PAYMENT_REGISTERED', 'ALREADY_PAID']);

const told = (outcome: EhrWriteResult): string => `${outcome.resultCode} ${outcome.reasonCode ?? ''}`.trim();

/** The ContactIds of the test patient's bookings (a booking's ContactId is its Appointment's logical id). */
async function bookingsOf(input: WriteChecksInput): Promise<string[]> {
  const answer = await input.reads.getAppointments?.(input.patient, input.range) ?? [];
  const ids: string[] = [];
  for (const item of answer) for (const booking of item.Booking ?? []) if (typeof booking.ContactId === 'string') ids.push(booking.ContactId);
  return ids.slice(0, MAX_TRIED);
}

export async function writeChecks(input: WriteChecksInput): Promise<CheckRow[]> {
  const notes: string[] = [];
  const writes = new FhirWrites({
    client: input.client, paymentIdSystem: input.paymentIdSystem, zone: input.zone, now: input.now, callTimeoutMs: input.callTimeoutMs,
    capabilities: () => Promise.resolve(input.capabilities), note: (reason) => notes.push(reason),
  });
  const withNotes = (detail: string) => (notes.length === 0 ? detail : `${detail}; the adapter noted: ${[...new Set(notes)].join('; ')}`);
  let bookings: string[];
  try {
    bookings = await bookingsOf(input);
  } catch (err) {
    return [row('write arrival', 'FAIL', `the bookings could not be read: ${errorDetail(err)}`), row('write payment', 'SKIP', 'no arrival to pay')];
  }
  let contactId: string | undefined;
  let first: EhrWriteResult | undefined;
  const refused: string[] = [];
  try {
    // The first booking whose arrival is written proves the write; one already arrived is kept in case none is.
    for (const id of bookings) {
      const outcome = await writes.registerArrival(input.patient, id, AT_ANY_TIME);
      if (ARRIVED.has(outcome.reasonCode) && (first === undefined || outcome.resultCode === 'OK')) [contactId, first] = [id, outcome];
      if (outcome.resultCode === 'OK') break;
      if (!ARRIVED.has(outcome.reasonCode)) refused.push(outcome.reasonCode ?? outcome.resultCode);
    }
  } catch (err) {
    return [row('write arrival', 'FAIL', withNotes(errorDetail(err))), row('write payment', 'SKIP', 'no arrival to pay')];
  }
  if (contactId === undefined || first === undefined) {
    const why = bookings.length === 0 ? 'the test patient has no booking in the range' : `${bookings.length} booking(s) tried: ${[...new Set(refused)].join(', ')}`;
    return [row('write arrival', 'WARN', `nothing to arrive (${why}); give a test patient a booked appointment`), row('write payment', 'SKIP', 'no arrival to pay')];
  }
  const rows: CheckRow[] = [];
  try {
    const again = await writes.registerArrival(input.patient, contactId, AT_ANY_TIME);
    rows.push(again.reasonCode === 'ALREADY_ARRIVED'
      ? row('write arrival', 'PASS', `Appointment/${contactId}: ${told(first)}, asked again ${told(again)}`)
      : row('write arrival', 'FAIL', withNotes(`Appointment/${contactId}: ${told(first)}, asked again ${told(again)} (ALREADY_ARRIVED expected)`)));
  } catch (err) {
    rows.push(row('write arrival', 'FAIL', withNotes(`Appointment/${contactId}: ${told(first)}, asked again: ${errorDetail(err)}`)));
  }
  try {
    const paid = await writes.registerPayment(input.patient, contactId, 'CARD');
    const again = await writes.registerPayment(input.patient, contactId, 'CARD');
    const ok = PAID.has(paid.reasonCode) && again.reasonCode === 'ALREADY_PAID';
    rows.push(row('write payment', ok ? 'PASS' : 'FAIL',
      withNotes(`Appointment/${contactId}: ${told(paid)}, asked again ${told(again)}${ok ? '' : ' (a payment, then ALREADY_PAID expected)'}`)));
  } catch (err) {
    rows.push(row('write payment', 'FAIL', withNotes(`Appointment/${contactId}: ${errorDetail(err)}`)));
  }
  return rows;
}

/**
 * The two writes over FHIR (docs/upstream-fhir.md#5-the-two-writes), which never overwrite: every
 * attempt, a client's retry after a lost answer included, starts by reading the appointment and
 * decides from what it sees. Arrival changes `status` to `arrived` by JSON Patch (or PUT) with
 * `If-Match`, and reads again on any conflict; payment is a PaymentNotice created only if none exists
 * for the appointment (`If-None-Exist`). Outcomes carry the legacy reason codes.
 */
import { asUnconfirmedWrite, EhrError, ofCheckedBooking } from '../../../domain/ehr-error.js';
import type { ArrivalCheck } from '../../../domain/writes/arrival-window.js';
import { compactDateToIso, localDate } from '../../../domain/time/local-time.js';
import type { PaymentType } from '../../../domain/writes/payment-types.js';
import type { EhrWriteResult } from '../../../domain/writes/write-outcomes.js';
import { statusFailure } from '../../ehr-http/status.js';
import { appointmentUnit, feeOf } from '../appointment-parts.js';
import { resourceOf } from '../client/answer.js';
import type { CapabilityCheck, TypeCapabilities } from '../client/capabilities.js';
import { isPathId, type FhirClient } from '../client/fhir-client.js';
import { FHIR_JSON } from '../client/fhir-exchange.js';
import { APPOINTMENT_FOLLOWS } from '../client/follow-rules.js';
import { patientReferences } from '../client/patient-binding.js';
import { lookupOf, type PatientLookup } from '../client/patient-lookup.js';
import { resolveMissing } from '../client/reference-resolution.js';
import { fhirFault } from '../fault.js';
import { PDAS_BASE } from '../extensions.js';
import { writtenNumber } from '../fhir-json.js';
import { instantOf } from '../fhir-time.js';
import { ResourceIndex, serverKey } from '../resource-index.js';
import type { Appointment } from '../../../reads/appointments/resource-types.js';
import { checkedResource } from '../schemas/index.js';
import { decimalDifference } from './decimal.js';
import { paymentOf } from './payment-notices.js';

const MAX_ARRIVAL_ATTEMPTS = 3;
/** Statuses after which the appointment is read again: the version moved, or a `test` op failed (Medplum answers 400). */
const READ_AGAIN: ReadonlySet<number> = new Set([400, 409, 412, 422]);
const CANCELLED: ReadonlySet<string> = new Set(['cancelled', 'noshow', 'entered-in-error']);
const ARRIVED: ReadonlySet<string> = new Set(['arrived', 'checked-in', 'fulfilled']);
const PAYMENT_TYPE = `${PDAS_BASE}StructureDefinition/payment-type`;
const UNKNOWN = { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] };

const result = (resultCode: EhrWriteResult['resultCode'], reasonCode: string): EhrWriteResult => ({ resultCode, reasonCode });
const NOT_FOUND = result('ERROR', 'CONTACT_NOT_FOUND');

export interface FhirWritesOptions {
  client: FhirClient;
  /** FHIR_PAYMENT_ID_SYSTEM. */
  paymentIdSystem: string;
  zone: string;
  now: () => number;
  /** EHR_TIMEOUT_MS for one port call as a whole. */
  callTimeoutMs: number;
  /** What the server supports (PATCH or PUT; versioned updates; conditional create). */
  capabilities: () => Promise<CapabilityCheck | undefined>;
  /** Why a write was refused or found a duplicate (fixed text, no personal data). */
  note: (reason: string) => void;
  /** How each write finds the patient: its own search (the default), or the one its request made. */
  lookup?: PatientLookup;
}

/** What was read: the appointment as the server holds it (raw, for PUT), checked, with its version. */
interface Read {
  raw: Record<string, unknown>;
  appointment: Appointment;
}

export class FhirWrites {
  private readonly lookup: PatientLookup;

  constructor(private readonly o: FhirWritesOptions) {
    this.lookup = lookupOf(o);
  }

  async registerArrival(number: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
    // An id that cannot be a path segment of its own (`..`) names no booking: the server is not asked.
    if (!isPathId(contactId)) return NOT_FOUND;
    const signal = AbortSignal.timeout(this.o.callTimeoutMs);
    const patient = await this.lookup(number, signal);
    // Whether the server said it wrote the arrival: believed only from the next read, since a server may answer
    // 2xx with a body it did not apply, stale or echoed (re-reviews helper-174 F7, helper-182 F2/F3). Once it has,
    // whatever keeps a later step from telling leaves an arrival that may have been made (helper-183 F2).
    let written = false;
    let refusals = 0;
    // What a read says ends the call, unless the server said it wrote the arrival: then it may have been made.
    const ending = (outcome: EhrWriteResult, why: string): EhrWriteResult => {
      if (written) throw unconfirmed(why);
      return outcome;
    };
    try {
      for (let attempt = 0; attempt <= MAX_ARRIVAL_ATTEMPTS; attempt++) {
        const read = await this.readAppointment(contactId, patient.id, signal);
        const status = read?.appointment.status;
        if (status !== undefined && CANCELLED.has(status)) return result('ERROR', 'CONTACT_CANCELLED');
        if (status !== undefined && ARRIVED.has(status)) return written ? result('OK', 'ARRIVAL_REGISTERED') : result('INFO', 'ALREADY_ARRIVED');
        if (read === undefined || status !== 'booked') return ending(NOT_FOUND, 'the appointment read after it is neither booked nor arrived');
        // Without a start it is no booking to arrive at, as the bookings read leaves it out (helper-185, F2).
        if (read.appointment.start === undefined) return ending(NOT_FOUND, 'the appointment read after it has no start');
        // As the appointment stands now: it may have been moved since the service checked its window (helper-183 F1).
        if (!arrivable(this.startOf(read.appointment.start))) {
          return ending(result('ERROR', 'OUTSIDE_ARRIVAL_WINDOW'), 'the appointment read after it is booked, and outside the arrival window');
        }
        if (attempt === MAX_ARRIVAL_ATTEMPTS) break;
        const answer = await this.markArrived(read, signal);
        if (answer.status === 200 || answer.status === 204) written = true;
        else if (answer.status === 400 || answer.status === 422) refusals++;
        else if (!READ_AGAIN.has(answer.status)) throw asUnconfirmedWrite(statusFailure(answer.status, answer.headers), true);
      }
    } catch (err) {
      throw written ? unconfirmedAfter(err) : err;
    }
    // Said written and still booked when read: the server's word and its record disagree, and the person is told it may have been made.
    if (written) throw unconfirmed('the appointment read after it is not arrived');
    // Refused each time (400, 422) with the appointment booked: a refusal, not a version moving (helper-183 F3).
    if (refusals === MAX_ARRIVAL_ATTEMPTS) throw fhirFault('the arrival was refused each time while the appointment stayed booked');
    // Every attempt met a newer version: nothing was changed, so a retry is harmless.
    throw new EhrError('unavailable', 'FHIR appointment kept changing while arrival was registered', 1);
  }

  /**
   * An appointment's start in epoch ms, as the bookings read reads it. A start without an offset is read as local
   * time there, and noted there; a write's note is why a write was not made, so it is not noted again (helper-185, F5).
   */
  private startOf(start: string): number {
    return instantOf(start, { zone: this.o.zone, note: () => undefined });
  }

  async registerPayment(number: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    if (!isPathId(contactId)) return NOT_FOUND;
    const signal = AbortSignal.timeout(this.o.callTimeoutMs);
    const patient = await this.lookup(number, signal);
    const read = await this.readAppointment(contactId, patient.id, signal);
    if (read === undefined) return NOT_FOUND;
    const status = read.appointment.status;
    if (CANCELLED.has(status)) return result('ERROR', 'CONTACT_CANCELLED');
    // A request not yet in a schedule, or a booking without an arrival, cannot be paid.
    if (!ARRIVED.has(status)) return result('ERROR', 'NOT_PAYABLE');
    // The appointment is the patient's (readAppointment): a payment of it the EHR does not confirm says so.
    return this.payChecked(read, contactId, paymentType, signal).catch((err: unknown) => {
      throw ofCheckedBooking(err);
    });
  }

  /** The PaymentNotice of the patient's arrived appointment `read`, made once (docs/upstream-fhir.md §5). */
  private async payChecked(read: Read, contactId: string, paymentType: PaymentType, signal: AbortSignal): Promise<EhrWriteResult> {
    const notice = await this.paymentNotice(read.appointment, paymentType, signal);
    const key = `${this.o.paymentIdSystem}|${contactId}`;
    const capabilities = await this.typeCapabilities('PaymentNotice');
    const payment = async (): Promise<'paid' | 'unpaid' | 'unclear'> =>
      paymentOf(await this.o.client.search('PaymentNotice', [['identifier', key]], { signal }), { system: this.o.paymentIdSystem, contactId, baseUrl: this.o.client.baseUrl });
    if (capabilities.conditionalCreate !== true) {
      // No atomic "already paid?": ask first. The write coordinator serialises this service's own payments for one appointment.
      const before = await payment();
      if (before === 'paid') return result('INFO', 'ALREADY_PAID');
      if (before === 'unclear') throw fhirFault('a PaymentNotice of the appointment that cannot be read as paid or not');
    }
    // A voided notice is no payment (hostile review helper-170, F3), so the criteria ask for an active one, where
    // the server names `status` among its searches: one that does not may refuse it (re-review helper-172, R3).
    const active = capabilities.searchParams.has('status') ? '&status=active' : '';
    const answer = await this.o.client.request(`${this.o.client.baseUrl}/PaymentNotice`, {
      method: 'POST', body: notice, signal,
      headers: { 'content-type': FHIR_JSON, ...(capabilities.conditionalCreate === true ? { 'if-none-exist': `identifier=${encodeURIComponent(key)}${active}` } : {}) },
    });
    if (answer.status === 201) return result('OK', 'PAYMENT_REGISTERED');
    if (answer.status === 200 || answer.status === 412) {
      // Nothing was made: the server found notices it took for this one. Paid only if one is this appointment's own; none
      // of its own, nothing is. A search that fails may be answered on a repeat, which the payment's turn waits for; a
      // notice that cannot be read as paying or not is the EHR's data, which no repeat reads otherwise (helper-176, F2).
      if (answer.status === 412) this.o.note('more than one PaymentNotice exists for one appointment');
      const after = await payment().catch(() => 'failed' as const);
      if (after === 'paid') return result('INFO', 'ALREADY_PAID');
      if (after === 'failed') throw new EhrError('bad-response', 'the PaymentNotices could not be searched after the EHR matched one', undefined, true);
      if (after === 'unclear') throw fhirFault('a PaymentNotice names the appointment and cannot be read as paying it or not');
      throw fhirFault('a PaymentNotice matched that pays no payment of this appointment');
    }
    // Sent and answered otherwise (202, a redirect, a refusal the server may have made after taking it): it may
    // have been made, so the key's turn is held and the caller told so (hostile review helper-135, F2).
    throw asUnconfirmedWrite(statusFailure(answer.status, answer.headers), true);
  }

  /** `GET Appointment/{id}`; undefined when it does not exist (404, 410) or is not this patient's. */
  private async readAppointment(id: string, patientId: string, signal: AbortSignal): Promise<Read | undefined> {
    const answer = await this.o.client.request(this.o.client.resourceUrl('Appointment', id), { method: 'GET', signal });
    if (answer.status === 404 || answer.status === 410) return undefined;
    const raw = await resourceOf(answer, 'Appointment', signal) as Record<string, unknown>;
    const appointment = checkedResource('Appointment', raw);
    if (appointment.id !== id) throw fhirFault('an Appointment other than the one asked for');
    // Another server's Patient of the same id is another patient.
    const own = `Patient/${patientId}`;
    const patients = (patientReferences(appointment) ?? []).map((reference) => serverKey(this.o.client.baseUrl, reference));
    if (!patients.includes(own)) return undefined;
    // Shared with another patient, it is refused as the bookings read refuses it (client/patient-binding.ts):
    // paid here, it was this patient's to pay, and the other was then told it was paid (hostile review helper-170, F2).
    if (patients.some((patient) => patient !== own)) throw fhirFault('an Appointment of another patient');
    return { raw, appointment };
  }

  /** PATCH (JSON Patch with a `test` op) where the server offers it, else PUT; both only with `If-Match`. */
  private async markArrived(read: Read, signal: AbortSignal) {
    const capabilities = await this.typeCapabilities('Appointment');
    const version = read.appointment.meta?.versionId;
    if (capabilities.versioning !== 'versioned-update' || version === undefined) {
      // A blind write could overwrite a cancellation made a moment earlier.
      this.o.note('FHIR server offers no versioned update of Appointment; arrival not written');
      throw fhirFault('no version check for a write');
    }
    // The version goes into a header as the server wrote it: only an id's characters, so it names one version (helper-183 F5).
    if (!isPathId(version)) throw fhirFault('a meta.versionId that is no FHIR id');
    const url = this.o.client.resourceUrl('Appointment', read.appointment.id);
    const ifMatch = `W/"${version}"`;
    if (capabilities.interactions.has('patch')) {
      const body = JSON.stringify([{ op: 'test', path: '/status', value: 'booked' }, { op: 'replace', path: '/status', value: 'arrived' }]);
      return this.o.client.request(url, { method: 'PATCH', body, signal, headers: { 'content-type': 'application/json-patch+json', 'if-match': ifMatch } });
    }
    const body = JSON.stringify({ ...read.raw, status: 'arrived' });
    return this.o.client.request(url, { method: 'PUT', body, signal, headers: { 'content-type': FHIR_JSON, 'if-match': ifMatch } });
  }

  private async typeCapabilities(type: string): Promise<TypeCapabilities> {
    const check = await this.o.capabilities();
    const found = check?.capabilities.types.get(type);
    if (found === undefined) throw new EhrError('unavailable', 'FHIR server capabilities unknown', 5);
    return found;
  }

  /** The PaymentNotice body; the amount is price − reduction on the written decimals, never below 0. */
  private async paymentNotice(appointment: Appointment, paymentType: PaymentType, signal: AbortSignal): Promise<string> {
    const index = new ResourceIndex(this.o.client.baseUrl);
    index.add(appointment);
    await resolveMissing(this.o.client, index, [appointment], APPOINTMENT_FOLLOWS, signal);
    const unit = appointmentUnit(appointment, index)?.unit.org;
    const { price, reduction } = feeOf(appointment) ?? {};
    const priceText = price === undefined ? undefined : writtenNumber(price, 'value');
    const amount = priceText === undefined ? undefined
      : decimalDifference(priceText, (reduction === undefined ? undefined : writtenNumber(reduction, 'value')) ?? '0');
    const now = this.o.now();
    const notice = {
      resourceType: 'PaymentNotice', status: 'active',
      identifier: [{ system: this.o.paymentIdSystem, value: appointment.id }],
      extension: [{ url: PAYMENT_TYPE, valueCode: paymentType }],
      request: { reference: `Appointment/${appointment.id}` },
      created: new Date(now).toISOString(),
      paymentDate: compactDateToIso(localDate(now, this.o.zone)),
      payment: { display: 'Patientavgift betald vid incheckning' },
      recipient: unit === undefined ? UNKNOWN : { reference: `Organization/${unit.id}` },
      amount: amount === undefined ? UNKNOWN : { value: AMOUNT, currency: 'SEK' },
      paymentStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/paymentstatus', code: 'paid' }] },
    };
    // The amount goes out as the decimal it was computed to, not as a JavaScript number would write it.
    return JSON.stringify(notice).replace(`"${AMOUNT}"`, amount ?? '0');
  }
}

/** The server said it wrote the arrival, and what followed does not confirm it: it may have been made. */
function unconfirmed(why: string): EhrError {
  return new EhrError('bad-response', `FHIR server answered the arrival written, and ${why}`, undefined, true);
}

/**
 * A failure after the server said it wrote the arrival (a read that fails, times out or is refused): the
 * arrival may have been made whatever the failure, so the caller is told so (helper-183 F2); a timeout stays one.
 */
function unconfirmedAfter(err: unknown): unknown {
  if (!(err instanceof EhrError) || err.unconfirmedWrite) return err;
  return new EhrError(err.failure === 'timeout' ? 'timeout' : 'bad-response', err.message, undefined, true);
}

/** A stand-in for the amount while the body is written, replaced by the decimal's own text. */
const AMOUNT = '@pdas-amount@';

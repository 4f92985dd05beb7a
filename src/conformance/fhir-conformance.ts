/**
 * The conformance kit against a FHIR R4 server (docs/upstream-fhir.md#the-conformance-kit): the
 * CapabilityStatement judged against what the reads send, what the writes would need, the identity
 * lookup of the test patient, every read the fhir-r4 adapter serves and the delegation registry,
 * through the adapter's own client and mappers, each read's FHIR answers also judged entry by entry
 * by the kit itself (entry-checks.ts), and (asked for, against a sandbox only) the writes through
 * the adapter's own writes.
 */
import { checkCapabilities, neededSearches, type CapabilityCheck } from '../adapters/ehr-fhir/client/capabilities.js';
import { FhirClient } from '../adapters/ehr-fhir/client/fhir-client.js';
import type { FhirExchange } from '../adapters/ehr-fhir/client/fhir-exchange.js';
import { fhirReads, fhirRelationships, type FhirReadsOptions } from '../adapters/ehr-fhir/client/fhir-reads.js';
import { findPatient } from '../adapters/ehr-fhir/client/patient-lookup.js';
import { READ_PLANS } from '../adapters/ehr-fhir/client/read-plans.js';
import type { DelegationTag } from '../adapters/ehr-fhir/relationships.js';
import { DEFAULT_PAYMENT_SYSTEM } from '../start/fhir-settings.js';
import { READ_NAMES, type ReadName } from '../domain/operations/table.js';
import { eachRead } from '../domain/use-cases/read-sources.js';
import type { TimeRange } from '../domain/time/time-range.js';
import type { EhrReads } from '../ports/ehr-records.port.js';
import { AnswerTap, entryFaults } from './entry-checks.js';
import { errorDetail, recordChecks } from './record-checks.js';
import { row, type CheckRow } from './report.js';
import { writeChecks } from './write-checks.js';

export interface FhirConformanceOptions {
  /** The FHIR base (EHR_BASE_URL). */
  baseUrl: string;
  /** The region's test patient (12 digits); without one only the server's capabilities are checked. */
  patient?: string;
  /** Try the two writes: against a sandbox only. */
  sandboxWrites: boolean;
  exchange: FhirExchange;
  /** EHR_TIMEZONE, FHIR_ID_ROOT, FHIR_VIDEO_ACTION_ID_SYSTEM, FHIR_DELEGATION_TAG, FHIR_PAGE_SIZE, FHIR_MAX_PAGES, EHR_TIMEOUT_MS. */
  zone: string;
  idRoot: string;
  videoActionIdSystem?: string;
  delegationTag: DelegationTag;
  /** FHIR_PAYMENT_ID_SYSTEM: the identifier system of the PaymentNotices the writes create (the service's default when absent). */
  paymentIdSystem?: string;
  pageSize: number;
  maxPages: number;
  callTimeoutMs: number;
  /** The time range every read is asked for. */
  range: TimeRange;
  now: () => number;
}

const SERVED = READ_NAMES.filter((name) => READ_PLANS[name] !== undefined);

async function capabilityRows(client: FhirClient, sandboxWrites: boolean): Promise<{ rows: CheckRow[]; check?: CapabilityCheck }> {
  let check;
  try {
    check = await checkCapabilities(client, neededSearches(SERVED));
  } catch (err) {
    return { rows: [row('capability statement', 'FAIL', `GET metadata: ${errorDetail(err)}`)] };
  }
  const { capabilities, missing } = check;
  const rows: CheckRow[] = [];
  if (check.wrongVersion) rows.push(row('capability statement', 'FAIL', `fhirVersion ${capabilities.fhirVersion}; 4.0.x (R4) is needed`));
  else if (missing.length > 0) {
    // What the service would do with this server: serve every read but those (issue 57 item 4), or not be ready at all.
    const effect = check.ready ? `the service would not serve ${[...check.unavailable].join(', ')} (501), and serve every other read` : 'the service would report not ready';
    rows.push(row('capability statement', 'FAIL', `search parameters the reads send are not listed: ${missing.map((m) => `${m.type}.${m.param}`).join(', ')}; ${effect}`));
  } else rows.push(row('capability statement', 'PASS', `FHIR ${capabilities.fhirVersion}; every search parameter the reads send is listed`));
  const appointment = capabilities.types.get('Appointment');
  const notice = capabilities.types.get('PaymentNotice');
  const gaps = [
    appointment?.versioning === 'versioned-update' ? undefined : 'Appointment versioning is not versioned-update (no write without a version check)',
    appointment?.interactions.has('patch') || appointment?.interactions.has('update') ? undefined : 'Appointment has neither patch nor update',
    notice?.interactions.has('create') ? undefined : 'PaymentNotice has no create',
  ].filter((g): g is string => g !== undefined);
  const how = `arrival by ${appointment?.interactions.has('patch') ? 'PATCH' : 'PUT'} with If-Match; payment by ${notice?.conditionalCreate ? 'conditional create' : 'search, then create'}`;
  rows.push(gaps.length === 0 ? row('capabilities for the writes', 'PASS', how)
    : row('capabilities for the writes', sandboxWrites ? 'FAIL' : 'WARN', gaps.join('; ')));
  return { rows, check };
}

/** `reads`, each with the entries the server answered while it ran judged against the test patient's Patient `patientId`. */
function judgedReads(reads: EhrReads, tap: AnswerTap, patientId: string | undefined, baseUrl: string) {
  const faults = new Map<ReadName, string[]>();
  const judged = eachRead(reads, (name, reader) => async (patient, range) => {
    tap.take();
    try {
      return await reader(patient, range);
    } finally {
      faults.set(name, patientId === undefined ? [] : entryFaults(tap.take(), patientId, baseUrl));
    }
  });
  return { reads: judged, faultsOf: (name: ReadName) => faults.get(name) ?? [] };
}

export async function fhirConformance(o: FhirConformanceOptions): Promise<CheckRow[]> {
  const tap = new AnswerTap(o.exchange);
  const client = new FhirClient({ baseUrl: o.baseUrl, exchange: tap.exchange, pageSize: o.pageSize, maxPages: o.maxPages });
  const { rows, check } = await capabilityRows(client, o.sandboxWrites);
  if (o.patient === undefined) {
    rows.push(row('identity lookup, reads, registry', 'SKIP', 'no --patient given: name the region\'s test patient to check them'));
    rows.push(row('writes (arrival, payment)', 'SKIP', o.sandboxWrites ? 'no --patient given: the writes need the test patient\'s booking' : NOT_ASKED));
    return rows;
  }
  const patient = o.patient;
  let patientId: string | undefined;
  try {
    patientId = (await findPatient(client, patient, AbortSignal.timeout(o.callTimeoutMs))).id;
    rows.push(row('identity lookup', 'PASS', 'exactly one current Patient carries the test patient\'s number'));
  } catch (err) {
    rows.push(row('identity lookup', 'FAIL', errorDetail(err)));
  }
  const options: FhirReadsOptions = {
    client, zone: o.zone, idRoot: o.idRoot, videoActionIdSystem: o.videoActionIdSystem, now: o.now, note: () => {}, callTimeoutMs: o.callTimeoutMs,
  };
  const { reads, faultsOf } = judgedReads(fhirReads(options), tap, patientId, client.baseUrl);
  rows.push(...await recordChecks({
    reads, served: (read) => SERVED.includes(read), registry: fhirRelationships({ ...options, tag: o.delegationTag }), patient, range: o.range,
    upstreamFaults: faultsOf,
  }));
  // Writes only when asked for, and never where the statement already shows they would be refused.
  if (!o.sandboxWrites) rows.push(row('writes (arrival, payment)', 'SKIP', NOT_ASKED));
  else if (rows.some((r) => r.check === 'capabilities for the writes' && r.result !== 'PASS')) {
    rows.push(row('writes (arrival, payment)', 'SKIP', 'the server lacks what the writes need (see the capabilities row); nothing was written'));
  } else {
    rows.push(...await writeChecks({
      client, reads, capabilities: check, patient, range: o.range, paymentIdSystem: o.paymentIdSystem ?? DEFAULT_PAYMENT_SYSTEM, zone: o.zone, now: o.now, callTimeoutMs: o.callTimeoutMs,
    }));
  }
  return rows;
}

const NOT_ASKED = 'not asked: give --sandbox-writes, against a sandbox only';

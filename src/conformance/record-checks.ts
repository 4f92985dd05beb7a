/**
 * The checks that hold for any EHR adapter, over the ports alone (EhrRecords.reads and the
 * DelegationRegistry): each read of the operation table for the test patient, and the registry
 * with the test patient as the actor. So the same kit runs against a FHIR server, the legacy XML
 * EHR, or the embedded one.
 */
import type { Relationship } from '../domain/access/relationship.js';
import { EhrError } from '../domain/ehr-error.js';
import { parsePersonalIdentityNumber } from '../domain/identity/personal-identity-number.js';
import { READ_NAMES, type ReadName } from '../domain/operations/table.js';
import { isCompactDate } from '../domain/time/local-time.js';
import type { TimeRange } from '../domain/time/time-range.js';
import type { EhrReads } from '../ports/ehr-records.port.js';
import { answerFaults } from './answer-checks.js';
import { row, type CheckRow } from './report.js';

export interface RecordChecksInput {
  reads: EhrReads;
  /**
   * Whether this EHR has data for a read; a read its folder declares NOT_SERVED for this EHR
   * (src/reads/read-sources.ts) is skipped as declared, not judged by its empty answer.
   */
  served: (read: ReadName) => boolean;
  /** The delegation registry; absent when this adapter does not keep it. */
  registry?: (actor: string) => Promise<Relationship[]>;
  patient: string;
  range: TimeRange;
  /**
   * What the EHR's own answer behind the read showed wrong, judged entry by entry where the kit can
   * see it (the FHIR answers, entry-checks.ts): a fault there fails the read whatever it answered.
   */
  upstreamFaults?: (read: ReadName) => string[];
}

/** What went wrong, in this service's words: an EhrError's kind and fixed reason, else only the error's name. */
export function errorDetail(err: unknown): string {
  if (err instanceof EhrError) return `${err.failure}: ${err.message}`;
  return `unexpected ${err instanceof Error ? err.name : typeof err}`;
}

/** The records of an answer: the extracts or bookings inside its items where they hold those, else its items. */
function recordCount(items: readonly unknown[]): number {
  const inside = items.flatMap((item) => Object.entries(item as Record<string, unknown>)
    .filter(([key, value]) => /EHRExtract$|^(Registered)?Booking$/i.test(key) && Array.isArray(value)).map(([, value]) => (value as unknown[]).length));
  return inside.length === 0 ? items.length : inside.reduce((a, b) => a + b, 0);
}

async function readCheck(name: ReadName, input: RecordChecksInput): Promise<CheckRow> {
  const check = `read ${name}`;
  if (!input.served(name)) return row(check, 'SKIP', 'declared not served by this EHR (the read\'s sources.ts)');
  const read = input.reads[name] as (patient: string, range: TimeRange) => Promise<unknown[]>;
  let items: unknown[] | undefined;
  let failure: unknown;
  try {
    items = await read(input.patient, input.range);
  } catch (err) {
    failure = err;
  }
  const upstream = input.upstreamFaults?.(name) ?? [];
  if (upstream.length > 0) return row(check, 'FAIL', `the EHR's answer, entry by entry: ${upstream.join('; ')}`);
  if (items === undefined) return row(check, 'FAIL', errorDetail(failure));
  const faults = answerFaults(name, items, input.patient);
  if (faults.schema.length > 0) return row(check, 'FAIL', `not valid against the service's schema: ${faults.schema.join('; ')}`);
  if (faults.otherPeople.length > 0) return row(check, 'FAIL', `names another person's number at ${faults.otherPeople.join(', ')}`);
  if (faults.times.length > 0) return row(check, 'FAIL', `a time that does not convert at ${faults.times.join(', ')}`);
  const records = recordCount(items);
  // An empty answer passes every check and proves nothing about the mapping.
  if (records === 0) return row(check, 'WARN', 'no records in the range: nothing to judge; a test patient with data in every read checks more');
  const whose = input.upstreamFaults === undefined ? 'the test patient\'s only' : 'the test patient\'s only (each entry on its own)';
  return row(check, 'PASS', `${records} record(s): valid, ${whose}, every time converts`);
}

const isRowValid = (r: Relationship): boolean => parsePersonalIdentityNumber(r.patient) === r.patient
  && ['guardian', 'power-of-attorney', 'partner'].includes(r.type)
  && isCompactDate(r.validFrom) && (r.validTo === undefined || (isCompactDate(r.validTo) && r.validTo >= r.validFrom));

async function registryCheck(input: RecordChecksInput): Promise<CheckRow> {
  if (input.registry === undefined) return row('delegation registry', 'SKIP', 'kept elsewhere (not by this adapter)');
  try {
    const rows = await input.registry(input.patient);
    const bad = rows.filter((r) => !isRowValid(r)).length;
    // The rows name other people: counted, never shown.
    if (bad > 0) return row('delegation registry', 'FAIL', `${bad} of ${rows.length} row(s) lack a valid number, type or dates`);
    return row('delegation registry', 'PASS', `${rows.length} row(s) with the test patient as the actor, each with a number, a type and dates`);
  } catch (err) {
    return row('delegation registry', 'FAIL', errorDetail(err));
  }
}

export async function recordChecks(input: RecordChecksInput): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  for (const name of READ_NAMES) rows.push(await readCheck(name, input));
  rows.push(await registryCheck(input));
  return rows;
}

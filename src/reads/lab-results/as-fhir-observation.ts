/**
 * A lab report's test result as its Observation (docs/upstream-fhir.md#311-lab-results-operation-11,
 * the testResult table read backwards): the value a Quantity where the result is a number (its
 * comparator kept), else a string; the range as text; the pathological flag an interpretation.
 */
import type { TestResult } from '../../domain/records/index.js';
import { tooManyDigits } from '../../adapters/ehr-fhir/fhir-json.js';
import type { AsFhirContext, FhirResource } from '../as-fhir.js';
import { fhirDateTime, fhirOnly } from '../as-fhir-common.js';
import { fhirInstant, fhirQuantityValue, UNKNOWN } from '../as-fhir-datatypes.js';

const NPU_SYSTEM = 'urn:oid:1.2.208.176.2.1';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const LABORATORY = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] };

/** Observation.status, a required binding: a status read from FHIR is one of these already. */
const STATUSES: ReadonlySet<string> = new Set(['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown']);
/** The legacy words and the codes the same result has over FHIR (the equivalence test pairs them). */
const LEGACY_STATUSES: ReadonlyMap<string, string> = new Map([['Slutsvar', 'final'], ['Preliminärt', 'preliminary']]);
/** The statuses whose `issued` is the attest time and whose Practitioner performer the attester. */
export const ATTESTED: ReadonlySet<string> = new Set(['final', 'amended', 'corrected']);

/** The status: the code as it is, a legacy word as its code, else `unknown` (R4 requires one). */
export const observationStatus = (status: string | undefined): string =>
  (status === undefined ? 'unknown' : STATUSES.has(status) ? status : LEGACY_STATUSES.get(status) ?? 'unknown');

/** A comparator R4 knows, then the rest of the result. */
const COMPARED = /^(<=|>=|<|>)?(.*)$/s;

/**
 * The result as `value[x]`. A number (after a comparator, `<5`) is a Quantity whose value is the
 * decimal exactly as written, a legacy decimal comma (`4,0`) written with a point and its text as
 * written in the `rendered-value` extension, which the inbound answers (fhirQuantityValue); fhirDecimal gives
 * `JSON.rawJSON("4.0")` where a JS number would lose digits (4.0 would be written 4), so the API's
 * JSON.stringify writes the digits the record has and the inbound, which keeps the source text of
 * each number, reads back `4.0`. Any other result is a string, as written, or, beside a unit, a
 * Quantity of that text alone in rendered-value; a unit without a result is a Quantity without a value.
 */
export function valueOf(t: TestResult) {
  const [, comparator, number = ''] = COMPARED.exec(t.result ?? '') ?? [];
  // The inbound refuses a number of more than 40 digits (docs/upstream-fhir.md#text-numbers-and-codes).
  const value = tooManyDigits(number) ? {} : fhirQuantityValue(number);
  if (value.value !== undefined) return { valueQuantity: fhirOnly({ ...value, comparator, unit: t.unit }) };
  // No number, but a unit: the text alone in rendered-value, so the unit stays beside it (helper-216, F3).
  if (t.result !== undefined && t.result !== '') return t.unit === undefined ? { valueString: t.result } : { valueQuantity: { ...fhirQuantityValue(t.result), unit: t.unit } };
  return t.unit === undefined ? {} : { valueQuantity: { unit: t.unit } };
}

/** "1" abnormal (`A`, the code that says no more than that), "0" normal (`N`); another flag as text. */
function interpretation(flag: string | undefined) {
  if (flag === undefined) return undefined;
  const code = flag === '1' ? 'A' : flag === '0' ? 'N' : undefined;
  return [code === undefined ? { text: flag } : { coding: [{ system: INTERPRETATION, code }] }];
}

export interface ObservationFacts {
  id: string;
  /** The attesting Practitioner, as the Observation's performer. */
  attester?: { reference: string };
  /** The report's sampling time, which is its results' too. */
  effective?: { value?: string };
}

export function observationOf(t: TestResult, facts: ObservationFacts, ctx: AsFhirContext): FhirResource {
  const code = fhirOnly({ coding: t.IUPAC === undefined ? undefined : [{ system: NPU_SYSTEM, code: t.IUPAC }], text: t.testName });
  return fhirOnly({
    resourceType: 'Observation', id: facts.id,
    identifier: t.testId === undefined ? undefined : [{ value: t.testId }],
    status: observationStatus(t.status),
    category: [LABORATORY],
    // R4 requires a code (1..1): a result the record names by neither name nor NPU code has an unknown one.
    code: Object.keys(code).length === 0 ? UNKNOWN : code,
    subject: { reference: ctx.patientReference },
    // Every result of a report is of the sample the report's time is the sampling time of.
    effectiveDateTime: fhirDateTime(facts.effective, ctx.zone),
    // The attest time is `issued`, an instant: an attest date alone has no instant form.
    issued: t.attestDateTime?.value === undefined ? undefined : fhirInstant({ value: t.attestDateTime.value }, ctx.zone),
    performer: facts.attester === undefined ? undefined : [facts.attester],
    ...valueOf(t),
    interpretation: interpretation(t.pathological),
    note: t.testCommentary === undefined || t.testCommentary === '' ? undefined : [{ text: t.testCommentary }],
    referenceRange: t.range === undefined || t.range === '' ? undefined : [{ text: t.range }],
  });
}

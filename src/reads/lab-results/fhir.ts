/**
 * Operation 11, lab results (docs/upstream-fhir.md#311-lab-results-operation-11): one extract per
 * DiagnosticReport, in `[{chemistryReportEHRExtract: [...]}]`, each result one of the report's
 * Observations in order. Results come from reports only; an Observation no report names is not
 * answered. Values and range bounds stay as the JSON wrote them (`4.0` is `"4.0"`).
 */
import type { ChemistryReportEhrExtract, LabResult, TestResult } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { staffOf, unitOf } from '../../adapters/ehr-fhir/care-parties.js';
import { textOf } from '../../adapters/ehr-fhir/codes.js';
import { rangeLines, valuesWithComponents, type ObservationValue } from '../../adapters/ehr-fhir/observation-value.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { hsaIdOf, hsaIi, own, unitIdOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, enteredInError, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import type { DiagnosticReport, Observation } from './resource-types.js';
import { contactPatient, encounterContact, vendorUnitOf } from '../../adapters/ehr-fhir/vendor-parts.js';

const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ABNORMAL: ReadonlySet<string | undefined> = new Set(['H', 'HH', 'HU', 'L', 'LL', 'LU', 'A', 'AA']);
const ATTESTED: ReadonlySet<string> = new Set(['final', 'amended', 'corrected']);
const CONFIDENTIALITY = 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality';
const NPU_SYSTEM = 'urn:oid:1.2.208.176.2.1';

type AttestingProvider = ChemistryReportEhrExtract['attestingCareProviders']['attestingCareProvider'][number];

/** "1" abnormal, "0" normal, absent when the interpretation says neither (the vendor's "false - 0, true - 1"). */
function pathological(o: Observation): string | undefined {
  const codes = (o.interpretation ?? []).flatMap((c) => (c.coding ?? []).filter((x) => x.system === INTERPRETATION).map((x) => x.code));
  if (codes.some((c) => ABNORMAL.has(c))) return '1';
  return codes.includes('N') ? '0' : undefined;
}

/** The result and its unit: a lab result holds one value, so one of several (components) is refused rather than shown alone. */
function resultOf(o: Observation): ObservationValue {
  const values = valuesWithComponents(o);
  if (values.length > 1) throw fhirFault('an Observation of several values, which one lab result cannot hold');
  return values[0] ?? { numeric: false };
}

/** The first Practitioner performer of an attested result: who signed it. */
const attesterOf = (o: Observation, index: ResourceIndex) =>
  (ATTESTED.has(o.status) ? (o.performer ?? []).find((p) => index.get(p, 'Practitioner') !== undefined) : undefined);

function testResult(o: Observation, index: ResourceIndex, ctx: MapContext): TestResult {
  const attested = ATTESTED.has(o.status);
  const attester = index.get(attesterOf(o, index), 'Practitioner');
  const result = resultOf(o);
  const ranges = rangeLines(o, result.unit);
  return definedOnly({
    testId: o.identifier?.[0]?.value ?? o.id,
    rcId: own(o, ctx.idRoot),
    testName: textOf(o.code),
    IUPAC: o.code.coding?.find((c) => c.system === NPU_SYSTEM)?.code,
    result: result.text,
    unit: result.unit,
    range: ranges.length === 0 ? undefined : ranges.join('\n'),
    pathological: pathological(o),
    status: o.status,
    attestDateTime: attested ? ts(o.issued, ctx) : undefined,
    attestingCareProviderId: attester === undefined ? undefined : hsaIi(hsaIdOf(attester.identifier)),
    testCommentary: o.note === undefined ? undefined : o.note.map((n) => n.text).join('\n'),
  });
}

/** The report's Observations (as `result[]` names them, in order), answerable and at hand. */
const resultsOf = (report: DiagnosticReport, index: ResourceIndex): Observation[] =>
  (report.result ?? []).flatMap((ref) => {
    const o = index.get(ref, 'Observation');
    return o === undefined || enteredInError(o) ? [] : [o];
  });

/** Each attesting Practitioner and each results interpreter, once, in the order first met. */
function attestingProviders(report: DiagnosticReport, results: readonly Observation[], index: ResourceIndex): AttestingProvider[] {
  const refs = [...results.map((o) => attesterOf(o, index)), ...(report.resultsInterpreter ?? [])];
  const seen = new Set<string>();
  return refs.flatMap((ref) => {
    const staff = staffOf(ref, index);
    const key = staff?.internalId ?? ref?.reference;
    if (staff === undefined || key === undefined || seen.has(key)) return [];
    seen.add(key);
    return [definedOnly({
      careProviderID: hsaIi(staff.hsaId),
      careProviderName: staff.name,
      providerPosition: staff.position === undefined ? undefined : { careProviderPositionName: staff.position },
    })];
  });
}

function extract(report: DiagnosticReport, input: ReadInput, ctx: MapContext): ChemistryReportEhrExtract {
  const { index } = input;
  const results = resultsOf(report, index);
  const performer = (report.performer ?? []).find((p) => index.get(p, 'Organization') !== undefined);
  const unit = unitOf(performer, index);
  const encounter = index.get(report.encounter, 'Encounter');
  return definedOnly({
    ehrId: own(report, ctx.idRoot),
    timeCreated: ts(report.issued ?? report.meta?.lastUpdated, ctx),
    report: definedOnly({
      reportId: report.identifier?.[0]?.value ?? report.id,
      reportStatus: report.status,
      reportDateTime: ts(report.effectiveDateTime ?? report.effectivePeriod?.start, ctx),
      reportVersionDateTime: ts(report.meta?.lastUpdated, ctx),
      reportCommentary: report.conclusion,
      secrecyClassification: report.meta?.security?.find((c) => c.system === CONFIDENTIALITY)?.code,
      testResult: results.map((o) => testResult(o, index, ctx)),
    }),
    attestingCareProviders: { attestingCareProvider: attestingProviders(report, results, index) },
    careProviders: { careProvider: [] },
    performingUnit: unitIdOf(unit?.hsaId),
    accessZoneUnit: unitIdOf(unit?.hsaId),
    headCareProviderUnit: unitIdOf(unit?.headHsaId),
    units: { unit: unit === undefined ? [] : [vendorUnitOf(unit)] },
    hCMContact: encounter === undefined ? undefined : { ...encounterContact(encounter, ctx), contactSecrecyLevels: [] },
    patient: contactPatient(input.patient),
  });
}

export function mapLabResults(input: ReadInput, ctx: MapContext): LabResult[] {
  // One element, however many reports: the read's selection leaves out an element left empty.
  return [{ chemistryReportEHRExtract: answerable(input, 'DiagnosticReport').map((r) => extract(r, input, ctx)) }];
}

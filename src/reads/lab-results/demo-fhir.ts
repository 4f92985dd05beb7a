/**
 * The demo's lab reports in FHIR (the contract's operation 11): one DiagnosticReport (category LAB)
 * per report, one Observation per test, performed by the lab and attested by its clinician. A
 * value written as a number ("5,4", "<5") is a Quantity (comparator kept), any other a string.
 */
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { REPORTS, type ReportSpec, type TestSpec } from './demo-data.js';
import { attestTime, LAB_ATTESTER, reportFacts, testIdOf } from './demo-xml.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { decimalValue, instant, meta, orgId, patientRef, practitionerId, ref, secrecyLabels, SYSTEMS, text, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';

const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const NUMERIC = /^([<>]=?)?\s*(\d+(?:[.,]\d+)?)$/;

function value(test: TestSpec) {
  const m = NUMERIC.exec(test.result.trim());
  if (m === null) return { valueString: test.result };
  const comparator = m[1] as '<' | '>' | '<=' | '>=' | undefined;
  return { valueQuantity: { ...(comparator === undefined ? {} : { comparator }), ...decimalValue(m[2] as string), ...(test.unit === undefined ? {} : { unit: test.unit }) } };
}

function observation(test: TestSpec, id: string, testId: string, person: DemoPerson, taken: string, made: string, clock: DemoClock): FhirResource {
  const attested = attestTime(test, made, clock.zone);
  return {
    resourceType: 'Observation', id, meta: meta(attested ?? made, clock),
    identifier: [{ value: testId }],
    status: attested === undefined ? 'preliminary' : 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
    code: { ...(test.npu === undefined ? {} : { coding: [{ system: SYSTEMS.npu, code: test.npu }] }), text: test.name },
    subject: patientRef(person),
    effectiveDateTime: instant(taken, clock.zone),
    ...(attested === undefined ? {} : { issued: instant(attested, clock.zone) }),
    performer: [ref('Organization', orgId('lab')), ...(attested === undefined ? [] : [ref('Practitioner', practitionerId(LAB_ATTESTER))])],
    ...value(test),
    interpretation: [{ coding: [{ system: INTERPRETATION, code: test.pathological ? 'A' : 'N' }] }],
    ...(test.range === undefined ? {} : { referenceRange: [{ text: test.range }] }),
    ...(test.commentary === undefined ? {} : { note: [{ text: test.commentary }] }),
  };
}

function report(spec: ReportSpec, person: DemoPerson, clock: DemoClock): FhirResource[] {
  const { taken, made, reportId } = reportFacts(spec, person, clock);
  const observations = spec.tests.map((test, i) => observation(test, `obs-lab-${testIdOf(person, spec, i)}`, testIdOf(person, spec, i), person, taken, made, clock));
  const security = secrecyLabels(spec.secrecy);
  return [{
    resourceType: 'DiagnosticReport', id: `dr-${reportId}`, meta: meta(made, clock, security.length === 0 ? {} : { security }),
    identifier: [{ value: reportId }],
    status: spec.status === 'Slutsvar' ? 'final' : 'preliminary',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }],
    code: text('Klinisk kemi'),
    subject: patientRef(person),
    effectiveDateTime: instant(taken, clock.zone),
    issued: instant(made, clock.zone),
    performer: [ref('Organization', orgId('lab'))],
    result: observations.map((o) => ref('Observation', o.id)),
    ...(spec.commentary === undefined ? {} : { conclusion: spec.commentary }),
  }, ...observations];
}

export const labResults = (person: DemoPerson, clock: DemoClock): FhirResource[] =>
  (REPORTS[person.id] ?? []).flatMap((spec) => report(spec, person, clock));

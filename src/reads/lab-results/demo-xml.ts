import { dayAt, dayOf, plusMinutes, type DemoClock } from '../../dev/demo-data/clock.js';
import { v2Unit } from '../care-contacts/demo-xml.js';
import { EHR_ID_ROOT, extractPatient, id, RC_ROOT, simpleUnit, tv, XSI } from '../../dev/demo-data/ix.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { REPORTS, type ReportSpec, type TestSpec } from './demo-data.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, POSITION_ROOT, STAFF } from '../../dev/demo-data/units.js';
import { cdataIfMarkup, el, leaf, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/** ChemistryReportEHRExtracts (docs/upstream-ehr.md#3-documents, a mirror of the vendor's chemistry lab results v2). */

/** The clinician of the lab who attests every demo result. */
export const LAB_ATTESTER = 'lena' as const;
const ATTESTER = STAFF[LAB_ATTESTER];

/** When a test was attested: `attestedAfter` minutes after the report was made; absent while preliminary. */
export const attestTime = (test: TestSpec, made: string, zone: string): string | undefined =>
  (test.attestedAfter === undefined ? undefined : plusMinutes(made, test.attestedAfter, zone));

function testResult(test: TestSpec, i: number, report: ReportSpec, made: string, zone: string, person: DemoPerson): XmlElement {
  const testId = testIdOf(person, report, i);
  return el('testResult',
    id('rcId', `TOLV:RcId:TestResult:${testId}`, RC_ROOT),
    el('testId', testId), el('testName', test.name), leaf('IUPAC', test.npu),
    el('result', cdataIfMarkup(test.result)), leaf('unit', test.unit), leaf('range', test.range && cdataIfMarkup(test.range)),
    el('pathological', test.pathological ? '1' : '0'),
    el('status', test.attestedAfter === undefined ? 'Preliminärt' : 'Slutsvar'),
    leaf('testCommentary', test.commentary && cdataIfMarkup(test.commentary)),
    test.attestedAfter !== undefined && [
      tv('attestDateTime', attestTime(test, made, zone) ?? made),
      id('attestingCareProviderId', ATTESTER.hsaId, HSA_ROOT),
    ]);
}

/** When a report's sample was taken and when the report was made, and its id: both forms of the demo data read this. */
export function reportFacts(spec: ReportSpec, person: DemoPerson, clock: DemoClock) {
  const day = dayOf(clock, spec.day);
  const taken = dayAt(clock, day, spec.time);
  return { taken, made: plusMinutes(taken, spec.madeAfter, clock.zone), reportId: `000${person.slotBase + spec.n}` };
}

/** A test's id within its report. */
export const testIdOf = (person: DemoPerson, report: ReportSpec, i: number): string =>
  `${String(person.slotBase + report.n).padStart(4, '0')}${String(i + 1).padStart(2, '0')}`;

/** One report of a person's lab results document, as the demo writes it (`npm run notifications` adds one to a running demo). */
export function report(spec: ReportSpec, person: DemoPerson, clock: DemoClock): XmlElement {
  const { taken, made, reportId } = reportFacts(spec, person, clock);
  const requester = STAFF[spec.requester];
  const attested = spec.tests.some((t) => t.attestedAfter !== undefined);
  return el('chemistryReportEHRExtract',
    // Each report its own record id: docs/upstream-fhir.md#311-lab-results-operation-11 makes it the resource's id (its rcId holds colons).
    id('ehrId', ehrId(`${person.id}:lab:${reportId}`), EHR_ID_ROOT),
    id('ehrSystem', EHR_SYSTEM_ID, HSA_ROOT),
    tv('timeCreated', made),
    // The report's status and id as attributes: the mirror rule lets a leaf member be either.
    tag('report', { reportId, reportStatus: spec.status === 'Slutsvar' ? 'CO' : 'PR' },
      id('rcId', `TOLV:RcId:ChemistryReport:${reportId}`, RC_ROOT),
      tv('reportDateTime', taken), tv('reportVersionDateTime', made),
      el('secrecyClassification', spec.secrecy ?? 'Normal'),
      leaf('reportCommentary', spec.commentary),
      spec.tests.map((test, i) => testResult(test, i, spec, made, clock.zone, person))),
    el('request',
      el('requestId', `9${reportId}`), tv('requestDateTime', plusMinutes(taken, -24 * 60, clock.zone)),
      // A plain string in the vendor's layout, not a TS.
      el('collectionDateTime', taken), el('priority', spec.priority),
      spec.question !== undefined && el('clinicalInformation', el('information', 'Frågeställning'), el('reply', cdataIfMarkup(spec.question)))),
    extractPatient('patient', person),
    attested && el('attestingCareProviders', el('attestingCareProvider',
      id('careProviderID', ATTESTER.hsaId, HSA_ROOT), el('careProviderName', ATTESTER.name), el('careProviderType', 'Attester'),
      el('providerPosition', id('careProviderPositionID', ATTESTER.positionId, POSITION_ROOT),
        el('careProviderPositionName', ATTESTER.positionName)))),
    el('careProviders', el('careProvider',
      el('careProviderType', 'RequestingPhysician'), id('careProviderID', requester.hsaId, HSA_ROOT),
      el('careProviderInternalID', requester.internalId), el('careProviderName', cdataIfMarkup(requester.name)),
      simpleUnit('careProviderUnit', spec.requestingUnit))),
    el('units', v2Unit('lab', 'PROVSVAR')),
    simpleUnit('performingUnit', 'lab'),
    simpleUnit('requestingUnit', spec.requestingUnit),
    simpleUnit('accessZoneUnit', spec.requestingUnit),
    el('headCareProviderUnit', id('unitID', HEAD_UNIT.hsaId, HSA_ROOT)));
}

export function labResultsDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const root = tag('lr:ChemistryReportEHRExtracts', { 'xmlns:lr': ns, xmlns: ns, 'xmlns:xsi': XSI },
    // Newest first: the service sorts on timeCreated itself.
    [...(REPORTS[person.id] ?? [])].reverse().map((spec) => report(spec, person, clock)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/labresults (synthetic demo data, generated `
    + `for ${clock.today}). A mirror of the vendor's chemistry lab results v2. Traps where present: a prefixed root, `
    + 'reports out of time order, a sample taken in the hour a daylight-saving change repeats or skips, report '
    + 'members as attributes, results and ranges as text however numeric ("5,4", "<5"), a preliminary result without '
    + 'attestDateTime, CDATA and markup-like text.');
}

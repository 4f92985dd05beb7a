/**
 * The hand-kept facts of getLabResults that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { UNITS } from '../../dev/demo-data/units.js';
import { onlyOverFhir, OWN, pairs, RULES, under, v2Unit, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

const LAB = '#311-lab-results-operation-11';
const report = under('chemistryReportEHRExtract/*/');
const labDifferences: Difference[] = [
  report('ehrId/extension', 'differs', OWN),
  report('report/testResult/*/rcId', 'differs', OWN),
  ...['ehrSystem', 'report/rcId', 'request', 'requestingUnit', 'careProviders/careProvider/*']
    .map((m) => report(m, 'absent', `${LAB}: absent`)),
  report('report/reportStatus', 'differs', `${RULES}: a status as FHIR writes it`, pairs(['CO', 'final'], ['PR', 'preliminary'])),
  report('report/testResult/*/status', 'differs', `${RULES}: a status as FHIR writes it`, pairs(['Slutsvar', 'final'], ['Preliminärt', 'preliminary'])),
  report('report/secrecyClassification', 'differs', `${RULES}: secrecy levels as security labels`, pairs(['Normal', undefined], ['Sekretess', 'R'])),
  // The requesting unit has no FHIR home until ServiceRequest is read.
  report('accessZoneUnit/unitID/extension', 'differs', `${LAB}: the access zone unit is the performing unit`, (_, fhir) => fhir === UNITS.lab.hsaId),
  ...['accessZoneUnit/unitLocalID', 'performingUnit/unitLocalID'].map((m) => report(m, 'absent', `${RULES}: a unit named by its HSA id only`)),
  report('patient/patientInternalID', 'differs', `${RULES}: the patient's internal id is Patient.id`, onlyOverFhir),
  report('attestingCareProviders/attestingCareProvider/*/careProviderType', 'absent', `${LAB}: an attesting care provider's id, name and position`),
  report('attestingCareProviders/attestingCareProvider/*/providerPosition/careProviderPositionID', 'absent', `${RULES}: Staff has a position name and no position id`),
  // The attester is the result's Practitioner performer, whose position is its qualification.
  report('attestingCareProviders/attestingCareProvider/*/providerPosition/careProviderPositionName', 'differs', `${LAB}: the first Practitioner performer`,
    pairs(['Specialist i klinisk kemi', 'Läkare'])),
  ...v2Unit(report, 'units/unit/*/'),
];

export const getLabResults = {
  reading: 'mirror',
  times: (data) => data.flatMap((a) => a.chemistryReportEHRExtract.map((e) => e.timeCreated?.value ?? '')),
  filteredPaths: ['/patients/labresults', '/api/open/chemistrylabreports'],
  withholds: true,
  formTypes: ['DiagnosticReport', 'Observation'],
  keys: (a) => a.flatMap((r) => r.chemistryReportEHRExtract.map((e) => `${e.report?.reportId} ${e.report?.reportDateTime?.value}`)),
  differences: labDifferences,
} satisfies ReadOracles<'getLabResults'>;

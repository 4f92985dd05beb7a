import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { instantOf } from '../../domain/read-policy/time-selection.js';
import { releaseLabReport } from '../../domain/release/report-release.js';
import { LabResultSchema, type ChemistryReportEhrExtract } from '../../domain/records/index.js';
import { EMPTY, INTERVAL, SHAPE_2, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { LAB_TYPES } from './resource-types.js';

/** Operation 11 (beyond the spec): chemistry lab reports in the vendor's v2 layout, filtered and sorted on when they were made. */
export const getLabResults = recordsRead({
  number: 11,
  scope: { name: 'user/LabResult-read', description: 'Read lab results', aliases: ['user/Observation.read', 'patient/Observation.read'] },
  displayName: { sv: 'Provsvar', en: 'Lab results' },
  errorShape: 'error',
  path: '/patients/labresults/',
  vendorPaths: ['/api/open/chemistrylabreports/'],
  query: TimeFilterQuery,
  vendorQueryNames: { startActionDateTime: 'fromDateTime', endActionDateTime: 'toDateTime' },
  answer: { item: LabResultSchema, schemaName: 'ChemistryReportEHRExtracts', example: EXAMPLE, vendorLayout: 'chemistry-lab-results-v2', bulk: 'chemistryReportEHRExtract' },
  fhirTypes: LAB_TYPES,
  policy: extractsPolicy('chemistryReportEHRExtract', {
    instant: (e: ChemistryReportEhrExtract, zone) => instantOf(e.timeCreated, zone),
    protectedMark: (e) => e.patient?.patientProtectedId,
    release: releaseLabReport,
    vendorLayout: true,
  }),
  docs: {
    tag: { name: 'Lab results', description: 'Chemistry lab reports: each test with its result, unit, reference range and whether it is pathological.' },
    summary: 'List lab results',
    description: `Chemistry lab reports with their tests, oldest first, filtered on when each report was made. ${INTERVAL} `
      + 'At the vendor\'s path the bounds may also be given as `startActionDateTime` and `endActionDateTime` (one bound in both forms is refused). '
      + `A result not yet attested has no \`attestDateTime\`. ${EMPTY} ${WHO} ${SHAPE_2}`,
    success: 'The lab reports, oldest first.',
  },
});

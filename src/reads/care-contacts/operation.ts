import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { instantOf } from '../../domain/read-policy/time-selection.js';
import { releaseContact } from '../../domain/release/record-release.js';
import { CareContactSchema, type ContactEhrExtract } from '../../domain/records/index.js';
import { EMPTY, INTERVAL, SHAPE_2, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { VersionedTimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };
import { ENCOUNTER_TYPES } from './resource-types.js';

/** Operation 6: care contacts in the vendor's v2 layout, filtered and sorted on the contact's begin. */
export const getContacts = recordsRead({
  number: 6,
  scope: { name: 'user/Contact-read', description: 'Read care contacts' },
  displayName: { sv: 'Vårdkontakter', en: 'Care contacts' },
  errorShape: 'error',
  path: '/patients/contacts/',
  vendorPaths: ['/api/open/contacts/'],
  query: VersionedTimeFilterQuery,
  apiVersion: { value: 'v2', whenAbsent: 'v2' },
  answer: { item: CareContactSchema, schemaName: 'CareContacts', example: EXAMPLE, vendorLayout: 'care-contacts-v2' },
  fhirTypes: ENCOUNTER_TYPES,
  policy: extractsPolicy('contactEHRExtract', {
    instant: (e: ContactEhrExtract, zone) => instantOf(e.contact?.contactBeginDateTime, zone),
    protectedMark: (e) => e.patient?.patientProtectedId,
    release: releaseContact,
    vendorLayout: true,
  }),
  docs: {
    tag: { name: 'Care contacts', description: 'Visits and other care contacts, past and planned.' },
    summary: 'List care contacts',
    description: `Visits and other care contacts, oldest first, filtered on their start time. ${INTERVAL} ${EMPTY} ${WHO} ${SHAPE_2}`,
    success: 'The care contacts, oldest first.',
  },
});

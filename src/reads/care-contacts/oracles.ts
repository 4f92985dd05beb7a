/**
 * The hand-kept facts of getContacts that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { onlyOverFhir, OWN, pairs, RULES, under, v2CareProvider, v2Unit, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

const CONTACTS = '#36-care-contacts-operation-6';
const contact = under('contactEHRExtract/*/');
const contactDifferences: Difference[] = [
  contact('ehrId/extension', 'differs', OWN),
  ...['ehrSystem', 'contact/rcId', 'contact/contactStatusConfigurationId', 'contact/contactShareInfo', 'contact/contactPatientFee',
    'contact/actions/action/*'].map((m) => contact(m, 'absent', `${CONTACTS}: absent`)),
  contact('contact/discharge/postMortemRequired', 'absent', `${CONTACTS}: a discharge is its destination and time`),
  contact('contact/contactPerformingUnit', 'differs', `${CONTACTS}: the id part of \`serviceProvider\``),
  contact('contact/contactStatus', 'differs', `${RULES}: a status as FHIR writes it`,
    pairs(['Planerad', 'planned'], ['Avslutad', 'finished'], ['Avbokad', 'cancelled'])),
  contact('contact/contactCategory1', 'differs', `${CONTACTS}: Text(class), which R4 requires of every Encounter`, onlyOverFhir),
  contact('contact/contactSecrecyLevels/secrecyLevel/*', 'differs', `${RULES}: secrecy levels as security labels`,
    pairs(['Normal', undefined], ['Sekretess', 'R'])),
  contact('patient/patientInternalID', 'differs', `${RULES}: the patient's internal id is Patient.id`, onlyOverFhir),
  contact('contactPerformingUnit/unitLocalID', 'absent', `${RULES}: a unit named by its HSA id only`),
  ...v2Unit(contact, 'units/unit/*/'),
  ...v2CareProvider(contact, 'careProviders/careProvider/*/'),
];

export const getContacts = {
  reading: 'mirror',
  times: (data) => data.flatMap((c) => c.contactEHRExtract.map((e) => e.contact?.contactBeginDateTime?.value ?? '')),
  filteredPaths: ['/patients/contacts', '/api/open/contacts'],
  withholds: true,
  formTypes: ['Encounter'],
  keys: (a) => a.flatMap((r) => r.contactEHRExtract.map((e) => `${e.contact?.contactInternalID} ${e.contact?.contactBeginDateTime?.value}`)),
  differences: contactDifferences,
} satisfies ReadOracles<'getContacts'>;

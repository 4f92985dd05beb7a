/**
 * The hand-kept facts of getJournalNotes that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { onlyOverFhir, OWN, pairs, RULES, under, unitRules, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

const NOTES = '#310-journal-notes-operation-10';
const note = under('JournalNoteEHRExtract/*/');
const noteRecord = (depth: number, member: string) => `Note/Records/Record/*/${'Record/'.repeat(depth)}${member}`;
const journalDifferences: Difference[] = [
  note('ehr_id/extension', 'differs', OWN),
  note('time_created/value', 'differs', `${NOTES}: the Composition's \`date\`, where the legacy document's is its signature`),
  ...['ehr_system', 'AccessZoneUnit', 'HCMContact/target_id', 'Note/Records/Record/*/KeywordSecrecyLevels/SecrecyLevel/*',
    'Note/Records/Record/*/OtherValue/ArchetypeRecords/ArchetypeRecord/*', ...[0, 1, 2].map((depth) => noteRecord(depth, 'KeywordToolType'))]
    .map((m) => note(m, 'absent', `${NOTES}: absent`)),
  note(noteRecord(1, 'Value/*/JournalValueType'), 'differs', `${NOTES}: a section's text is a Text value`, pairs(['Diagnosis', 'Text'])),
  note('HCMContact/HCMContactStatus', 'differs', `${RULES}: a status as FHIR writes it`, pairs(['Avslutad', 'finished'])),
  // `confidentiality` and the security labels: a secret note is `R` twice over FHIR.
  note('Note/NoteSecrecyLevels/SecrecyLevel/*', 'differs', `${NOTES}: \`confidentiality\` and the codes of \`meta.security\``,
    pairs(['Normal', 'N'], ['Sekretess', 'R'], [undefined, 'R'])),
  note('Patient/PatientInternalID', 'differs', `${RULES}: the patient's internal id is Patient.id`, onlyOverFhir),
  ...['CareUnit/UnitLocalID', 'HeadCareproviderUnit/UnitLocalID', 'CareProviders/CareProvider/*/CareProviderUnit/UnitLocalID']
    .map((m) => note(m, 'absent', `${RULES}: a unit named by its HSA id only`)),
  note('CareProviders/CareProvider/*/CareProviderType', 'differs', `${NOTES}: an author or an attester`, pairs(['SIGNERARE', 'author'], ['DOKUMENTERARE', 'author'])),
  note('CareProviders/CareProvider/*/CareProviderInternalID', 'differs', `${RULES}: a member of staff's internal id is the Practitioner's logical id`),
  note('CareProviders/CareProvider/*/ProviderPosition/CareProviderPositionID', 'absent', `${RULES}: Staff has a position name and no position id`),
  ...unitRules(note, {
    localId: 'Units/Unit/*/UnitLocalID', groups: 'Units/Unit/*/UnitSecrecyGroups/Group/*', zones: 'Units/Unit/*/AccessZones/AccessZoneID/*',
    phoneType: 'Units/Unit/*/PhoneNumbers/Phone/*/PhoneType', phoneComment: 'Units/Unit/*/PhoneNumbers/Phone/*/PhoneComment',
    emailType: 'Units/Unit/*/EmailAddresses/Email/*/EmailType', addressType: 'Units/Unit/*/UnitAddresses/UnitAddress/*/UnitAddressType',
    addressComment: 'Units/Unit/*/UnitAddresses/UnitAddress/*/UnitAddressComment', country: 'Units/Unit/*/UnitAddresses/UnitAddress/*/UnitAddressCountry',
  }),
];

export const getJournalNotes = {
  reading: 'own reading',
  times: (data) => data.flatMap((r) => r.JournalNoteEHRExtract.map((e) => e.time_created.value)),
  filteredPaths: ['/patients/journalnotes', '/api/open/journalnotes'],
  withholds: true,
  formTypes: ['Composition'],
  // A note made inactive upstream is entered-in-error in FHIR, which is never answered.
  keys: (a) => a.flatMap((r) => r.JournalNoteEHRExtract.filter((e) => e.Note?.NoteActive !== false)
    .map((e) => `${e.Note?.NoteId?.extension} ${e.Note?.NoteDateTime?.value}`)),
  differences: journalDifferences,
} satisfies ReadOracles<'getJournalNotes'>;

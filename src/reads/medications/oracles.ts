/**
 * The hand-kept facts of getMedications that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import { legacyWith, OWN, pairs, RULES, under, unitRules, type Difference } from '../../../test/adapters/ehr-fhir/support/differences.js';
import type { ReadOracles } from '../../../test/support/read-oracles.js';

const MEDICATIONS = '#39-medications-operation-9';
const prescription = under('PrescriptionEHRExtract/*/');
const dosage = (member: string) => `Prescription/PrescriptionDosages/DosagePlugin/*/IX3Dosage/${member}`;
const medicationDifferences: Difference[] = [
  prescription('ehr_id/extension', 'differs', OWN),
  ...['ehr_system', 'Prescription/rc_id', 'Prescription/ReplacedByLatest', 'Prescription/MedicationTreatmentStatusDetail/EffectiveDateTime',
    'Prescription/PrescriptionDetails/*', 'Prescription/TreatmentGoal', 'Prescription/RouteDetail/abbreviation', 'Prescription/RouteDetail/routeLicensed',
    'CreationUnit', 'AccessZoneUnit', 'HeadCareproviderUnit', 'HCMContact/rc_id', 'ResponsibleUnit/UnitInternalID', 'ResponsibleUnit/UnitLocalID',
    ...['WholeWhenNeeded', 'Continuous', 'Conditional', 'ExtraDose', 'ConditionalText', 'DosageShortText', 'DosageType', 'DoseDistributionType',
      'DoseStart/DoseStartType', 'DoseEnd/DoseEndType', 'DoseInstance/*/DaysFromDosageStart', 'DoseInstance/*/OneOff', 'DoseInstance/*/Conditional']
      .map(dosage)].map((m) => prescription(m, 'absent', `${MEDICATIONS}: absent`)),
  prescription(dosage('DoseEnd/EndDuration'), 'absent', `${MEDICATIONS}: a Timing is bounded by a Period or a Duration, the demo's by a Period`),
  // A dose at no time of day (when needed) has no DoseInstance.
  prescription(dosage('DoseInstance/*'), 'absent', `${MEDICATIONS}: one DoseInstance per time of day`,
    legacyWith('DoseTime', undefined)),
  prescription('Prescription/MedicationTreatmentStatusDetail/TreatmentStatus', 'differs', `${RULES}: a status as FHIR writes it`,
    pairs(['ACTIVE', 'active'], ['INVALIDATED', 'stopped'])),
  prescription('HCMContact/ContactStatus', 'differs', `${RULES}: a status as FHIR writes it`, pairs(['ARRIVED', 'finished'])),
  prescription('Patient/PatientNameData/PatientNames/Name/*', 'differs', `${RULES}: Name as one string is \`text\``),
  // The description's care provider is the requester; the legacy registrar (FHIR's `recorder`) is not answered.
  prescription('CareProviders/CareProviders/*/CareProvider/*', 'absent', `${MEDICATIONS}: the requester`,
    legacyWith('CareProviderType', 'REGISTRERARE')),
  prescription('CareProviders/CareProviders/*/CareProvider/*/CareProviderType', 'differs', `${MEDICATIONS}: the requester`, pairs(['FORSKRIVARE', 'requester'])),
  ...['CareProviderPosition/CareProviderPositionID', 'CareProviderUnit/UnitInternalID', 'CareProviderUnit/UnitLocalID']
    .map((m) => prescription(`CareProviders/CareProviders/*/CareProvider/*/${m}`, 'absent', `${MEDICATIONS}: a care provider's unit is its UnitID; ${RULES}: Staff has no position id`)),
  ...unitRules(prescription, {
    localId: 'Units/UnitData/*/UnitLocalID', internalId: 'Units/UnitData/*/UnitInternalID', groups: 'Units/UnitData/*/UnitSecrecyGroups/Group/*',
    zones: 'Units/UnitData/*/AccessZones/AccessZoneID/*', phoneType: 'Units/UnitData/*/PhoneNumbers/PhoneData/*/PhoneType',
    phoneComment: 'Units/UnitData/*/PhoneNumbers/PhoneData/*/PhoneComment', emailType: 'Units/UnitData/*/EmailAddresses/EmailData/*/EmailType',
    emailComment: 'Units/UnitData/*/EmailAddresses/EmailData/*/EmailComment', country: 'Units/UnitData/*/UnitAddresses/UnitAddressData/*/UnitAddressCountry',
  }),
];

export const getMedications = {
  reading: 'own reading',
  times: (data) => data.flatMap((r) => r.PrescriptionEHRExtract.map((e) => e.time_created.value)),
  filteredPaths: ['/patients/medications', '/open/api/medications'],
  withholds: false,
  formTypes: ['MedicationRequest'],
  keys: (a) => a.flatMap((r) => r.PrescriptionEHRExtract.map((e) => `${e.Prescription?.MedicationTreatmentId?.extension} ${e.time_created.value}`)),
  differences: medicationDifferences,
} satisfies ReadOracles<'getMedications'>;

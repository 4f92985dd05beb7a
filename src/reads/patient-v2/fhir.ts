/**
 * Operation 5, the patient in the vendor's v2 layout (docs/upstream-fhir.md#35-patient-information-v2-layout-operation-5):
 * the Patient of the lookup with its relatives (the active RelatedPersons about it), as
 * `[{patientEHRExtract: [one extract]}]`. Only the core of the layout is mapped.
 */
import type { PatientRelative, PatientV2, PatientV2Data } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { addressParts, currentAddresses, patientAddressMembers } from '../../adapters/ehr-fhir/address.js';
import { unitOf } from '../../adapters/ehr-fhir/care-parties.js';
import { textOf } from '../../adapters/ehr-fhir/codes.js';
import { hasEnded, ts, tsDate } from '../../adapters/ehr-fhir/fhir-time.js';
import { nameInUse, wholeName } from '../../adapters/ehr-fhir/human-name.js';
import { ii, own, unitIdOf } from '../../adapters/ehr-fhir/identifiers.js';
import { personNumberKindOf } from '../../domain/identity/person-number-systems.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { holdsOlderLayoutOnly, sexOf, type PatientFacts } from '../../adapters/ehr-fhir/patient-facts.js';
import { answerable, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { FhirIdentifier } from '../../domain/fhir/resources/datatypes.js';
import type { RelatedPerson } from '../../domain/fhir/resources/parties.js';
import { emailItems, emails, phones } from '../../adapters/ehr-fhir/telecom.js';

function relative(person: RelatedPerson, ctx: MapContext): PatientRelative {
  const name = nameInUse(person.name);
  const personPhones = phones(person.telecom);
  const address = currentAddresses(person.address, ctx)[0];
  const parts = address === undefined ? undefined : addressParts(address);
  const given = name?.given ?? [];
  return definedOnly({
    patientRelativeType: textOf(person.relationship?.[0]),
    patientRelativeName: wholeName(name),
    patientRelativeGivenName: given.length === 0 ? undefined : given.join(' '),
    patientRelativeFamilyName: name?.family,
    patientRelativeHomePhonenumber: personPhones.find((p) => p.use === 'home')?.value,
    patientRelativeWorkPhonenumber: (personPhones.find((p) => p.use === 'work') ?? personPhones.find((p) => p.use === 'mobile'))?.value,
    patientRelativeCOAddress: parts?.careOf,
    patientRelativeStreetAddress: parts?.street,
    patientRelativePostalCode: parts?.postcode,
    patientRelativeCity: parts?.city,
    patientRelativeAddress: parts?.text,
  });
}

function numbers(identifiers: readonly FhirIdentifier[], ctx: MapContext) {
  const personNumbers = identifiers.filter((i) => personNumberKindOf(i.system) !== undefined);
  const inactive = (i: FhirIdentifier): boolean => i.use === 'old' || hasEnded(i.period, ctx.nowMs, ctx);
  const iis = (list: FhirIdentifier[]) => list.map(ii).filter((x) => x !== undefined);
  return {
    patientConnectedActiveNumbers: { patientConnectedActiveNumber: iis(personNumbers.filter((i) => !inactive(i))) },
    patientConnectedInactiveNumbers: { patientConnectedInactiveNumber: iis(personNumbers.filter(inactive)) },
    patientOtherIdentifiers: {
      patientOtherIdentifier: identifiers.filter((i) => personNumberKindOf(i.system) === undefined).map((i) => definedOnly({
        patientOtherIdentifierType: textOf(i.type) ?? i.system, patientOtherIdentifierValue: i.value,
      })),
    },
  };
}

function patientData(facts: PatientFacts, relatives: RelatedPerson[], ctx: MapContext): PatientV2Data {
  const patient = facts.resource;
  return definedOnly({
    patientVersionDateTime: ts(patient.meta?.lastUpdated, ctx),
    patientID: facts.personId,
    patientInternalID: patient.id,
    patientProtectedId: facts.protectedId,
    patientSecrecyGroups: [],
    patientName: facts.name === undefined ? undefined : definedOnly({
      familyName: facts.name.family,
      middleName: facts.name.middle,
      givenName: facts.name.given,
    }),
    patientBirthDate: tsDate(patient.birthDate, ctx),
    patientDeceasedDate: tsDate(patient.deceasedDateTime, ctx),
    patientSex: sexOf(patient),
    patientAddresses: currentAddresses(patient.address, ctx).map((a) => {
      const { county, ...members } = patientAddressMembers(a);
      return definedOnly({ ...members, PatientAddressCounty: county });
    }),
    phoneNumbers: { phone: phones(patient.telecom).map((p) => definedOnly({ phoneType: p.use, phoneNumber: p.value })) },
    emailAddresses: { Email: emailItems(emails(patient.telecom)) },
    patientRelatives: { patientRelative: relatives.map((r) => relative(r, ctx)) },
    ...numbers(patient.identifier ?? [], ctx),
    patientPasses: { patientPass: [] },
  });
}

export function mapPatientV2(input: ReadInput, ctx: MapContext): PatientV2[] {
  const patient = input.patient.resource;
  // A Patient the service's own FHIR API wrote from the older layout alone: its EHR answers this read empty.
  if (holdsOlderLayoutOnly(patient)) return [];
  const relatives = answerable(input, 'RelatedPerson').filter((r) => r.active !== false);
  const unit = unitOf(patient.managingOrganization, input.index);
  return [{
    patientEHRExtract: [definedOnly({
      ehrId: own(patient, ctx.idRoot),
      timeCreated: ts(patient.meta?.lastUpdated, ctx),
      patient: patientData(input.patient, relatives, ctx),
      responsibleUnit: unitIdOf(unit?.hsaId),
      accessZoneUnit: unitIdOf(unit?.hsaId),
      headCareProviderUnit: unitIdOf(unit?.headHsaId),
    })],
  }];
}

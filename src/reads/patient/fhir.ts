/**
 * Operation 4, the patient in the older layout (docs/upstream-fhir.md#34-patient-information-older-layout-operation-4):
 * the Patient of the lookup and its managing organisation, as one PatientRecord with one extract.
 */
import type { PatientData, PatientRecord } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { currentAddresses, patientAddressMembers } from '../../adapters/ehr-fhir/address.js';
import { unitOf } from '../../adapters/ehr-fhir/care-parties.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { ts, tsDate } from '../../adapters/ehr-fhir/fhir-time.js';
import { patientNamePascal } from '../../adapters/ehr-fhir/human-name.js';
import { own, unitIdPascalOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { sexOf, type PatientFacts } from '../../adapters/ehr-fhir/patient-facts.js';
import type { ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import { emailItems, emails, phoneItems, phones } from '../../adapters/ehr-fhir/telecom.js';

/** The layout this adapter fills: the newest the legacy examples show. */
const XSD_VERSION = 3.2;

function patientData(facts: PatientFacts, ctx: MapContext): PatientData {
  const patient = facts.resource;
  if (facts.personId === undefined) throw fhirFault('the Patient does not carry the number asked for');
  return definedOnly({
    PatientID: facts.personId,
    PatientInternalID: patient.id,
    PatientSex: sexOf(patient),
    PatientProtectedId: facts.protectedId,
    PatientBirthDate: tsDate(patient.birthDate, ctx),
    PatientVersionDateTime: ts(patient.meta?.lastUpdated, ctx),
    PatientName: patientNamePascal(facts.name),
    PhoneNumbers: { Phone: phoneItems(phones(patient.telecom)) },
    EmailAddresses: { Email: emailItems(emails(patient.telecom)) },
    PatientAddresses: {
      PatientAddress: currentAddresses(patient.address, ctx).map((a) => {
        const { county, ...members } = patientAddressMembers(a);
        return definedOnly(members);
      }),
    },
  });
}

export function mapPatientRecord(input: ReadInput, ctx: MapContext): PatientRecord[] {
  const patient = input.patient.resource;
  const created = ts(patient.meta?.lastUpdated, ctx);
  if (created === undefined) throw fhirFault('a Patient without meta.lastUpdated');
  const unit = unitOf(patient.managingOrganization, input.index);
  return [{
    XSDVersion: { version: XSD_VERSION },
    PatientEHRExtract: [definedOnly({
      ehr_id: own(patient, ctx.idRoot),
      time_created: created,
      Patient: patientData(input.patient, ctx),
      AccessZoneUnit: unitIdPascalOf(unit?.hsaId),
      HeadCareproviderUnit: unitIdPascalOf(unit?.headHsaId),
    })],
  }];
}

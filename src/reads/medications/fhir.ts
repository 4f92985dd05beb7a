/**
 * Operation 9, medications (docs/upstream-fhir.md#39-medications-operation-9): one PrescriptionRecord
 * holding one extract per MedicationRequest. The product is the included or contained Medication of
 * `medicationReference`, or `medicationCodeableConcept`.
 */
import type { PrescriptionExtract, PrescriptionRecord } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { staffOf, unitAddressItems, unitFacts, type UnitFacts } from '../../adapters/ehr-fhir/care-parties.js';
import { textBeside, textOf } from '../../adapters/ehr-fhir/codes.js';
import { ix3Dosage } from '../../adapters/ehr-fhir/dosage.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { hsaIi, ii, isAtc, isNpl, NPL_OID, own, rootOf, unitIdPascalOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, oneRecordOf, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import { containedOf } from '../../adapters/ehr-fhir/resource-index.js';
import type { CodeableConcept } from '../../domain/fhir/resources/datatypes.js';
import type { Medication, MedicationRequest } from './resource-types.js';
import { strengthOf } from './fhir-strength.js';
import { emailItems, phoneItems } from '../../adapters/ehr-fhir/telecom.js';

/** The layout filled: the prescription layout 2.7. */
const XSD_VERSION = 2.7;

type Prescription = NonNullable<PrescriptionExtract['Prescription']>;
type UnitData = PrescriptionExtract['Units']['UnitData'][number];

function product(request: MedicationRequest, input: ReadInput): { code?: CodeableConcept; medication?: Medication } {
  const medication = containedOf(request, request.medicationReference, 'Medication')
    ?? input.index.get(request.medicationReference, 'Medication');
  return medication === undefined ? { code: request.medicationCodeableConcept } : { code: medication.code, medication };
}

function mainProduct(request: MedicationRequest, input: ReadInput): Prescription['MainProductTreatment'] {
  const { code, medication } = product(request, input);
  const npl = code?.coding?.find(isNpl);
  const atc = code?.coding?.find(isAtc);
  const strength = strengthOf(medication);
  return definedOnly({
    PrescriptionProductTradeName: textBeside(code, npl),
    PrescriptionProductNplID: npl?.code === undefined ? undefined : { root: NPL_OID, extension: npl.code },
    PrescriptionProduct_AtcCode: atc?.code === undefined ? undefined : {
      codeSystem: rootOf(atc.system as string), displayName: { value: atc.display === undefined ? atc.code : `${atc.code} ${atc.display}` },
    },
    PrescriptionProductStrengthNumeric: strength.numeric,
    PrescriptionProductStrengthNumericUnit: strength.unit,
    PrescriptionProductDrugFormTextSv: textOf(medication?.form),
  });
}

function routeOf(route: CodeableConcept): Prescription['RouteDetail'] {
  const coding = route.coding?.[0];
  return definedOnly({ routeCode: coding?.code, name: textBeside(route, coding) });
}

function prescription(request: MedicationRequest, input: ReadInput, ctx: MapContext): Prescription {
  const first = request.dosageInstruction?.[0];
  const asNeeded = first?.asNeededBoolean;
  const choice = request.substitution?.allowedCodeableConcept?.coding?.[0];
  return definedOnly({
    MedicationTreatmentId: ii(request.identifier?.[0]),
    MedicationTreatmentStatusDetail: { TreatmentStatus: request.status },
    MedicationActive: request.status === 'active',
    MainProductTreatment: mainProduct(request, input),
    PrescriptionDetails: [],
    PrescriptionStartDateTime: ts(first?.timing?.repeat?.boundsPeriod?.start, ctx) ?? ts(request.dispenseRequest?.validityPeriod?.start, ctx),
    PrescriptionVersionDateTime: ts(request.meta?.lastUpdated, ctx),
    MedicationChoice: choice === undefined ? undefined : definedOnly({
      codeSystem: choice.system === undefined ? undefined : rootOf(choice.system),
      displayName: choice.display === undefined ? undefined : { value: choice.display },
    }),
    PrescriptionType: textOf(request.category?.[0]),
    MedicationType: textOf(request.courseOfTherapyType),
    PrescriptionReasonText: textOf(request.reasonCode?.[0]),
    AccordingToSchedule: asNeeded === undefined ? undefined : !asNeeded,
    PrescriptionDosages: request.dosageInstruction === undefined ? undefined : definedOnly({
      WhenNeeded: asNeeded,
      DosagePlugin: request.dosageInstruction.map((d) => ({ IX3Dosage: ix3Dosage(d, ctx) })),
    }),
    RouteDetail: first?.route === undefined ? undefined : routeOf(first.route),
  });
}

function unitData(unit: UnitFacts): UnitData {
  return definedOnly({
    UnitID: hsaIi(unit.hsaId),
    UnitInternalID: unit.org.id,
    UnitName: unit.org.name,
    UnitHeadCareProviderUnitID: unit.headHsaId,
    PhoneNumbers: { PhoneData: phoneItems(unit.phones) },
    EmailAddresses: { EmailData: emailItems(unit.emails) },
    UnitAddresses: { UnitAddressData: unitAddressItems(unit) },
    AccessZones: { AccessZoneID: [] },
    UnitSecrecyGroups: { Group: [] },
  });
}

function extract(request: MedicationRequest, input: ReadInput, ctx: MapContext): PrescriptionExtract {
  const created = ts(request.authoredOn, ctx) ?? ts(request.meta?.lastUpdated, ctx);
  if (created === undefined) throw fhirFault('a MedicationRequest without authoredOn or meta.lastUpdated');
  const encounter = input.index.get(request.encounter, 'Encounter');
  const requester = staffOf(request.requester, input.index);
  const unit = requester?.unit === undefined ? undefined : unitFacts(requester.unit, input.index);
  const name = input.patient.name;
  return definedOnly({
    ehr_id: own(request, ctx.idRoot),
    time_created: created,
    Prescription: prescription(request, input, ctx),
    HCMContact: encounter === undefined ? undefined : definedOnly({
      ContactType: textOf(encounter.type?.[0]), ContactStatus: encounter.status, ContactBegin: ts(encounter.period?.start, ctx), ContactEnd: ts(encounter.period?.end, ctx),
    }),
    ResponsibleUnit: unitIdPascalOf(unit?.hsaId),
    Patient: definedOnly({
      PatientId: input.patient.personId,
      PatientProtectedId: input.patient.protectedId,
      PatientNameData: name === undefined ? undefined : definedOnly({
        PatientFamilyName: name.family,
        PatientMiddleName: name.middle,
        PatientGivenName: name.given.map((g) => g.value),
        PatientNames: name.whole === undefined ? undefined : { Name: [name.whole] },
      }),
    }),
    CareProviders: {
      CareProviders: requester === undefined ? [] : [{
        CareProvider: [definedOnly({
          CareProviderType: 'requester',
          CareProviderName: requester.name,
          CareProviderID: hsaIi(requester.hsaId),
          CareProviderPosition: requester.position === undefined ? undefined : { CareProviderPositionName: requester.position },
          CareProviderUnit: unitIdPascalOf(unit?.hsaId),
        })],
      }],
    },
    Units: { UnitData: unit === undefined ? [] : [unitData(unit)] },
  });
}

export function mapMedications(input: ReadInput, ctx: MapContext): PrescriptionRecord[] {
  return oneRecordOf(answerable(input, 'MedicationRequest').map((r) => extract(r, input, ctx)),
    (extracts) => ({ XSDVersion: { version: XSD_VERSION }, PrescriptionEHRExtract: extracts }), input.withheld === true);
}

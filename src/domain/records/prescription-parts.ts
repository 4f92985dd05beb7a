/** Products, dosages and units of the (interim) prescription message. */
import { Type } from 'typebox';
import { CodeSchema, IdentifierSchema, OptStr, TimeValueSchema } from './common.js';

const OptBool = Type.Optional(Type.Boolean());
const OptInt = Type.Optional(Type.Integer());
const OptId = Type.Optional(IdentifierSchema);
const OptTime = Type.Optional(TimeValueSchema);

/** Strength stays text: "2,5" uses a decimal comma. */
export const ProductSchema = Type.Object({
  PrescriptionProductStrengthNumeric: OptStr,
  PrescriptionProductStrengthNumericUnit: OptStr,
  PrescriptionProduct_AtcCode: Type.Optional(CodeSchema),
  PrescriptionProductTradeName: OptStr,
  PrescriptionProductNplID: OptId,
  PrescriptionProductDrugFormTextSv: OptStr,
});

export const DoseInstanceSchema = Type.Object({
  MaxQty: OptStr,
  MinQty: OptStr,
  Type: OptStr,
  DaysFromDosageStart: OptInt,
  DoseOrder: OptInt,
  OneOff: OptBool,
  Conditional: OptBool,
  DoseTime: OptTime,
  OneOffTime: OptTime,
});

export const Ix3DosageSchema = Type.Object({
  WholeWhenNeeded: OptBool,
  Continuous: OptBool,
  Conditional: OptBool,
  ExtraDose: OptBool,
  NoOfAdminTimes: OptInt,
  DosageOrder: OptInt,
  RepetitionLength: OptInt,
  Rate: OptStr,
  ConditionalText: OptStr,
  DosageText: OptStr,
  DosageShortText: OptStr,
  DosageType: OptStr,
  DoseDistributionType: OptStr,
  DoseEnd: Type.Optional(Type.Object({
    DoseEndType: OptStr,
    EndDuration: Type.Optional(Type.Object({ length: OptStr, TimeType: OptStr })),
    EndDate: OptTime,
  })),
  DoseStart: Type.Optional(Type.Object({ DoseStartType: OptStr, StartDate: OptTime })),
  DoseInstance: Type.Array(DoseInstanceSchema),
});

export const PrescriptionSchema = Type.Object({
  MedicationTreatmentId: OptId,
  rc_id: OptId,
  ReplacedByLatest: OptBool,
  AccordingToSchedule: OptBool,
  MedicationActive: OptBool,
  MedicationTreatmentStatusDetail: Type.Optional(Type.Object({ EffectiveDateTime: OptTime, TreatmentStatus: OptStr })),
  MainProductTreatment: Type.Optional(ProductSchema),
  PrescriptionDetails: Type.Array(Type.Object({ Type: OptStr, ProductInformation: Type.Optional(ProductSchema) })),
  PrescriptionStartDateTime: OptTime,
  PrescriptionVersionDateTime: OptTime,
  MedicationChoice: Type.Optional(CodeSchema),
  PrescriptionType: OptStr,
  MedicationType: OptStr,
  PrescriptionReasonText: OptStr,
  TreatmentGoal: OptStr,
  PrescriptionDosages: Type.Optional(Type.Object({
    WhenNeeded: OptBool,
    DosagePlugin: Type.Array(Type.Object({ IX3Dosage: Type.Optional(Ix3DosageSchema) })),
  })),
  RouteDetail: Type.Optional(Type.Object({ routeCode: OptStr, name: OptStr, abbreviation: OptStr, routeLicensed: OptBool })),
});

export const UnitRefSchema = Type.Object({ UnitID: OptId, UnitInternalID: OptStr, UnitLocalID: OptId });

/** The six address fields of a unit; the journal note's UnitAddress adds UnitAddressType to them. */
export const UNIT_ADDRESS_FIELDS = {
  UnitAddressCountry: OptStr,
  UnitAddressPostcode: OptStr,
  UnitAddressAddress: OptStr,
  UnitAddressCity: OptStr,
  UnitAddressCounty: OptStr,
  UnitAddressComment: OptStr,
};

const UnitDataAddressSchema = Type.Object(UNIT_ADDRESS_FIELDS);

export const UnitDataSchema = Type.Object({
  UnitID: OptId,
  UnitLocalID: OptId,
  UnitInternalID: OptStr,
  UnitName: OptStr,
  UnitHeadCareProviderUnitID: OptStr,
  PhoneNumbers: Type.Object({ PhoneData: Type.Array(Type.Object({ PhoneType: OptStr, PhoneNumber: OptStr, PhoneComment: OptStr })) }),
  EmailAddresses: Type.Object({ EmailData: Type.Array(Type.Object({ EmailType: OptStr, EmailAddress: OptStr, EmailComment: OptStr })) }),
  UnitAddresses: Type.Object({ UnitAddressData: Type.Array(UnitDataAddressSchema) }),
  /** Text upstream, mapped to an Identifier as in journal notes (docs/upstream-ehr.md#3-documents). */
  AccessZones: Type.Object({ AccessZoneID: Type.Array(IdentifierSchema) }),
  UnitSecrecyGroups: Type.Object({ Group: Type.Array(Type.String()) }),
});

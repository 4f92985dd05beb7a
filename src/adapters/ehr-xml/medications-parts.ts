/** Shapes inside a PrescriptionEHRExtract: products, dosages, units (docs/upstream-ehr.md#3-documents PrescriptionRecords). */
import { ACCESS_ZONE_ID, CODE, ID, INTEGER, BOOL, STR, TV } from './leaves.js';
import { many, obj, wrap } from './shape.js';

/** Strengths stay text: "500", "2,5". */
const PRODUCT = obj({
  PrescriptionProductStrengthNumeric: STR,
  PrescriptionProductStrengthNumericUnit: STR,
  PrescriptionProduct_AtcCode: CODE,
  PrescriptionProductTradeName: STR,
  PrescriptionProductNplID: ID,
  PrescriptionProductDrugFormTextSv: STR,
});

const IX3_DOSAGE = obj({
  WholeWhenNeeded: BOOL,
  Continuous: BOOL,
  Conditional: BOOL,
  ExtraDose: BOOL,
  NoOfAdminTimes: INTEGER,
  DosageOrder: INTEGER,
  RepetitionLength: INTEGER,
  Rate: STR,
  ConditionalText: STR,
  DosageText: STR,
  DosageShortText: STR,
  DosageType: STR,
  DoseDistributionType: STR,
  DoseEnd: obj({ DoseEndType: STR, EndDuration: obj({ length: STR, TimeType: STR }), EndDate: TV }),
  DoseStart: obj({ DoseStartType: STR, StartDate: TV }),
  DoseInstance: many(obj({
    MaxQty: STR,
    MinQty: STR,
    Type: STR,
    DaysFromDosageStart: INTEGER,
    DoseOrder: INTEGER,
    OneOff: BOOL,
    Conditional: BOOL,
    DoseTime: TV,
    OneOffTime: TV,
  })),
});

export const PRESCRIPTION = obj({
  MedicationTreatmentId: ID,
  rc_id: ID,
  ReplacedByLatest: BOOL,
  AccordingToSchedule: BOOL,
  MedicationActive: BOOL,
  MedicationTreatmentStatusDetail: obj({ EffectiveDateTime: TV, TreatmentStatus: STR }),
  MainProductTreatment: PRODUCT,
  PrescriptionDetails: many(obj({ Type: STR, ProductInformation: PRODUCT })),
  PrescriptionStartDateTime: TV,
  PrescriptionVersionDateTime: TV,
  MedicationChoice: CODE,
  PrescriptionType: STR,
  MedicationType: STR,
  PrescriptionReasonText: STR,
  TreatmentGoal: STR,
  PrescriptionDosages: obj({ WhenNeeded: BOOL, DosagePlugin: many(obj({ IX3Dosage: IX3_DOSAGE })) }),
  RouteDetail: obj({ routeCode: STR, name: STR, abbreviation: STR, routeLicensed: BOOL }),
});

/** The six address fields of a unit; the journal note's UnitAddress adds UnitAddressType. */
export const UNIT_ADDRESS = {
  UnitAddressCountry: STR,
  UnitAddressPostcode: STR,
  UnitAddressAddress: STR,
  UnitAddressCity: STR,
  UnitAddressCounty: STR,
  UnitAddressComment: STR,
};

export const UNIT_REF = obj({ UnitID: ID, UnitInternalID: STR, UnitLocalID: ID });

export const UNIT_DATA = obj({
  UnitID: ID,
  UnitLocalID: ID,
  UnitInternalID: STR,
  UnitName: STR,
  UnitHeadCareProviderUnitID: STR,
  PhoneNumbers: wrap('PhoneData', obj({ PhoneType: STR, PhoneNumber: STR, PhoneComment: STR })),
  EmailAddresses: wrap('EmailData', obj({ EmailType: STR, EmailAddress: STR, EmailComment: STR })),
  UnitAddresses: wrap('UnitAddressData', obj(UNIT_ADDRESS)),
  AccessZones: wrap('AccessZoneID', ACCESS_ZONE_ID),
  UnitSecrecyGroups: wrap('Group', STR),
});

/**
 * Attention signals (operation 7): the vendor's layout, docs/vendor-layouts.md#attention-signals-operation-7
 * (docs/contract.md#reads), names as the vendor spells them (PascalCase, `unitInternalID`, `RcId`, the
 * `Reasessment*` members). The answer is an array of one `{AttentionSignalEHRExtract: [...], XSDVersion}`;
 * members that are `any` in the tree are typed as the vendor's original document types them.
 */
import { Type, type Static } from 'typebox';
import { OptStr, XsdVersionSchema } from '../../domain/records/common.js';
import {
  CdSchema, IiWithTextSchema, OptBool, OptIiWithText as OptIi, OptSimpleUnitWithText as OptSimpleUnit, OptTs, VendorGivenNameSchema,
} from '../../domain/records/vendor-types.js';

const REASSESSMENT = { ReasessmentRequired: OptBool, ReasessmentComment: OptStr, ReasessmentDateTime: OptTs };

export const HypersensitivitySchema = Type.Object({
  Comment: OptStr,
  Heading: OptStr,
  Severity: OptStr,
  Reaction: OptStr,
  Certitude: OptStr,
  ...REASSESSMENT,
  ReactionTypes: Type.Array(Type.String()),
  SignalATCCodes: Type.Object({ signalATCCode: Type.Array(CdSchema) }),
  /** What the patient reacts to. */
  Agent: Type.Array(Type.String()),
});

export const SignalSchema = Type.Object({
  RcId: OptIi,
  SignalVersionDateTime: OptTs,
  /** Text in the vendor's layout, though it looks like a time. */
  SignalVerifiedDateTime: OptStr,
  SignalReassessmentEndDate: OptStr,
  SignalSignDateTime: OptTs,
  SignalActive: OptBool,
  SignalDeletionDate: OptTs,
  SignalDeletionComment: OptStr,
  SignalWarningSubType: OptStr,
  SignalDataType: OptStr,
  MedicalRecordLinks: Type.Object({ MedicalRecordLinkData: Type.Array(Type.Object({ RcId: OptIi })) }),
  HypersensitivityType: Type.Optional(HypersensitivitySchema),
  ContagiousDiseaseType: Type.Optional(Type.Object({ Heading: OptStr, Comment: OptStr, ...REASSESSMENT })),
  NonStandardProcedureType: Type.Optional(Type.Object({ Comment: OptStr, Heading: OptStr, ...REASSESSMENT })),
  TreatmentAndConditionType: Type.Optional(Type.Object({
    Comment: OptStr,
    Heading: OptStr,
    ...REASSESSMENT,
    TreatmentCode: OptStr,
    TreatmentDateTime: OptTs,
    TreatmentDescription: OptStr,
    DiagnosisCode: OptStr,
    DiagnosisDateTime: OptTs,
    DiagnosisDescription: OptStr,
  })),
  UnstructuredType: Type.Optional(Type.Object({
    Heading: OptStr,
    Comment: OptStr,
    /** WARNING or CAUTION, passed through as sent. */
    Type: OptStr,
    ...REASSESSMENT,
    Valid: OptBool,
  })),
});

const SignalUnitSchema = Type.Object({
  UnitID: OptIi,
  UnitLocalID: OptIi,
  unitInternalID: OptStr,
  UnitName: OptStr,
  UnitSecrecyGroups: Type.Object({ Group: Type.Array(Type.String()) }),
  HeadCareproviderUnitID: OptIi,
  AccessZones: Type.Object({ AccessZoneID: Type.Array(IiWithTextSchema) }),
  PhoneNumbers: Type.Object({ Phone: Type.Array(Type.Object({ PhoneType: OptStr, PhoneNumber: OptStr, PhoneComment: OptStr })) }),
  EmailAddresses: Type.Object({ Email: Type.Array(Type.Object({ EmailType: OptStr, EmailAddress: OptStr, EmailComment: OptStr })) }),
  UnitAddresses: Type.Object({
    UnitAddress: Type.Array(Type.Object({
      UnitAddressType: OptStr,
      UnitAddressAddress: OptStr,
      UnitAddressPostcode: OptStr,
      UnitAddressCity: OptStr,
      UnitAddressCounty: OptStr,
      UnitAddressCountry: OptStr,
      UnitAddressGeographicalPlace: OptStr,
      UnitAddressComment: OptStr,
    })),
  }),
});

export const AttentionSignalEhrExtractSchema = Type.Object({
  ehr_id: OptIi,
  ehr_system: OptIi,
  /** What the read filters and sorts on (docs/contract.md#reads). */
  time_created: OptTs,
  AttentionSignal: Type.Optional(SignalSchema),
  Patient: Type.Optional(Type.Object({
    PatientID: OptIi,
    PatientInternalID: OptStr,
    PatientProtectedId: OptBool,
    PatientSecrecyGroups: Type.Object({ Group: Type.Array(Type.String()) }),
    PatientName: Type.Optional(Type.Object({
      PatientFamilyName: OptStr,
      PatientMiddleName: OptStr,
      PatientGivenName: Type.Array(VendorGivenNameSchema),
    })),
  })),
  CareUnit: OptSimpleUnit,
  ResponsibleUnit: OptSimpleUnit,
  AccessZoneUnit: OptSimpleUnit,
  HeadCareproviderUnit: OptSimpleUnit,
  Units: Type.Object({ Unit: Type.Array(SignalUnitSchema) }),
  CareProviders: Type.Object({
    CareProvider: Type.Array(Type.Object({
      CareProviderType: OptStr,
      CareProviderID: OptIi,
      CareProviderInternalID: OptStr,
      CareProviderName: OptStr,
      ProviderPosition: Type.Optional(Type.Object({ careProviderPositionID: OptIi, careProviderPositionName: OptStr })),
      CareProviderUnit: OptSimpleUnit,
    })),
  }),
});

/** One element of the attention-signals answer: every signal of the patient (filtered, oldest first). */
export const AttentionSignalSchema = Type.Object({
  AttentionSignalEHRExtract: Type.Array(AttentionSignalEhrExtractSchema),
  XSDVersion: Type.Optional(XsdVersionSchema),
}, { title: 'AttentionSignalEHRExtracts' });

export type AttentionSignalEhrExtract = Static<typeof AttentionSignalEhrExtractSchema>;
export type AttentionSignal = Static<typeof AttentionSignalSchema>;

/**
 * Patient v2 (operation 5, api-version v2): the vendor's layout, docs/vendor-layouts.md#patient-information-v2-operation-5
 * (docs/contract.md#reads), read from the EHR's `patient-v2` document. The answer is an array of one
 * `{patientEHRExtract: [...]}` holding every extract the EHR sent, in its order (`[]` when none);
 * members that are `any` in the tree are typed as the vendor's original document types them.
 */
import { Type, type Static } from 'typebox';
import { OptStr } from '../../domain/records/common.js';
import { IiSchema, OptBool, OptIi, OptSimpleUnit, OptTs, VendorGivenNameSchema } from '../../domain/records/vendor-types.js';

export const PatientV2AddressSchema = Type.Object({
  PatientAddressType: OptStr,
  PatientAddressCO: OptStr,
  PatientAddressStreet: OptStr,
  PatientAddressPostcode: OptStr,
  PatientAddressCity: OptStr,
  PatientAddressCounty: OptStr,
  PatientAddressCountry: OptStr,
  PatientAddressCountryCode: OptStr,
  PatientAddressComment: OptStr,
});

export const PatientRelativeSchema = Type.Object({
  patientRelativeType: OptStr,
  patientRelativeName: OptStr,
  patientRelativeGivenName: OptStr,
  patientRelativeFamilyName: OptStr,
  patientRelativeOrder: OptStr,
  patientRelativeHomePhonenumber: OptStr,
  patientRelativeWorkPhonenumber: OptStr,
  patientRelativeAddress: OptStr,
  patientRelativeCOAddress: OptStr,
  patientRelativeStreetAddress: OptStr,
  patientRelativePostalCode: OptStr,
  patientRelativeCity: OptStr,
  patientRelativeComment: OptStr,
});

export const PatientV2DataSchema = Type.Object({
  rcId: OptIi,
  patientVersionDateTime: OptTs,
  patientID: OptIi,
  patientInternalID: OptStr,
  patientProtectedId: OptBool,
  /** Repeated with no wrapper of its own. */
  patientSecrecyGroups: Type.Array(Type.String()),
  patientName: Type.Optional(Type.Object({
    familyName: OptStr,
    middleName: OptStr,
    givenName: Type.Array(VendorGivenNameSchema),
  })),
  /** A date: 8 digits. */
  patientBirthDate: OptTs,
  patientDeceasedDate: OptTs,
  /** M, F or U, passed through as sent. */
  patientSex: OptStr,
  /** Repeated with no wrapper of its own. */
  patientAddresses: Type.Array(PatientV2AddressSchema),
  phoneNumbers: Type.Object({ phone: Type.Array(Type.Object({ phoneType: OptStr, phoneNumber: OptStr, phoneComment: OptStr })) }),
  emailAddresses: Type.Object({ Email: Type.Array(Type.Object({ EmailType: OptStr, EmailAddress: OptStr, EmailComment: OptStr })) }),
  patientComment: OptStr,
  patientRelatives: Type.Object({ patientRelative: Type.Array(PatientRelativeSchema) }),
  /** Population-register codes (county, municipality, parish), text however numeric: "01", "0180". */
  patientDataRegister: Type.Optional(Type.Object({
    patientCountry: OptStr,
    patientCounty: OptStr,
    patientCity: OptStr,
    patientDistrict: OptStr,
  })),
  patientConnectedInactiveNumbers: Type.Object({ patientConnectedInactiveNumber: Type.Array(IiSchema) }),
  patientConnectedActiveNumbers: Type.Object({ patientConnectedActiveNumber: Type.Array(IiSchema) }),
  patientPasses: Type.Object({
    patientPass: Type.Array(Type.Object({
      patientPassTypeDiscountCard: OptStr,
      patientPassMembership: OptStr,
      patientPassNumber: OptStr,
      patientPassValidFrom: OptTs,
      patientPassValidTo: OptTs,
    })),
  }),
  patientOtherIdentifiers: Type.Object({
    patientOtherIdentifier: Type.Array(Type.Object({
      patientOtherIdentifierType: OptStr,
      patientOtherIdentifierValue: OptStr,
      patientOtherIdentifierComment: OptStr,
    })),
  }),
});

export const PatientV2ExtractSchema = Type.Object({
  ehrId: OptIi,
  ehrSystem: OptIi,
  timeCreated: OptTs,
  patient: Type.Optional(PatientV2DataSchema),
  responsibleUnit: OptSimpleUnit,
  accessZoneUnit: OptSimpleUnit,
  headCareProviderUnit: OptSimpleUnit,
});

/** One element of the patient v2 answer. */
export const PatientV2Schema = Type.Object({
  patientEHRExtract: Type.Array(PatientV2ExtractSchema),
}, { title: 'PatientEHRExtracts' });

export type PatientV2Address = Static<typeof PatientV2AddressSchema>;
export type PatientRelative = Static<typeof PatientRelativeSchema>;
export type PatientV2Data = Static<typeof PatientV2DataSchema>;
export type PatientV2Extract = Static<typeof PatientV2ExtractSchema>;
export type PatientV2 = Static<typeof PatientV2Schema>;

/** PatientRecord, the older patient read: the EHR's PatientRecords document, names kept as they are. */
import { Type, type Static } from 'typebox';
import { IdentifierSchema, OptStr, TimeValueSchema, XsdVersionSchema } from '../../domain/records/common.js';

const UnitIdSchema = Type.Object({ UnitID: Type.Optional(IdentifierSchema) });

export const PatientPhoneSchema = Type.Object({ PhoneComment: OptStr, PhoneType: OptStr, PhoneNumber: OptStr });
export const PatientEmailSchema = Type.Object({ EmailType: OptStr, EmailComment: OptStr, EmailAddress: OptStr });
export const PatientAddressSchema = Type.Object({
  PatientAddressType: OptStr,
  PatientAddressCO: OptStr,
  PatientAddressCountryCode: OptStr,
  PatientAddressCountry: OptStr,
  PatientAddressPostcode: OptStr,
  PatientAddressCity: OptStr,
  PatientAddressStreet: OptStr,
  PatientAddressComment: OptStr,
});

/** `qualifier` CL marks the name in use (tilltalsnamn). */
export const GivenNameSchema = Type.Object({ qualifier: OptStr, value: OptStr });

export const PatientDataSchema = Type.Object({
  PatientID: IdentifierSchema,
  rc_id: Type.Optional(IdentifierSchema),
  PatientInternalID: OptStr,
  PatientComment: OptStr,
  PatientSex: OptStr,
  PatientProtectedId: Type.Optional(Type.Boolean()),
  PatientBirthDate: Type.Optional(TimeValueSchema),
  PatientVersionDateTime: Type.Optional(TimeValueSchema),
  PatientName: Type.Optional(Type.Object({
    PatientFamilyName: OptStr,
    PatientMiddleName: OptStr,
    PatientGivenName: Type.Array(GivenNameSchema),
  })),
  PatientDataRegister: Type.Optional(Type.Object({
    PatientCounty: OptStr, PatientCity: OptStr, PatientDistrict: OptStr, PatientCountry: OptStr,
  })),
  PhoneNumbers: Type.Object({ Phone: Type.Array(PatientPhoneSchema) }),
  EmailAddresses: Type.Object({ Email: Type.Array(PatientEmailSchema) }),
  PatientAddresses: Type.Object({ PatientAddress: Type.Array(PatientAddressSchema) }),
});

export const PatientExtractSchema = Type.Object({
  ehr_id: IdentifierSchema,
  ehr_system: Type.Optional(IdentifierSchema),
  time_created: TimeValueSchema,
  Patient: Type.Optional(PatientDataSchema),
  AccessZoneUnit: Type.Optional(UnitIdSchema),
  HeadCareproviderUnit: Type.Optional(UnitIdSchema),
});

export const PatientRecordSchema = Type.Object({
  XSDVersion: XsdVersionSchema,
  PatientEHRExtract: Type.Array(PatientExtractSchema),
});

export type PatientData = Static<typeof PatientDataSchema>;
export type PatientExtract = Static<typeof PatientExtractSchema>;
export type PatientRecord = Static<typeof PatientRecordSchema>;

/** Patient v2 (camelCase; CONTRACT §4), derived from the PatientRecords document. */
import { Type, type Static } from 'typebox';
import { OptStr } from './common.js';

export const PatientV2AddressSchema = Type.Object({
  type: OptStr,
  careOf: OptStr,
  street: OptStr,
  postalCode: OptStr,
  city: OptStr,
  country: OptStr,
  countryCode: OptStr,
  comment: OptStr,
});

export const PatientV2PhoneSchema = Type.Object({ type: OptStr, number: OptStr, comment: OptStr });
export const PatientV2EmailSchema = Type.Object({ type: OptStr, address: OptStr, comment: OptStr });

export const PatientV2Schema = Type.Object({
  personalIdentityNumber: Type.String(),
  name: Type.Object({
    givenNames: Type.Array(Type.String()),
    middleName: OptStr,
    familyName: OptStr,
  }),
  /** `YYYY-MM-DD`, a calendar date. */
  birthDate: OptStr,
  sex: OptStr,
  protectedIdentity: Type.Optional(Type.Boolean()),
  addresses: Type.Array(PatientV2AddressSchema),
  phoneNumbers: Type.Array(PatientV2PhoneSchema),
  emailAddresses: Type.Array(PatientV2EmailSchema),
  updatedDateTimeInUnix: Type.Optional(Type.Integer()),
});

export type PatientV2Address = Static<typeof PatientV2AddressSchema>;
export type PatientV2Phone = Static<typeof PatientV2PhoneSchema>;
export type PatientV2Email = Static<typeof PatientV2EmailSchema>;
export type PatientV2 = Static<typeof PatientV2Schema>;

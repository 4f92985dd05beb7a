/** PrescriptionRecord, the medication read: the EHR's PrescriptionRecords document, names kept. */
import { Type, type Static } from 'typebox';
import { IdentifierSchema, OptStr, TimeValueSchema, XsdVersionSchema } from '../../domain/records/common.js';
import { PrescriptionSchema, UnitDataSchema, UnitRefSchema } from '../../domain/records/prescription-parts.js';

const OptId = Type.Optional(IdentifierSchema);
const OptTime = Type.Optional(TimeValueSchema);

export const PrescriptionCareProviderSchema = Type.Object({
  CareProviderUnit: Type.Optional(UnitRefSchema),
  CareProviderType: OptStr,
  CareProviderName: OptStr,
  CareProviderID: OptId,
  CareProviderPosition: Type.Optional(Type.Object({ CareProviderPositionID: OptId, CareProviderPositionName: OptStr })),
});

export const PrescriptionExtractSchema = Type.Object({
  ehr_id: IdentifierSchema,
  ehr_system: OptId,
  time_created: TimeValueSchema,
  Prescription: Type.Optional(PrescriptionSchema),
  HCMContact: Type.Optional(Type.Object({
    ContactType: OptStr, ContactStatus: OptStr, ContactBegin: OptTime, ContactEnd: OptTime, rc_id: OptId,
  })),
  CreationUnit: Type.Optional(UnitRefSchema),
  ResponsibleUnit: Type.Optional(UnitRefSchema),
  AccessZoneUnit: Type.Optional(UnitRefSchema),
  HeadCareproviderUnit: Type.Optional(UnitRefSchema),
  Patient: Type.Optional(Type.Object({
    PatientNameData: Type.Optional(Type.Object({
      PatientNames: Type.Optional(Type.Object({ Name: Type.Array(Type.String()) })),
      PatientFamilyName: OptStr,
      PatientMiddleName: OptStr,
      PatientGivenName: Type.Array(Type.String()),
    })),
    PatientId: OptId,
    PatientProtectedId: Type.Optional(Type.Boolean()),
  })),
  // The doubled name is the EHR's own: a wrapper around repeated groups of care providers.
  CareProviders: Type.Object({
    CareProviders: Type.Array(Type.Object({ CareProvider: Type.Array(PrescriptionCareProviderSchema) })),
  }),
  Units: Type.Object({ UnitData: Type.Array(UnitDataSchema) }),
});

export const PrescriptionRecordSchema = Type.Object({
  XSDVersion: XsdVersionSchema,
  PrescriptionEHRExtract: Type.Array(PrescriptionExtractSchema),
});

export type PrescriptionExtract = Static<typeof PrescriptionExtractSchema>;
export type PrescriptionRecord = Static<typeof PrescriptionRecordSchema>;

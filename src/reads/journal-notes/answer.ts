/** JournalNoteRecord, the journal-note read: the EHR's JournalNoteRecords document, names kept. */
import { Type, type Static } from 'typebox';
import { IdentifierSchema, OptStr, TimeValueSchema, XsdVersionSchema } from '../../domain/records/common.js';
import { ArchetypeRecordSchema } from '../../domain/records/archetype-record.js';
import { GivenNameSchema } from '../patient/answer.js';
import { UNIT_ADDRESS_FIELDS } from '../../domain/records/prescription-parts.js';

const OptId = Type.Optional(IdentifierSchema);
const OptTime = Type.Optional(TimeValueSchema);
const UnitPairSchema = Type.Object({ UnitID: OptId, UnitLocalID: OptId });

export const JOURNAL_RECORD_ID = 'pdas.JournalNote.Record';

/**
 * One keyword of a note and its values. A value's text is `$self` (minor version 3.1; absent in the
 * 3.0 form); a Record may nest one Record, to any depth (`Type.Cyclic`, as ArchetypeRecord).
 */
export const JournalRecordSchema = Type.Cyclic({
  [JOURNAL_RECORD_ID]: Type.Object({
    Keyword: OptStr,
    KeywordToolType: OptStr,
    Value: Type.Array(Type.Object({ $self: OptStr, JournalValueType: OptStr })),
    JournalValueType: OptStr,
    Unit: Type.Array(Type.String()),
    Range: Type.Array(Type.String()),
    KeywordSecrecyLevels: Type.Object({ SecrecyLevel: Type.Array(Type.String()) }),
    OtherValue: Type.Object({
      ArchetypeRecords: Type.Object({ ArchetypeRecord: Type.Array(ArchetypeRecordSchema) }),
    }),
    Record: Type.Optional(Type.Ref(JOURNAL_RECORD_ID)),
  }),
}, JOURNAL_RECORD_ID);

const NoteSchema = Type.Object({
  NoteId: OptId,
  NoteTemplateName: OptStr,
  NoteActive: Type.Optional(Type.Boolean()),
  NoteTypeOfNote: OptStr,
  NoteDateTime: OptTime,
  NoteVersionDateTime: OptTime,
  NoteSignDateTime: OptTime,
  NoteSecrecyLevels: Type.Object({ SecrecyLevel: Type.Array(Type.String()) }),
  Records: Type.Object({ Record: Type.Array(JournalRecordSchema) }),
  NoteInactiveReason: OptStr,
});

const JournalUnitSchema = Type.Object({
  UnitID: OptId,
  UnitLocalID: OptId,
  UnitName: OptStr,
  HeadCareproviderUnitID: OptId,
  PhoneNumbers: Type.Object({ Phone: Type.Array(Type.Object({ PhoneType: OptStr, PhoneNumber: OptStr, PhoneComment: OptStr })) }),
  EmailAddresses: Type.Object({ Email: Type.Array(Type.Object({ EmailType: OptStr, EmailAddress: OptStr })) }),
  UnitAddresses: Type.Object({
    UnitAddress: Type.Array(Type.Object({ UnitAddressType: OptStr, ...UNIT_ADDRESS_FIELDS })),
  }),
  UnitSecrecyGroups: Type.Object({ Group: Type.Array(Type.String()) }),
  /** Identifiers since minor 3.1; a 3.0 text value is mapped to one (docs/upstream-ehr.md#3-documents). */
  AccessZones: Type.Object({ AccessZoneID: Type.Array(IdentifierSchema) }),
});

export const JournalExtractSchema = Type.Object({
  ehr_id: IdentifierSchema,
  ehr_system: OptId,
  time_created: TimeValueSchema,
  HCMContact: Type.Optional(Type.Object({
    HCMContacInternaltID: OptStr,
    target_id: OptId,
    HCMContactBegin: OptTime,
    HCMContactType: OptStr,
    HCMContactStatus: OptStr,
    ContactPerformingUnit: OptStr,
  })),
  Note: Type.Optional(NoteSchema),
  Patient: Type.Optional(Type.Object({
    PatientID: OptId,
    PatientProtectedId: Type.Optional(Type.Boolean()),
    PatientInternalID: OptStr,
    PatientName: Type.Optional(Type.Object({
      PatientFamilyName: OptStr,
      PatientMiddleName: OptStr,
      PatientGivenName: Type.Array(GivenNameSchema),
    })),
  })),
  AccessZoneUnit: Type.Optional(UnitPairSchema),
  CareUnit: Type.Optional(UnitPairSchema),
  HeadCareproviderUnit: Type.Optional(UnitPairSchema),
  CareProviders: Type.Object({
    CareProvider: Type.Array(Type.Object({
      CareProviderUnit: Type.Optional(UnitPairSchema),
      CareProviderInternalID: OptStr,
      CareProviderType: OptStr,
      CareProviderID: OptId,
      CareProviderName: OptStr,
      ProviderPosition: Type.Optional(Type.Object({ CareProviderPositionID: OptId, CareProviderPositionName: OptStr })),
    })),
  }),
  Units: Type.Object({ Unit: Type.Array(JournalUnitSchema) }),
});

export const JournalNoteRecordSchema = Type.Object({
  XSDVersion: XsdVersionSchema,
  JournalNoteEHRExtract: Type.Array(JournalExtractSchema),
});

export type JournalRecord = Static<typeof JournalRecordSchema>;
export type JournalExtract = Static<typeof JournalExtractSchema>;
export type JournalNoteRecord = Static<typeof JournalNoteRecordSchema>;

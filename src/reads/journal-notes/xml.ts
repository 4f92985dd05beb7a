/** JournalNoteRecords (ns urn:example:ehr:journalnote:3) -> JournalNoteRecord[]. */
import type { JournalNoteRecord } from '../../domain/records/index.js';
import { GIVEN_NAME, XSD_VERSION } from '../../adapters/ehr-xml/common-shapes.js';
import { documentType, reading } from '../../adapters/ehr-xml/document.js';
import { UNIT_ADDRESS } from '../../adapters/ehr-xml/medications-parts.js';
import { ACCESS_ZONE_ID, BOOL, ID, STR, TV } from '../../adapters/ehr-xml/leaves.js';
import { field, lazy, many, obj, req, SELF, wrap, wrapper, type ObjectShape } from '../../adapters/ehr-xml/shape.js';

/** Leaf values or nested ArchetypeRecords (no wrapper), to any depth the parser admits. */
const ARCHETYPE_RECORD: ObjectShape = obj({
  ArchetypeId: STR,
  Name: STR,
  EventDateTime: obj({ startDateTime: TV, endDateTime: TV }),
  DataType: STR,
  // Text, not numbers: "37.8", "084", "<140".
  Magnitude: STR,
  Unit: STR,
  Range: STR,
  ArchetypeRecord: many(lazy(() => ARCHETYPE_RECORD)),
});

/**
 * A value's type is a child element (minor 3.0) or an attribute beside its text (3.1, the text in
 * `$self`); both forms occur, even in one document, so the shape takes either.
 */
const VALUE = obj({ [SELF]: STR, JournalValueType: field(STR, { attribute: true }) });

/** A Record may nest one Record (no wrapper, not repeated), to any depth the parser admits. */
const RECORD: ObjectShape = obj({
  Keyword: STR,
  KeywordToolType: STR,
  Value: many(VALUE),
  JournalValueType: STR,
  Unit: many(STR),
  Range: many(STR),
  KeywordSecrecyLevels: wrap('SecrecyLevel', STR),
  OtherValue: wrapper(obj({ ArchetypeRecords: wrap('ArchetypeRecord', ARCHETYPE_RECORD) })),
  Record: lazy(() => RECORD),
});

const NOTE = obj({
  NoteId: ID,
  NoteTemplateName: STR,
  NoteActive: BOOL,
  NoteTypeOfNote: STR,
  NoteDateTime: TV,
  NoteVersionDateTime: TV,
  NoteSignDateTime: TV,
  NoteSecrecyLevels: wrap('SecrecyLevel', STR),
  Records: wrap('Record', RECORD),
  NoteInactiveReason: STR,
});

const UNIT_PAIR = obj({ UnitID: ID, UnitLocalID: ID });

const UNIT = obj({
  UnitID: ID,
  UnitLocalID: ID,
  UnitName: STR,
  HeadCareproviderUnitID: ID,
  PhoneNumbers: wrap('Phone', obj({ PhoneType: STR, PhoneNumber: STR, PhoneComment: STR })),
  EmailAddresses: wrap('Email', obj({ EmailType: STR, EmailAddress: STR })),
  UnitAddresses: wrap('UnitAddress', obj({ UnitAddressType: STR, ...UNIT_ADDRESS })),
  UnitSecrecyGroups: wrap('Group', STR),
  AccessZones: wrap('AccessZoneID', ACCESS_ZONE_ID),
});

const EXTRACT = obj({
  ehr_id: req(ID),
  ehr_system: ID,
  time_created: req(TV),
  HCMContact: obj({
    HCMContacInternaltID: STR,
    target_id: ID,
    HCMContactBegin: TV,
    HCMContactType: STR,
    HCMContactStatus: STR,
    ContactPerformingUnit: STR,
  }),
  Note: NOTE,
  Patient: obj({
    PatientID: ID,
    PatientProtectedId: BOOL,
    PatientInternalID: STR,
    PatientName: obj({ PatientFamilyName: STR, PatientMiddleName: STR, PatientGivenName: many(GIVEN_NAME) }),
  }),
  AccessZoneUnit: UNIT_PAIR,
  CareUnit: UNIT_PAIR,
  HeadCareproviderUnit: UNIT_PAIR,
  CareProviders: wrap('CareProvider', obj({
    CareProviderUnit: UNIT_PAIR,
    CareProviderInternalID: STR,
    CareProviderType: STR,
    CareProviderID: ID,
    CareProviderName: STR,
    ProviderPosition: obj({ CareProviderPositionID: ID, CareProviderPositionName: STR }),
  })),
  Units: wrap('Unit', UNIT),
});

const DOCUMENT = documentType('JournalNoteRecords', obj({
  JournalNoteRecord: many(obj({ XSDVersion: req(XSD_VERSION), JournalNoteEHRExtract: many(EXTRACT) })),
}));

export const journalNotesReading = reading(DOCUMENT, (root) => root.JournalNoteRecord as JournalNoteRecord[]);

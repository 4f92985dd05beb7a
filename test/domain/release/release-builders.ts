/** Small records for the release-policy tests: journal notes, care contacts, signals and prescriptions with units. */
import type {
  AttentionSignal, AttentionSignalEhrExtract, CareContact, ContactEhrExtract, JournalExtract, JournalNoteRecord, JournalRecord,
  PrescriptionExtract, PrescriptionRecord,
} from '../../../src/domain/records/index.js';

export const ZONE = 'Europe/Stockholm';
export const HSA = '1.2.752.129.2.1.4.1';
export const ZONE_ROOT = '1.2.752.99999.1.7';
export const VC = { root: HSA, extension: 'SE2321000016-7P4K' };
export const BARNAHUS = { root: HSA, extension: 'SE2321000016-BH01' };
export const BARNAHUS_ZONE = { root: ZONE_ROOT, extension: '00000099' };
export const COMMON_ZONE = { root: ZONE_ROOT, extension: '00000017' };

export function keyword(name: string, text: string, more: Partial<JournalRecord> = {}): JournalRecord {
  return {
    Keyword: name, Value: [{ $self: text, JournalValueType: 'Text' }], Unit: [], Range: [],
    KeywordSecrecyLevels: { SecrecyLevel: [] }, OtherValue: { ArchetypeRecords: { ArchetypeRecord: [] } }, ...more,
  };
}

export const secret = (level: string): Pick<JournalRecord, 'KeywordSecrecyLevels'> => ({ KeywordSecrecyLevels: { SecrecyLevel: [level] } });

export interface NoteOptions {
  signed?: string;
  levels?: string[];
  records?: JournalRecord[];
  careUnit?: { root: string; extension: string };
  zones?: { root: string; extension: string }[];
}

/** A note written on `created` (compact local time), signed an hour later unless told otherwise. */
export function note(id: string, created: string, o: NoteOptions = {}): JournalExtract {
  const signed = 'signed' in o ? o.signed : `${created.slice(0, 8)}${String(Number(created.slice(8, 10)) + 1).padStart(2, '0')}${created.slice(10)}`;
  return {
    ehr_id: { root: '1.2.752.99999.1.1', extension: id },
    time_created: { value: created },
    Note: {
      NoteId: { root: '1.2.752.99999.1.6', extension: id },
      ...(signed === undefined ? {} : { NoteSignDateTime: { value: signed } }),
      NoteSecrecyLevels: { SecrecyLevel: o.levels ?? ['Normal'] },
      Records: { Record: o.records ?? [keyword('Anamnes', `text of ${id}`)] },
    },
    CareUnit: { UnitID: o.careUnit ?? VC },
    CareProviders: { CareProvider: [] },
    Units: {
      Unit: [{
        UnitID: o.careUnit ?? VC, PhoneNumbers: { Phone: [] }, EmailAddresses: { Email: [] },
        UnitAddresses: { UnitAddress: [] }, UnitSecrecyGroups: { Group: [] }, AccessZones: { AccessZoneID: o.zones ?? [COMMON_ZONE] },
      }],
    },
  };
}

export const journal = (...extracts: JournalExtract[]): JournalNoteRecord[] => [{ XSDVersion: { version: 3.1 }, JournalNoteEHRExtract: extracts }];

export function careContact(id: string, o: { levels?: string[]; actions?: [string, string[]][]; unit?: { root: string; extension: string } } = {}): ContactEhrExtract {
  return {
    contact: {
      contactInternalID: id, contactBeginDateTime: { value: '20261101100000' },
      contactSecrecyLevels: { secrecyLevel: o.levels ?? ['Normal'] },
      actions: { action: (o.actions ?? []).map(([actionID, levels]) => ({ actionID, actionSecrecyLevels: { secrecyLevel: levels } })) },
    },
    units: { unit: [] },
    contactPerformingUnit: { unitID: o.unit ?? VC },
    careProviders: { careProvider: [] },
  };
}

export const careContacts = (...extracts: ContactEhrExtract[]): CareContact[] => [{ contactEHRExtract: extracts }];

export function signal(id: string, unit = VC, zone = COMMON_ZONE): AttentionSignalEhrExtract {
  return {
    time_created: { value: '20261101100000' },
    AttentionSignal: { RcId: { root: '1.2.752.99999.1.2', extension: id }, MedicalRecordLinks: { MedicalRecordLinkData: [] } },
    Units: {
      Unit: [{
        UnitID: unit, UnitSecrecyGroups: { Group: [] }, AccessZones: { AccessZoneID: [zone] }, PhoneNumbers: { Phone: [] },
        EmailAddresses: { Email: [] }, UnitAddresses: { UnitAddress: [] },
      }],
    },
    CareProviders: { CareProvider: [] },
  };
}

export const signals = (...extracts: AttentionSignalEhrExtract[]): AttentionSignal[] => [{ AttentionSignalEHRExtract: extracts }];

export function prescription(id: string, unit = VC): PrescriptionExtract {
  return {
    ehr_id: { root: '1.2.752.99999.1.1', extension: id }, time_created: { value: '20261101100000' },
    ResponsibleUnit: { UnitID: unit }, CareProviders: { CareProviders: [] }, Units: { UnitData: [] },
  };
}

export const prescriptions = (...extracts: PrescriptionExtract[]): PrescriptionRecord[] => [{ XSDVersion: { version: 2.7 }, PrescriptionEHRExtract: extracts }];

import { contactsOf, type Contact } from '../../dev/demo-data/appointments.js';
import { plusMinutes, type DemoClock } from '../../dev/demo-data/clock.js';
import { typeOfVisit } from '../care-contacts/demo-xml.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { bool, EHR_ID_ROOT, extractPatient, id, optionalTv, tv } from '../../dev/demo-data/ix.js';
import { NOTES, type ArchetypeSpec, type NoteSpec, type RecordSpec, type ValueSpec } from './demo-data.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import {
  accessZoneOf, EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, LOCAL_UNIT_ROOT, POSITION_ROOT, STAFF, UNITS, type StaffKey, type UnitKey,
} from '../../dev/demo-data/units.js';
import { cdata, cdataIfMarkup, el, leaf, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/** JournalNoteRecords (docs/upstream-ehr.md#3-documents): notes written at the demo's contacts, in no time order. */

const unitRef = (name: string, key: UnitKey): XmlElement => el(name,
  id('UnitID', UNITS[key].hsaId, HSA_ROOT), id('UnitLocalID', UNITS[key].localId, LOCAL_UNIT_ROOT));

function archetype(spec: ArchetypeSpec, noteTime: string, zone: string): XmlElement {
  return el('ArchetypeRecord',
    el('ArchetypeId', spec.id),
    el('Name', spec.name),
    spec.at && el('EventDateTime',
      tv('startDateTime', plusMinutes(noteTime, spec.at[0], zone)),
      tv('endDateTime', plusMinutes(noteTime, spec.at[1], zone))),
    spec.value && [el('DataType', spec.value[0]), el('Magnitude', spec.value[1]), el('Unit', spec.value[2]),
      leaf('Range', spec.value[3])],
    (spec.children ?? []).map((child) => archetype(child, noteTime, zone)));
}

/** Minor version 3.1: the type as an attribute and the value's text as the element's own (line breaks kept). */
const value = (v: ValueSpec): XmlElement =>
  tag('Value', { JournalValueType: v.type }, v.text !== undefined && cdataIfMarkup(v.text));

function record(spec: RecordSpec, noteTime: string, zone: string): XmlElement {
  return el('Record',
    el('Keyword', spec.keyword),
    el('KeywordToolType', spec.tool),
    spec.values.map(value),
    leaf('Unit', spec.unit),
    leaf('Range', spec.range),
    spec.secrecy !== undefined && el('KeywordSecrecyLevels', el('SecrecyLevel', spec.secrecy)),
    spec.archetypes && el('OtherValue', el('ArchetypeRecords',
      spec.archetypes.map((a) => archetype(a, noteTime, zone)))),
    spec.nested && record(spec.nested, noteTime, zone));
}

function careProvider(key: StaffKey, index: number): XmlElement {
  const s = STAFF[key];
  return el('CareProvider',
    unitRef('CareProviderUnit', s.unit),
    el('CareProviderInternalID', s.internalId),
    el('ProviderPosition',
      id('CareProviderPositionID', s.positionId, POSITION_ROOT),
      el('CareProviderPositionName', s.positionName)),
    el('CareProviderType', index === 0 ? 'SIGNERARE' : 'DOKUMENTERARE'),
    id('CareProviderID', s.hsaId, HSA_ROOT),
    el('CareProviderName', cdataIfMarkup(s.name)));
}

function unitDetails(key: UnitKey): XmlElement {
  const u: (typeof UNITS)[UnitKey] = UNITS[key];
  return el('Unit',
    el('PhoneNumbers', el('Phone', el('PhoneType', 'VAXEL'), el('PhoneNumber', u.phone), el('PhoneComment', 'Dygnet runt'))),
    el('UnitAddresses', el('UnitAddress',
      el('UnitAddressType', 'BESOK'), el('UnitAddressCountry', 'Sverige'), el('UnitAddressPostcode', u.postcode),
      el('UnitAddressAddress', u.street), el('UnitAddressCity', u.city), el('UnitAddressCounty', u.county),
      el('UnitAddressComment', cdata('Hiss finns <till vänster> om entrén & parkering på gården')))),
    id('UnitID', u.hsaId, HSA_ROOT),
    el('UnitName', u.name),
    'email' in u && el('EmailAddresses', el('Email', el('EmailType', 'FUNKTION'), el('EmailAddress', u.email))),
    el('UnitSecrecyGroups', el('Group', u.secrecyGroup)),
    el('AccessZones', id('AccessZoneID', accessZoneOf(key, '00000017'), POSITION_ROOT)),
    id('HeadCareproviderUnitID', HEAD_UNIT.hsaId, HSA_ROOT),
    id('UnitLocalID', u.localId, LOCAL_UNIT_ROOT));
}

/** When a note was written, last changed and signed (unsigned: absent): both forms of the demo data read this. */
export function noteTiming(spec: NoteSpec, contact: Contact, clock: DemoClock) {
  const noteTime = spec.at === undefined ? contact.start : `${contact.start.slice(0, 8)}${spec.at}00`;
  return {
    noteTime,
    version: plusMinutes(noteTime, spec.versionAfter, clock.zone),
    signed: spec.signAfter === undefined ? undefined : plusMinutes(noteTime, spec.signAfter, clock.zone),
  };
}

/** The notes of a person with the contact each was written at. */
export function notesOf(person: DemoPerson, clock: DemoClock): { spec: NoteSpec; contact: Contact }[] {
  const contacts = new Map(contactsOf(person, clock).map((c) => [c.n, c]));
  return (NOTES[person.id] ?? []).map((spec) => {
    const contact = contacts.get(spec.contact);
    if (!contact) throw new Error(`note ${spec.noteId}: no contact ${spec.contact}`);
    return { spec, contact };
  });
}

function note(spec: NoteSpec, contact: Contact, person: DemoPerson, clock: DemoClock, index: number): XmlElement {
  const { noteTime, version, signed } = noteTiming(spec, contact, clock);
  return el('JournalNoteEHRExtract',
    id('ehr_id', ehrId(`${person.id}:note:${spec.noteId}`), EHR_ID_ROOT),
    id('ehr_system', EHR_SYSTEM_ID, HSA_ROOT),
    tv('time_created', signed ?? version),
    el('HCMContact',
      el('HCMContacInternaltID', contact.contactId),
      id('target_id', `0${contact.contactId}`, '1.2.752.99999.1.3'),
      tv('HCMContactBegin', contact.start),
      el('HCMContactType', typeOfVisit(contact.type)),
      el('HCMContactStatus', contact.status === 'FINISHED' ? 'Avslutad' : 'Pågående'),
      el('ContactPerformingUnit', UNITS[contact.unit].name)),
    el(index === 0 ? 'ix:Note' : 'Note',
      id('NoteId', spec.noteId, '1.2.752.99999.1.6'),
      el('NoteTemplateName', spec.template),
      el('NoteActive', bool(spec.active)),
      tv('NoteDateTime', noteTime),
      tv('NoteVersionDateTime', version),
      optionalTv('NoteSignDateTime', signed),
      el('NoteTypeOfNote', spec.typeOfNote),
      el('NoteSecrecyLevels', el('SecrecyLevel', spec.secrecy ?? 'Normal')),
      el('Records', spec.records.map((r) => record(r, noteTime, clock.zone))),
      leaf('NoteInactiveReason', spec.inactiveReason)),
    extractPatient('Patient', person),
    unitRef('AccessZoneUnit', contact.unit),
    unitRef('CareUnit', contact.unit),
    el('HeadCareproviderUnit', id('UnitID', HEAD_UNIT.hsaId, HSA_ROOT), id('UnitLocalID', HEAD_UNIT.localId, LOCAL_UNIT_ROOT)),
    el('CareProviders', spec.staff.map(careProvider)),
    el('Units', unitDetails(contact.unit)));
}

export function journalNotesDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const extracts = notesOf(person, clock).map(({ spec, contact }, i) => note(spec, contact, person, clock, i));
  const root = tag('JournalNoteRecords', { xmlns: ns, 'xmlns:ix': ns },
    extracts.length > 0 && el('JournalNoteRecord', tag('XSDVersion', { version: '3.1' }), extracts));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/journalnotes (synthetic demo data, generated for `
    + `${clock.today}). Minor version 3.1: each value's text beside its JournalValueType attribute. Traps `
    + 'where present: notes out of time order, multi-line text, a prefixed ix:Note, a Record nested in a '
    + 'Record, ArchetypeRecord nested four levels, Magnitude, Range and numeric values as text ("084", "<140"), '
    + 'HCMContacInternaltID spelled so, an unsigned inactive note in a daylight-saving hour, a unit named "23", '
    + 'CDATA, escaped ampersands.');
}

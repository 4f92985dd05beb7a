import { contactsOf, type Contact } from '../../dev/demo-data/appointments.js';
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { bool, EHR_ID_ROOT, extractPatient, id, optionalTv, RC_ROOT, simpleUnit, tv, XSI } from '../../dev/demo-data/ix.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { accessZoneOf, EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, LOCAL_UNIT_ROOT, POSITION_ROOT, STAFF, UNITS, type UnitKey } from '../../dev/demo-data/units.js';
import { cdataIfMarkup, el, leaf, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/**
 * ContactEHRExtracts (docs/upstream-ehr.md#3-documents, a mirror of the vendor's care contacts v2): the bookings as planned
 * or finished contacts, plus calls, letters and admissions, one extract per contact.
 */

const TYPE_OF_VISIT: Readonly<Record<string, string>> = {
  BESOK: 'Mottagningsbesök', VIDEO: 'Distanskontakt video', TELEFON: 'Telefonkontakt', INSKRIVNING: 'Slutenvårdstillfälle',
  DIGITALT: 'Distanskontakt chatt', BREV: 'Brevkontakt',
};
/** A contact's type as text, by its upstream code: every document and form that names it as text says this. */
export const typeOfVisit = (type: string): string => TYPE_OF_VISIT[type] ?? 'Övrig kontakt';
const ACTION_TYPE: Readonly<Record<string, string>> = {
  BESOK: 'Besök', VIDEO: 'Videobesök', TELEFON: 'Telefon', INSKRIVNING: 'Inskrivning', DIGITALT: 'Chatt', BREV: 'Brev',
};
/** Where an admitted patient lies. */
export const ADMISSION_ROOM = 'Sal 4';
/** Where an admitted patient went home to. */
export const DISCHARGE_DESTINATION = 'Ordinärt boende';
export const CARE_PROVIDER_TYPE = 'Ansvarig';

const STATUS: Readonly<Record<string, string>> = {
  PLANNED: 'Planerad', FINISHED: 'Avslutad', IN_PROGRESS: 'Pågående', CANCELLED: 'Avbokad',
};
const STATUS_ID = 'se.cambiosys.spider.HealthCareModel.';
const STATUS_CONFIGURATION: Readonly<Record<string, string>> = {
  PLANNED: 'Planned', FINISHED: 'Closed', IN_PROGRESS: 'Ongoing', CANCELLED: 'Cancelled',
};

/** A unit as the vendor's v2 layouts list one (`units.unit`: care contacts, lab results), its phone of `phoneType`. */
export function v2Unit(key: UnitKey, phoneType = 'VAXEL'): XmlElement {
  const u = UNITS[key];
  return el('unit',
    id('unitID', u.hsaId, HSA_ROOT),
    id('unitLocalID', u.localId, LOCAL_UNIT_ROOT),
    el('unitInternalID', u.internalId),
    el('unitName', u.name),
    el('unitSecrecyGroups', el('group', u.secrecyGroup)),
    el('accessZones', id('accessZoneID', accessZoneOf(key, '00000017'), POSITION_ROOT)),
    id('headCareProviderUnitID', HEAD_UNIT.hsaId, HSA_ROOT),
    el('phoneNumbers', el('phone', el('phoneType', phoneType), el('phoneNumber', u.phone))),
    'email' in u && el('emailAddresses', el('Email', el('EmailType', 'FUNKTION'), el('EmailAddress', u.email))),
    el('unitAddresses', el('unitAddress',
      el('unitAddressType', 'BESOK'), el('unitAddressAddress', u.street), el('unitAddressPostcode', u.postcode),
      el('unitAddressCity', u.city), el('unitAddressCounty', u.county), el('unitAddressCountry', 'Sverige'))));
}

function action(c: Contact): XmlElement {
  const begin = tv('actionBeginDateTime', c.start);
  const end = optionalTv('actionEndDateTime', c.end);
  const actionId = c.appointment?.actionId ?? `0${c.contactId}`;
  // One producer writes an action's members as attributes, the mirror rule allows both.
  if (c.type === 'TELEFON') {
    return tag('action', { actionID: actionId, actionType: ACTION_TYPE[c.type], actionMain: 'true', actionStatus: STATUS[c.status] },
      leaf('actionCareService', c.reason === '' ? undefined : c.reason), begin, end);
  }
  return el('action',
    el('actionID', actionId),
    el('actionType', ACTION_TYPE[c.type] ?? 'Övrigt'),
    el('actionMain', 'true'),
    c.reason === '' ? el('actionCareService') : leaf('actionCareService', c.reason && cdataIfMarkup(c.reason)),
    el('actionStatus', STATUS[c.status] ?? c.status),
    el('actionStatusConfigurationId', `${STATUS_ID}HCM_${STATUS_CONFIGURATION[c.status] ?? 'Closed'}`),
    begin, end);
}

function contact(c: Contact, person: DemoPerson, index: number): XmlElement {
  const u = UNITS[c.unit];
  const s = STAFF[c.staff];
  const created = c.end !== undefined && c.status === 'FINISHED' ? c.end : c.start;
  return el(index === 2 ? 'cc:contactEHRExtract' : 'contactEHRExtract',
    id('ehrId', `TOLV:EhrId:${person.id}`, EHR_ID_ROOT),
    id('ehrSystem', EHR_SYSTEM_ID, HSA_ROOT),
    tv('timeCreated', created),
    el('contact',
      id('rcId', `TOLV:RcId:Contact:${ehrId(`${person.id}:contact:${c.contactId}`).slice(0, 8)}`, RC_ROOT),
      el('contactInternalID', c.contactId),
      el('contactPerformingUnit', u.internalId),
      tv('contactVersionDateTime', created),
      el('contactTypeOfVisit', typeOfVisit(c.type)),
      el('contactVisitType', c.appointment ? 'Återbesök' : 'Nybesök'),
      el('contactStatus', STATUS[c.status] ?? c.status),
      el('contactStatusConfigurationId', `${STATUS_ID}HCM_${STATUS_CONFIGURATION[c.status] ?? 'Closed'}`),
      el('contactActive', bool(c.status !== 'CANCELLED')),
      tv('contactBeginDateTime', c.start),
      optionalTv('contactEndDateTime', c.end),
      el('contactShareInfo', bool(!person.protectedIdentity)),
      c.type === 'INSKRIVNING' ? el('contactRoom', ADMISSION_ROOM) : tag('contactBed', { 'xsi:nil': 'true' }),
      c.appointment?.price && el('contactPatientFee', c.appointment.price.price.replace(/\.00$/, '')),
      el('contactSecrecyLevels', el('secrecyLevel', c.secrecy ?? 'Normal')),
      el('actions', action(c)),
      c.type === 'INSKRIVNING' && c.end !== undefined && el('discharge',
        el('dischargeDestination', DISCHARGE_DESTINATION), tv('dischargeDateTime', c.end), el('postMortemRequired', 'false'))),
    extractPatient('patient', person),
    el('units', v2Unit(c.unit)),
    simpleUnit('contactPerformingUnit', c.unit),
    el('contactHeadCareProviderUnit', id('unitID', HEAD_UNIT.hsaId, HSA_ROOT)),
    el('careProviders', el('careProvider',
      el('careProviderType', CARE_PROVIDER_TYPE),
      id('careProviderID', s.hsaId, HSA_ROOT),
      el('careProviderInternalID', s.internalId),
      el('careProviderName', cdataIfMarkup(s.name)),
      el('careProviderPosition', id('careProviderPositionID', s.positionId, POSITION_ROOT), el('careProviderPositionName', s.positionName)),
      simpleUnit('careProviderUnit', s.unit))));
}

export function contactsDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const root = tag('ContactEHRExtracts', { xmlns: ns, 'xmlns:cc': ns, 'xmlns:xsi': XSI },
    contactsOf(person, clock).map((c, i) => contact(c, person, i)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/contacts (synthetic demo data, generated for `
    + `${clock.today}). A mirror of the vendor's care contacts v2. Traps where present: contacts out of time `
    + 'order, ids with leading zeros, an action given as attributes, a letter without contactEndDateTime, an '
    + 'empty actionCareService, xsi:nil, a unit named "23", an admission across a daylight-saving change, a '
    + 'cancelled contact, a prefixed element.');
}

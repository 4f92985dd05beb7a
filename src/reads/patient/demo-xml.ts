import { dayAt, type DemoClock } from '../../dev/demo-data/clock.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { bool, EHR_ID_ROOT, id, RC_ROOT, tv, XSI } from '../../dev/demo-data/ix.js';
import { birthDate, idRoot, type DemoPerson, type PostalAddress } from '../../dev/demo-data/people.js';
import { EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, UNITS } from '../../dev/demo-data/units.js';
import { cdata, charRef, el, leaf, tag, xmlDocument, type XmlChild, type XmlElement } from '../../dev/demo-data/xml.js';

/** PatientRecords (docs/upstream-ehr.md#3-documents): the person's registry data, one extract per stored version. */

export interface PatientExtras {
  internalId: string;
  /** Folkbokföring codes; a coordination number has none. */
  register?: readonly [county: string, city: string, district: string];
  /** Days back of the current version. */
  versionDay: number;
  comment?: XmlChild;
  /** An older version listed too, as upstream keeps them: the consumer must pick the latest. */
  olderVersionDay?: number;
}

export const EXTRAS: Readonly<Record<string, PatientExtras>> = {
  '191212121212': {
    internalId: '00012345', register: ['01', '0180', '218003'], versionDay: -41, olderVersionDay: -530,
    comment: cdata('Hörselnedsättning: boka skrivtolk. Kontaktperson <dotter> Märta Ström & make.'),
  },
  '198112189876': { internalId: '00048812', register: ['01', '0180', '218004'], versionDay: -220 },
  '201701012393': { internalId: '00090117', register: ['01', '0180', '218004'], versionDay: -365 },
  '200404122384': {
    internalId: '00070412', register: ['03', '0380', '038001'], versionDay: -150, comment: 'Flyttat till Uppsala',
  },
  '194608632396': {
    internalId: '00046803', versionDay: -90,
    comment: 'Samordningsnummer, bosatt i Finland',
  },
  '197305242385': { internalId: '00073524', register: ['14', '1480', '148002'], versionDay: -12 },
};

function address(a: PostalAddress): XmlElement {
  return el('PatientAddress',
    el('PatientAddressType', a.type),
    a.co === undefined ? tag('PatientAddressCO', { 'xsi:nil': 'true' }) : el('PatientAddressCO', a.co),
    el('PatientAddressCountryCode', a.countryCode),
    el('PatientAddressCountry', a.country),
    el('PatientAddressPostcode', a.postcode),
    el('PatientAddressCity', a.city),
    el('PatientAddressStreet', a.street),
    leaf('PatientAddressComment', a.comment));
}

function patient(person: DemoPerson, extras: PatientExtras, versionDateTime: string, current: boolean): XmlElement {
  const addresses = current ? person.addresses : person.addresses.slice(0, 1);
  return el('Patient',
    el('PhoneNumbers', person.phones.map((p) =>
      el('Phone', p.comment === undefined ? el('PhoneComment') : el('PhoneComment', p.comment),
        el('PhoneType', p.type), el('PhoneNumber', p.number)))),
    tv('PatientBirthDate', birthDate(person)),
    extras.register && el('PatientDataRegister',
      el('PatientCounty', extras.register[0]), el('PatientCity', extras.register[1]),
      el('PatientDistrict', extras.register[2]), el('PatientCountry', 'SE')),
    el('PatientProtectedId', bool(person.protectedIdentity)),
    el('pat:PatientName',
      el('PatientFamilyName', person.familyName),
      leaf('PatientMiddleName', person.middleName),
      person.givenNames.map((value, i) => tag('PatientGivenName', { qualifier: i === 0 ? 'CL' : undefined, value }))),
    current && extras.comment !== undefined ? el('PatientComment', extras.comment) : undefined,
    el('PatientSex', person.sex),
    tv('PatientVersionDateTime', versionDateTime),
    id('PatientID', person.id, idRoot(person.id)),
    el('PatientAddresses', addresses.map(address),
      // Only the current version has the summer address, written with a numeric character reference.
      current && person.id === '191212121212' && el('PatientAddress',
        el('PatientAddressType', 'TILLFALLIG'), tag('PatientAddressCO', { 'xsi:nil': 'true' }),
        el('PatientAddressCountryCode', 'NO'), el('PatientAddressCountry', 'Norge'),
        el('PatientAddressPostcode', '0150'), el('PatientAddressCity', 'Oslo'),
        el('PatientAddressStreet', 'Eksempelgata 3'),
        el('PatientAddressComment', 'Sommarboende jun', charRef(0x2013), 'aug'))),
    person.email !== undefined && el('EmailAddresses', el('Email',
      el('EmailType', 'PRIVAT'), el('EmailComment', 'Kallelser via 1177 & e-post'), el('EmailAddress', person.email))),
    id('rc_id', `00${extras.internalId}`, RC_ROOT),
    el('PatientInternalID', extras.internalId));
}

/** When a version of a person's record was made, `day` days from today: the same in the XML and the FHIR form. */
export const versionDateTime = (clock: DemoClock, day: number): string => dayAt(clock, day, '143012');

/** When the current version of a person's record was made. */
export function currentVersionOf(person: DemoPerson, clock: DemoClock): string {
  const extras = EXTRAS[person.id];
  if (!extras) throw new Error(`no patient extras for ${person.id}`);
  return versionDateTime(clock, extras.versionDay);
}

function extract(person: DemoPerson, extras: PatientExtras, clock: DemoClock, day: number, current: boolean): XmlElement {
  const version = versionDateTime(clock, day);
  return el('PatientEHRExtract',
    id('ehr_id', ehrId(`${person.id}:patient:${day}`), EHR_ID_ROOT),
    id('ehr_system', EHR_SYSTEM_ID, HSA_ROOT),
    // Extracted by last night's batch, whatever the version date.
    tv('time_created', dayAt(clock, -1, '230512')),
    patient(person, extras, version, current),
    el('AccessZoneUnit', id('UnitID', UNITS.vc.hsaId, HSA_ROOT)),
    el('HeadCareproviderUnit', id('UnitID', HEAD_UNIT.hsaId, HSA_ROOT)));
}

export function patientDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const extras = EXTRAS[person.id];
  if (!extras) throw new Error(`no patient extras for ${person.id}`);
  const root = tag('PatientRecords', { xmlns: ns, 'xmlns:pat': ns, 'xmlns:xsi': XSI },
    el('PatientRecord',
      tag('XSDVersion', { version: '3.2' }),
      extract(person, extras, clock, extras.versionDay, true),
      extras.olderVersionDay !== undefined && extract(person, extras, clock, extras.olderVersionDay, false)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/patient (synthetic demo data, generated `
    + `for ${clock.today}). Traps where present: an older version listed after the current one, ids and `
    + 'phone numbers with leading zeros, numeric-looking register codes, a prefixed element, xsi:nil, '
    + 'an empty PhoneComment, CDATA, an escaped ampersand, a numeric character reference.');
}

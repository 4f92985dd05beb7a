import { addDays, dayAt, type DemoClock } from '../../dev/demo-data/clock.js';
import { bool, EHR_ID_ROOT, givenNames, id, RC_ROOT, tv, XSI } from '../../dev/demo-data/ix.js';
import { EXTRAS, versionDateTime, type PatientExtras } from '../patient/demo-xml.js';
import { birthDate, demoPerson, idRoot, type DemoPerson, type PostalAddress } from '../../dev/demo-data/people.js';
import { EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, LOCAL_UNIT_ROOT, UNITS } from '../../dev/demo-data/units.js';
import { el, leaf, tag, xmlDocument, type XmlChild, type XmlElement } from '../../dev/demo-data/xml.js';

/**
 * PatientEHRExtracts (docs/upstream-ehr.md#3-documents, a mirror of the vendor's patient information v2): the same person
 * as patient.xml, in the vendor's layout, with relatives and passes.
 */

export interface Relative { of: string; type: string; order: string }
interface Pass { type: string; membership: string; number: string; fromDay: number; toDay?: number }

/** Next of kin among the demo people, so a relative's phone and address are real demo data too (in both forms). */
export const RELATIVES: Readonly<Record<string, readonly Relative[]>> = {
  '191212121212': [{ of: '198112189876', type: 'Dotter', order: '1' }],
  '198112189876': [{ of: '201701012393', type: 'Dotter', order: '1' }, { of: '200404122384', type: 'Son', order: '2' }],
  '201701012393': [{ of: '198112189876', type: 'Mor', order: '1' }],
  '200404122384': [{ of: '198112189876', type: 'Mor', order: '1' }],
  '194608632396': [{ of: '198112189876', type: 'Sambo', order: '1' }],
};

const PASSES: Readonly<Record<string, readonly Pass[]>> = {
  '191212121212': [
    { type: 'Frikort', membership: 'Högkostnadsskydd öppen hälso- & sjukvård', number: '0012345678', fromDay: -120, toDay: 245 },
    { type: 'Tandvårdsstöd', membership: 'Särskilt tandvårdsbidrag', number: '000458', fromDay: -300 },
  ],
  '194608632396': [{ type: 'EU-kort', membership: 'Europeiskt sjukförsäkringskort (FI)', number: '80246000020012345', fromDay: -400, toDay: 700 }],
};

function address(a: PostalAddress): XmlElement {
  return el('patientAddresses',
    el('PatientAddressType', a.type), leaf('PatientAddressCO', a.co), el('PatientAddressStreet', a.street),
    el('PatientAddressPostcode', a.postcode), el('PatientAddressCity', a.city), el('PatientAddressCountry', a.country),
    el('PatientAddressCountryCode', a.countryCode), leaf('PatientAddressComment', a.comment));
}

function relative(r: Relative, index: number): XmlElement {
  const p = demoPerson(r.of);
  const home = p.addresses[0];
  const name = `${p.givenNames[0] ?? ''} ${p.familyName}`;
  const attrs = { patientRelativeType: r.type, patientRelativeOrder: r.order };
  const members: XmlChild[] = [
    el('patientRelativeName', name), el('patientRelativeGivenName', p.givenNames[0] ?? ''),
    el('patientRelativeFamilyName', p.familyName), leaf('patientRelativeWorkPhonenumber', p.phones[0]?.number),
    home && [el('patientRelativeStreetAddress', home.street), el('patientRelativePostalCode', home.postcode),
      el('patientRelativeCity', home.city)],
  ];
  // The second relative gives type and order as attributes, as the mirror rule allows.
  return index === 1 ? tag('patientRelative', attrs, ...members)
    : el('patientRelative', el('patientRelativeType', r.type), el('patientRelativeOrder', r.order), ...members);
}

function pass(p: Pass, clock: DemoClock): XmlElement {
  return el('patientPass',
    el('patientPassTypeDiscountCard', p.type), el('patientPassMembership', p.membership), el('patientPassNumber', p.number),
    tv('patientPassValidFrom', addDays(clock.today, p.fromDay)),
    p.toDay === undefined ? tag('patientPassValidTo', { value: '' }) : tv('patientPassValidTo', addDays(clock.today, p.toDay)));
}

function patient(person: DemoPerson, extras: PatientExtras, clock: DemoClock): XmlElement {
  return el('p2:patient',
    id('rcId', `00${extras.internalId}`, RC_ROOT),
    tv('patientVersionDateTime', versionDateTime(clock, extras.versionDay)),
    id('patientID', person.id, idRoot(person.id)),
    el('patientInternalID', extras.internalId),
    el('patientProtectedId', bool(person.protectedIdentity)),
    el('patientSecrecyGroups', UNITS.vc.secrecyGroup),
    el('patientName', el('familyName', person.familyName), leaf('middleName', person.middleName),
      givenNames('givenName', person)),
    tv('patientBirthDate', birthDate(person)),
    tag('patientDeceasedDate', { 'xsi:nil': 'true' }),
    el('patientSex', person.sex),
    person.addresses.map(address),
    el('phoneNumbers', person.phones.map((p) => el('phone', el('phoneType', p.type), el('phoneNumber', p.number),
      leaf('phoneComment', p.comment)))),
    el('emailAddresses', person.email !== undefined && el('Email', el('EmailType', 'PRIVAT'),
      el('EmailAddress', person.email), el('EmailComment', 'Kallelser via 1177 & e-post'))),
    extras.comment !== undefined && el('patientComment', extras.comment),
    el('patientRelatives', (RELATIVES[person.id] ?? []).map(relative)),
    extras.register && el('patientDataRegister', el('patientCountry', 'SE'), el('patientCounty', extras.register[0]),
      el('patientCity', extras.register[1]), el('patientDistrict', extras.register[2])),
    el('patientConnectedActiveNumbers', id('patientConnectedActiveNumber', person.id, idRoot(person.id))),
    el('patientPasses', (PASSES[person.id] ?? []).map((p) => pass(p, clock))));
}

function extract(person: DemoPerson, extras: PatientExtras, clock: DemoClock): XmlElement {
  return el('patientEHRExtract',
    id('ehrId', `TOLV:EhrId:${person.id}`, EHR_ID_ROOT),
    id('ehrSystem', EHR_SYSTEM_ID, HSA_ROOT),
    // Extracted by last night's batch, whatever the version date.
    tv('timeCreated', dayAt(clock, -1, '230512')),
    patient(person, extras, clock),
    el('responsibleUnit', id('unitID', UNITS.vc.hsaId, HSA_ROOT), id('unitLocalID', UNITS.vc.localId, LOCAL_UNIT_ROOT)),
    el('accessZoneUnit', id('unitID', UNITS.vc.hsaId, HSA_ROOT)),
    el('headCareProviderUnit', id('unitID', HEAD_UNIT.hsaId, HSA_ROOT)));
}

/** The dental system's own, older extract of the same person: the answer keeps both and picks none. */
function dentalExtract(person: DemoPerson, clock: DemoClock): XmlElement {
  return el('patientEHRExtract',
    id('ehrId', `TAND:EhrId:${person.id}`, EHR_ID_ROOT),
    id('ehrSystem', 'SE2321000016-2TDV', HSA_ROOT),
    tv('timeCreated', dayAt(clock, -1, '230513')),
    el('patient', tv('patientVersionDateTime', dayAt(clock, -2000, '101500')), id('patientID', person.id, idRoot(person.id)),
      el('patientInternalID', '0000458'), el('patientProtectedId', bool(person.protectedIdentity)),
      el('patientName', el('familyName', person.familyName), el('middleName'),
        tag('givenName', { qualifier: 'CL', value: person.givenNames[0] })),
      tv('patientBirthDate', birthDate(person)), el('patientSex', person.sex), el('phoneNumbers')),
    el('responsibleUnit', id('unitID', UNITS.tand.hsaId, HSA_ROOT), id('unitLocalID', UNITS.tand.localId, LOCAL_UNIT_ROOT)));
}

export function patientV2Document(person: DemoPerson, clock: DemoClock, ns: string): string {
  const extras = EXTRAS[person.id];
  if (!extras) throw new Error(`no patient extras for ${person.id}`);
  const root = tag('PatientEHRExtracts', { xmlns: ns, 'xmlns:p2': ns, 'xmlns:xsi': XSI },
    extract(person, extras, clock),
    person.id === '191212121212' && dentalExtract(person, clock));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/patient-v2 (synthetic demo data, generated for `
    + `${clock.today}). A mirror of the vendor's patient information v2. Traps where present: two extracts `
    + '(keep both), patientAddresses and patientSecrecyGroups repeated without a wrapper, a relative given '
    + 'as attributes, an empty phoneNumbers wrapper, an empty patientPassValidTo value, xsi:nil, register '
    + 'codes and ids with leading zeros, a prefixed element, CDATA, escaped ampersands.');
}

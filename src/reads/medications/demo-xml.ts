import { contactsOf, type Contact } from '../../dev/demo-data/appointments.js';
import { addDays, dayAt, type DemoClock } from '../../dev/demo-data/clock.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { typeOfVisit } from '../care-contacts/demo-xml.js';
import { bool, code, EHR_ID_ROOT, id, optionalTv, RC_ROOT, tv, XSI } from '../../dev/demo-data/ix.js';
import { exchangeText, PRESCRIPTIONS, ROUTES, type PrescriptionSpec } from './demo-data.js';
import { idRoot, type DemoPerson } from '../../dev/demo-data/people.js';
import { dosage, product, unitRef } from '../../dev/demo-data/prescription-parts.js';
import {
  EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, LOCAL_UNIT_ROOT, POSITION_ROOT, STAFF, UNITS, type StaffKey, type UnitKey,
} from '../../dev/demo-data/units.js';
import { charRef, el, leaf, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/** PrescriptionRecords (docs/upstream-ehr.md#3-documents, the "interim" IX3 message): the patient's medication treatments. */

/** The region's code system of whether a pharmacy may exchange the product (MedicationChoice). */
export const EXCHANGE_SYSTEM = '1.2.752.99999.2.1';

function careProvider(key: StaffKey, type: string): XmlElement {
  const s = STAFF[key];
  return el('CareProvider',
    unitRef('CareProviderUnit', s.unit),
    el('CareProviderPosition', id('CareProviderPositionID', s.positionId, POSITION_ROOT),
      el('CareProviderPositionName', s.positionName)),
    el('CareProviderType', type),
    id('CareProviderID', s.hsaId, HSA_ROOT),
    el('CareProviderName', s.name));
}

function unitData(key: UnitKey): XmlElement {
  const u: (typeof UNITS)[UnitKey] = UNITS[key];
  return el('UnitData',
    el('PhoneNumbers', el('PhoneData', el('PhoneType', 'EXPEDITION'), el('PhoneNumber', u.phone),
      el('PhoneComment', 'Vardagar 08.00', charRef(0x2013), '16.00'))),
    el('UnitAddresses', el('UnitAddressData', el('UnitAddressCountry', 'Sverige'),
      el('UnitAddressPostcode', u.postcode), el('UnitAddressAddress', u.street), el('UnitAddressCity', u.city),
      el('UnitAddressCounty', u.county))),
    id('UnitID', u.hsaId, HSA_ROOT),
    el('UnitInternalID', u.internalId),
    el('UnitName', u.name),
    'email' in u && el('EmailAddresses', el('EmailData', el('EmailType', 'FUNKTION'), el('EmailAddress', u.email),
      el('EmailComment', 'Ej för akuta ärenden'))),
    el('AccessZones', el('AccessZoneID', '00000017')),
    el('UnitSecrecyGroups', el('Group', u.secrecyGroup)),
    el('UnitHeadCareProviderUnitID', HEAD_UNIT.hsaId),
    id('UnitLocalID', u.localId, LOCAL_UNIT_ROOT));
}

/** When a prescription was made, its dosage's first and last moment, and when it was invalidated: both forms read this. */
export function prescriptionTiming(spec: PrescriptionSpec, clock: DemoClock) {
  const created = dayAt(clock, spec.day, spec.time);
  return {
    created,
    start: `${created.slice(0, 8)}000000`,
    end: spec.durationDays === undefined ? undefined : `${addDays(created.slice(0, 8), spec.durationDays - 1)}235959`,
    invalidated: spec.invalidatedAfter === undefined ? undefined : dayAt(clock, spec.day + spec.invalidatedAfter, '0900'),
  };
}

function prescription(spec: PrescriptionSpec, person: DemoPerson, clock: DemoClock, contact: Contact | undefined,
  index: number): XmlElement {
  const { created, start, end, invalidated } = prescriptionTiming(spec, clock);
  const unit = STAFF[spec.prescriber].unit;
  const route = ROUTES[spec.route];
  return el(index === 1 ? 'rx:PrescriptionEHRExtract' : 'PrescriptionEHRExtract',
    id('ehr_id', ehrId(`${person.id}:rx:${spec.treatmentId}`), EHR_ID_ROOT),
    id('ehr_system', EHR_SYSTEM_ID, HSA_ROOT),
    tv('time_created', created),
    el('Prescription',
      id('MedicationTreatmentId', spec.treatmentId, '1.2.752.99999.1.5'),
      el('MedicationTreatmentStatusDetail', tv('EffectiveDateTime', invalidated ?? created),
        el('TreatmentStatus', invalidated ? 'INVALIDATED' : 'ACTIVE')),
      el('ReplacedByLatest', bool(invalidated !== undefined)),
      el('AccordingToSchedule', bool(!spec.whenNeeded)),
      el('MedicationActive', bool(invalidated === undefined)),
      product('MainProductTreatment', spec.product),
      el('PrescriptionDetails', el('Type', 'HUVUDPRODUKT'), product('ProductInformation', spec.product)),
      spec.exchange && el('PrescriptionDetails', el('Type', 'UTBYTESPRODUKT'), product('ProductInformation', spec.exchange)),
      tv('PrescriptionStartDateTime', start),
      tv('PrescriptionVersionDateTime', invalidated ?? created),
      code('MedicationChoice', EXCHANGE_SYSTEM, exchangeText(spec.exchangeAllowed)),
      el('PrescriptionType', spec.prescriptionType),
      el('MedicationType', spec.medicationType),
      el('PrescriptionReasonText', spec.reason),
      spec.goal === undefined ? tag('TreatmentGoal', { 'xsi:nil': 'true' }) : el('TreatmentGoal', spec.goal),
      el('PrescriptionDosages', el('WhenNeeded', bool(spec.whenNeeded)),
        el('DosagePlugin', dosage(spec, start, end))),
      el('RouteDetail', el('routeCode', route.code), el('name', route.name), el('abbreviation', route.abbreviation),
        el('routeLicensed', 'true')),
      id('rc_id', `000${spec.treatmentId.slice(2)}1`, RC_ROOT)),
    // The contact the care contacts document lists, named by the same id and type there: one contact, one id
    // wherever a record names it (its Encounter over FHIR is the one the Encounter search serves).
    contact && el('HCMContact',
      el('ContactType', typeOfVisit(contact.type)), el('ContactStatus', 'ARRIVED'),
      tv('ContactBegin', contact.start), optionalTv('ContactEnd', contact.end),
      id('rc_id', contact.contactId, '1.2.752.99999.1.3')),
    unitRef('CreationUnit', unit),
    unitRef('ResponsibleUnit', unit),
    unitRef('AccessZoneUnit', unit),
    el('HeadCareproviderUnit', id('UnitID', HEAD_UNIT.hsaId, HSA_ROOT), el('UnitInternalID', HEAD_UNIT.internalId),
      id('UnitLocalID', HEAD_UNIT.localId, LOCAL_UNIT_ROOT)),
    el('Patient',
      el('PatientNameData',
        el('PatientNames', el('Name', `${person.familyName}, ${person.givenNames.join(' ')}`)),
        el('PatientFamilyName', person.familyName),
        leaf('PatientMiddleName', person.middleName),
        person.givenNames.map((g) => el('PatientGivenName', g))),
      id('PatientId', person.id, idRoot(person.id)),
      el('PatientProtectedId', bool(person.protectedIdentity))),
    // The doubled "CareProviders" is how upstream really nests it.
    el('CareProviders', el('CareProviders',
      careProvider(spec.prescriber, 'FORSKRIVARE'),
      spec.registrar && careProvider(spec.registrar, 'REGISTRERARE'))),
    el('Units', unitData(unit)));
}

export function medicationsDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const contacts = new Map(contactsOf(person, clock).map((c) => [c.n, c]));
  const specs = PRESCRIPTIONS[person.id] ?? [];
  const root = tag('PrescriptionRecords', { xmlns: ns, 'xmlns:rx': ns, 'xmlns:xsi': XSI },
    specs.length > 0 && el('PrescriptionRecord', tag('XSDVersion', { version: '2.7' }),
      specs.map((spec, i) => {
        const contact = spec.contact === undefined ? undefined : contacts.get(spec.contact);
        if (spec.contact !== undefined && !contact) throw new Error(`prescription ${spec.treatmentId}: no contact`);
        return prescription(spec, person, clock, contact, i);
      })));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/medications (synthetic demo data, generated for `
    + `${clock.today}). Traps where present: treatments out of time order, CareProviders.CareProviders, `
    + 'PatientId (not PatientID), numeric-looking strengths and codes ("2,5", "20053000", "00000017"), ids with '
    + 'leading zeros, an INVALIDATED treatment, xsi:nil, an empty ConditionalText, a prefixed element.');
}

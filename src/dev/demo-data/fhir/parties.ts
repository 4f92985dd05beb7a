/**
 * The parties of the demo in FHIR (docs/upstream-fhir.md#rules-the-mapping-tables-use): each
 * care unit an Organization under the region's head unit with a Location at its visiting address,
 * each clinician a Practitioner and a PractitionerRole at their unit, each demo person a Patient.
 */
import { compactDateToIso } from '../../../domain/time/local-time.js';
import type { DemoClock } from '../clock.js';
import { fhirCountry } from '../../../reads/as-fhir-datatypes.js';
import { currentVersionOf } from '../../../reads/patient/demo-xml.js';
import { birthDate, type DemoPerson, type PostalAddress } from '../people.js';
import { HEAD_UNIT, STAFF, UNITS, type CareUnit, type StaffKey, type UnitKey } from '../units.js';
import {
  locationId, meta, orgId, patientId, personNumberIdentifier, practitionerId, ref, roleId, SYSTEMS, text, type FhirResource,
} from './fhir-base.js';

/** When the shared parties (units, places, clinicians, products) were registered. */
export const SINCE = '20240110080000';
const unitAddress = (u: CareUnit) => ({
  use: 'work', type: 'physical', line: [u.street], city: u.city, district: u.county, postalCode: u.postcode, country: 'SE',
});

function organization(key: UnitKey, clock: DemoClock): FhirResource {
  const u: CareUnit = UNITS[key];
  return {
    resourceType: 'Organization', id: orgId(key), meta: meta(SINCE, clock), active: true,
    identifier: [{ system: SYSTEMS.hsa, value: u.hsaId }],
    name: u.name,
    partOf: ref('Organization', orgId('head')),
    telecom: [{ system: 'phone', value: u.phone, use: 'work' }, ...(u.email === undefined ? [] : [{ system: 'email', value: u.email, use: 'work' }])],
    address: [unitAddress(u)],
  };
}

function location(key: UnitKey, clock: DemoClock): FhirResource {
  const u: CareUnit = UNITS[key];
  return {
    resourceType: 'Location', id: locationId(key), meta: meta(SINCE, clock), status: 'active', name: u.name,
    address: unitAddress(u), managingOrganization: ref('Organization', orgId(key)),
  };
}

/** Given names and family name of a clinician's one-string name ("Elsa Ödman": given names, then the family name). */
function staffName(name: string) {
  const parts = name.split(' ');
  return { use: 'official', text: name, family: parts[parts.length - 1], given: parts.slice(0, -1) };
}

function practitioner(key: StaffKey, clock: DemoClock): FhirResource {
  const s = STAFF[key];
  return {
    resourceType: 'Practitioner', id: practitionerId(key), meta: meta(SINCE, clock), active: true,
    identifier: [{ system: SYSTEMS.hsa, value: s.hsaId }],
    name: [staffName(s.name)],
    qualification: [{ code: text(s.type) }],
  };
}

/** The clinician's role at `unit`, by default their own, in their position. */
export function role(key: StaffKey, clock: DemoClock, unit: UnitKey = STAFF[key].unit): FhirResource {
  const s = STAFF[key];
  return {
    resourceType: 'PractitionerRole', id: roleId(key, unit), meta: meta(SINCE, clock), active: true,
    practitioner: ref('Practitioner', practitionerId(key)), organization: ref('Organization', orgId(unit)),
    code: [text(s.positionName)],
  };
}

/** Every unit, location and clinician of the demo, and the region's head unit. */
export function sharedParties(clock: DemoClock): FhirResource[] {
  const head: FhirResource = {
    resourceType: 'Organization', id: orgId('head'), meta: meta(SINCE, clock), active: true,
    identifier: [{ system: SYSTEMS.hsa, value: HEAD_UNIT.hsaId }], name: 'Region Exempel',
  };
  const units = Object.keys(UNITS) as UnitKey[];
  const staff = Object.keys(STAFF) as StaffKey[];
  return [
    head,
    ...units.map((k) => organization(k, clock)),
    ...units.map((k) => location(k, clock)),
    ...staff.flatMap((k) => [practitioner(k, clock), role(k, clock)]),
  ];
}

const ADDRESS_TYPE: Readonly<Record<string, { code: string; display: string }>> = {
  FOLKBOKFORING: { code: '63381000052101', display: 'folkbokföringsadress' },
};
const ADDRESS_USE: Readonly<Record<string, string>> = { FOLKBOKFORING: 'home', TILLFALLIG: 'temp', UTLANDSK: 'home' };
const PHONE_USE: Readonly<Record<string, string>> = { MOBIL: 'mobile', HEM: 'home', ARBETE: 'work' };

function address(a: PostalAddress) {
  const type = ADDRESS_TYPE[a.type];
  return {
    ...(type === undefined ? {} : {
      extension: [{
        url: 'http://hl7.se/fhir/ig/base/StructureDefinition/SEBaseAddressPersonExtension',
        valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', ...type }] },
      }],
    }),
    use: ADDRESS_USE[a.type] ?? 'home',
    line: [...(a.co === undefined ? [] : [a.co]), a.street],
    city: a.city, postalCode: a.postcode, ...fhirCountry(a.countryCode, a.country),
  };
}

/** The demo person's name: HL7 Sweden's middle and own family name extensions, the first given name the one in use. */
export function personName(person: DemoPerson) {
  const family = person.middleName === undefined ? person.familyName : `${person.middleName} ${person.familyName}`;
  return {
    use: 'official',
    text: [...person.givenNames, family].join(' '),
    family,
    extension: [
      ...(person.middleName === undefined ? [] : [{ url: 'http://hl7.se/fhir/ig/base/StructureDefinition/SEBaseMiddleNameExtension', valueString: person.middleName }]),
      { url: 'http://hl7.se/fhir/ig/base/StructureDefinition/SEBaseOwnFamilyExtension', valueString: person.familyName },
    ],
    given: person.givenNames,
    _given: person.givenNames.map((_, i) => (i === 0 ? { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/iso21090-EN-qualifier', valueCode: 'CL' }] } : null)),
  };
}

export function patient(person: DemoPerson, clock: DemoClock): FhirResource {
  return {
    resourceType: 'Patient', id: patientId(person),
    // The record's current version, as the XML form dates it (PatientVersionDateTime).
    meta: meta(currentVersionOf(person, clock), clock, person.protectedIdentity ? { security: [{ system: SYSTEMS.seSecurity, code: 'sekretessmarkering' }] } : {}),
    identifier: [personNumberIdentifier(person)],
    active: true,
    name: [personName(person)],
    telecom: [
      ...person.phones.map((p) => ({ system: 'phone', value: p.number, use: PHONE_USE[p.type] ?? 'home' })),
      ...(person.email === undefined ? [] : [{ system: 'email', value: person.email, use: 'home' }]),
    ],
    gender: person.sex === 'M' ? 'male' : 'female',
    birthDate: compactDateToIso(birthDate(person)),
    address: person.addresses.map(address),
    managingOrganization: ref('Organization', orgId('vc')),
  };
}

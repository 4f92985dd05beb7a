/**
 * Pieces the vendor's layouts (care contacts, attention signals, lab results, diagnoses) share: the
 * patient block, a unit and a member of staff, in each layout's spelling, and the security labels a record carries (passed on as sent, for the release
 * policy's secrecy rules).
 */
import type { AttentionSignalEhrExtract, ContactEhrExtract } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { staffOf, type StaffFacts, type UnitFacts } from './care-parties.js';
import { textOf } from './codes.js';
import { ts, type TimeContext } from './fhir-time.js';
import { patientNamePascal } from './human-name.js';
import { hsaIi, unitIdOf } from './identifiers.js';
import { referenceKey } from './resource-index.js';
import type { Encounter } from '../../reads/care-contacts/resource-types.js';
import type { PatientFacts } from './patient-facts.js';
import type { ResourceIndex } from './resource-index.js';
import type { Meta, Reference } from '../../domain/fhir/resources/datatypes.js';
import { emailItems } from './telecom.js';

/** The codes of `meta.security`, as sent. */
export const securityCodes = (resource: { meta?: Meta }): string[] =>
  (resource.meta?.security ?? []).flatMap((c) => (c.code === undefined ? [] : [c.code]));

/** The care contacts' `patient` (camelCase). */
export const contactPatient = (facts: PatientFacts): NonNullable<ContactEhrExtract['patient']> => definedOnly({
  patientID: facts.personId,
  patientInternalID: facts.resource.id,
  patientProtectedId: facts.protectedId,
  patientSecrecyGroups: { group: [] },
  patientName: facts.name === undefined ? undefined : definedOnly({
    patientFamilyName: facts.name.family, patientMiddleName: facts.name.middle, patientGivenName: facts.name.given,
  }),
});

/** The attention signals' `Patient` (PascalCase). */
export const signalPatient = (facts: PatientFacts): NonNullable<AttentionSignalEhrExtract['Patient']> => definedOnly({
  PatientID: facts.personId,
  PatientInternalID: facts.resource.id,
  PatientProtectedId: facts.protectedId,
  PatientSecrecyGroups: { Group: [] },
  PatientName: patientNamePascal(facts.name),
});

type CareProvider = AttentionSignalEhrExtract['CareProviders']['CareProvider'][number];
export type Signal = NonNullable<AttentionSignalEhrExtract['AttentionSignal']>;

/** A signal's care provider, when `actor` is staff: the v2 layouts' member in the signals' PascalCase. */
export function signalCareProvider(type: string, actor: Reference | undefined, index: ResourceIndex): CareProvider[] {
  return vendorCareProvider(type, staffOf(actor, index)).map((p) => definedOnly({
    CareProviderType: p.careProviderType,
    CareProviderID: p.careProviderID,
    CareProviderInternalID: p.careProviderInternalID,
    CareProviderName: p.careProviderName,
    ProviderPosition: p.careProviderPosition,
    CareProviderUnit: p.careProviderUnit,
  }));
}

type VendorUnit = ContactEhrExtract['units']['unit'][number];
type VendorCareProvider = ContactEhrExtract['careProviders']['careProvider'][number];

/** Unit(org) as the v2 layouts list it (`units.unit[]`). */
export function vendorUnitOf(unit: UnitFacts): VendorUnit {
  const a = unit.address;
  return definedOnly({
    unitID: hsaIi(unit.hsaId),
    unitInternalID: unit.org.id,
    unitName: unit.org.name,
    headCareProviderUnitID: hsaIi(unit.headHsaId),
    phoneNumbers: { phone: unit.phones.map((p) => definedOnly({ phoneType: p.use, phoneNumber: p.value })) },
    emailAddresses: { Email: emailItems(unit.emails) },
    unitAddresses: {
      unitAddress: a === undefined ? [] : [definedOnly({
        unitAddressAddress: a.street, unitAddressPostcode: a.postcode, unitAddressCity: a.city, unitAddressCounty: a.county, unitAddressCountry: a.country,
      })],
    },
    unitSecrecyGroups: { group: [] },
    accessZones: { accessZoneID: [] },
  });
}

/** A member of staff as the v2 layouts list one (`careProviders.careProvider[]`); none when the actor is not staff. */
export function vendorCareProvider(type: string | undefined, staff: StaffFacts | undefined): VendorCareProvider[] {
  if (staff === undefined) return [];
  return [definedOnly({
    careProviderType: type,
    careProviderID: hsaIi(staff.hsaId),
    careProviderInternalID: staff.internalId,
    careProviderName: staff.name,
    careProviderPosition: staff.position === undefined ? undefined : { careProviderPositionName: staff.position },
    careProviderUnit: unitIdOf(staff.unitHsaId),
  })];
}

/**
 * The contact a lab report or a diagnosis was made in (`hCMContact`), but its secrecy levels, which
 * the two layouts shape differently.
 */
export const encounterContact = (encounter: Encounter, ctx: TimeContext) => definedOnly({
  hCMContactInternalID: encounter.id,
  hCMContactBegin: ts(encounter.period?.start, ctx),
  hCMContactEnd: ts(encounter.period?.end, ctx),
  hCMContactStatus: encounter.status,
  hCMContactType: textOf(encounter.type?.[0]),
  contactPerformingUnit: referenceKey(encounter.serviceProvider?.reference)?.split('/')[1],
});

/**
 * The units and staff of the vendor's v2 layouts (`units.unit[]`, `careProviders.careProvider[]`,
 * SimpleUnit `{unitID}`) as the facts the shared writer turns into Organization, Practitioner and
 * PractitionerRole (as-fhir-parties.ts): Unit(org) and Staff(actor) of
 * docs/upstream-fhir.md#rules-the-mapping-tables-use read backwards.
 */
import { HSA_OID } from '../../adapters/ehr-fhir/identifiers.js';
import type { ContactEhrExtract } from '../../domain/records/index.js';
import type { AsFhirContext } from '../as-fhir.js';
import type { StaffFacts, UnitFacts, WrittenResources } from '../as-fhir-parties.js';

type VendorUnit = ContactEhrExtract['units']['unit'][number];
type CareProvider = ContactEhrExtract['careProviders']['careProvider'][number];

/** The HSA id an II names: only under the HSA root, which is the only unit id the inbound reads. */
export const hsaIdIn = (ii: { root?: string; extension?: string } | undefined): string | undefined =>
  (ii?.root === HSA_OID ? ii.extension : undefined);

/** A unit's first address: Unit(org) reads `address[0]`. */
const unitAddress = (a: VendorUnit['unitAddresses']['unitAddress'][number] | undefined): UnitFacts['address'] => (a === undefined ? undefined : {
  street: a.unitAddressAddress, postcode: a.unitAddressPostcode, city: a.unitAddressCity, county: a.unitAddressCounty, country: a.unitAddressCountry,
});

/**
 * The contact's performing unit: its `units.unit[]` entry (the inbound writes one, the unit of
 * `serviceProvider`), completed by the ids the extract names it by elsewhere.
 */
export function performingUnitFacts(e: ContactEhrExtract): UnitFacts | undefined {
  const u: VendorUnit | undefined = e.units.unit[0];
  const facts: UnitFacts = {
    internalId: u?.unitInternalID ?? e.contact?.contactPerformingUnit,
    hsaId: hsaIdIn(u?.unitID) ?? hsaIdIn(e.contactPerformingUnit?.unitID),
    name: u?.unitName,
    headHsaId: hsaIdIn(u?.headCareProviderUnitID) ?? hsaIdIn(e.contactHeadCareProviderUnit?.unitID),
    phones: u?.phoneNumbers.phone.map((p) => ({ use: p.phoneType, value: p.phoneNumber })),
    emails: u?.emailAddresses.Email.map((m) => ({ use: m.EmailType, value: m.EmailAddress })),
    address: unitAddress(u?.unitAddresses.unitAddress[0]),
  };
  return facts.internalId === undefined && facts.hsaId === undefined ? undefined : facts;
}

/**
 * The units written in full, by HSA id: a care provider's unit that is one of them is referenced
 * as that Organization rather than written again under its HSA id.
 */
export type UnitsByHsaId = ReadonlyMap<string, { reference: string }>;

/** A care provider as the resource to name in `participant.individual`; undefined when it has nothing to name it by. */
export function careProviderOf(cp: CareProvider, units: UnitsByHsaId, out: WrittenResources, ctx: AsFhirContext): { reference: string } | undefined {
  const unitHsaId = hsaIdIn(cp.careProviderUnit?.unitID);
  const unit = unitHsaId === undefined ? undefined : units.get(unitHsaId) ?? out.unit({ hsaId: unitHsaId }, ctx);
  const staff: StaffFacts = {
    hsaId: hsaIdIn(cp.careProviderID),
    internalId: cp.careProviderInternalID,
    name: cp.careProviderName,
    position: cp.careProviderPosition?.careProviderPositionName,
    unit,
  };
  return out.staff(staff, ctx);
}

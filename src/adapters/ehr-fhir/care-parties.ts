/**
 * Unit(org) and Staff(actor) (docs/upstream-fhir.md#rules-the-mapping-tables-use): a care unit is an
 * Organization, with its head care provider (`partOf`); a member of staff is a Practitioner, or a
 * PractitionerRole with its Practitioner. Each layout writes these facts under its own names.
 */
import { definedOnly } from '../../domain/records/defined.js';
import { addressParts, type AddressParts } from './address.js';
import { textOf } from './codes.js';
import { nameInUse, wholeName } from './human-name.js';
import { hsaIdOf } from './identifiers.js';
import type { ResourceIndex } from './resource-index.js';
import type { Reference } from '../../domain/fhir/resources/datatypes.js';
import type { Organization, Practitioner, PractitionerRole } from '../../domain/fhir/resources/parties.js';
import { emails, phones, type Telecom } from './telecom.js';

export interface UnitFacts {
  org: Organization;
  hsaId?: string;
  /** The head care provider's (vårdgivare's) HSA id. */
  headHsaId?: string;
  address?: AddressParts;
  phones: Telecom[];
  emails: Telecom[];
}

export function unitFacts(org: Organization, index: ResourceIndex): UnitFacts {
  const head = index.get(org.partOf, 'Organization');
  const address = org.address?.[0];
  return {
    org,
    hsaId: hsaIdOf(org.identifier),
    headHsaId: hsaIdOf(head?.identifier),
    address: address === undefined ? undefined : addressParts(address),
    phones: phones(org.telecom),
    emails: emails(org.telecom),
  };
}

/** A unit's address as the PascalCase layouts list it: none, or one `{UnitAddressAddress, …, UnitAddressCountry}`. */
export const unitAddressItems = ({ address: a }: UnitFacts) => (a === undefined ? [] : [definedOnly({
  UnitAddressAddress: a.street, UnitAddressPostcode: a.postcode, UnitAddressCity: a.city, UnitAddressCounty: a.county, UnitAddressCountry: a.country,
})]);

export const unitOf = (ref: Reference | undefined, index: ResourceIndex): UnitFacts | undefined => {
  const org = index.get(ref, 'Organization');
  return org === undefined ? undefined : unitFacts(org, index);
};

export interface StaffFacts {
  name?: string;
  hsaId?: string;
  internalId?: string;
  position?: string;
  /** The unit a PractitionerRole works for, and its HSA id. */
  unit?: Organization;
  unitHsaId?: string;
}

/**
 * Staff(actor), or undefined when the actor is not staff (a patient, a relative, a device) or is not
 * at hand. `roleText`: the role in this very event, written as text (`participant.type.text`).
 */
export function staffOf(actor: Reference | undefined, index: ResourceIndex, roleText?: string): StaffFacts | undefined {
  const found = index.get(actor, 'Practitioner', 'PractitionerRole');
  if (found === undefined) return undefined;
  const role: PractitionerRole | undefined = found.resourceType === 'PractitionerRole' ? found : undefined;
  const practitioner: Practitioner | undefined = role === undefined ? found as Practitioner : index.get(role.practitioner, 'Practitioner');
  const unit = index.get(role?.organization, 'Organization');
  return {
    name: wholeName(nameInUse(practitioner?.name)),
    hsaId: hsaIdOf(practitioner?.identifier),
    internalId: practitioner?.id,
    position: roleText ?? textOf(role?.code?.[0]) ?? textOf(practitioner?.qualification?.[0]?.code),
    unit,
    unitHsaId: hsaIdOf(unit?.identifier),
  };
}

/** The role written as text in an event's participant: the first `type` with a `text`. */
export const roleTextOf = (types: readonly { text?: string }[] | undefined): string | undefined => types?.find((t) => t.text !== undefined)?.text;

/**
 * Units and staff as FHIR, for the reads' forms: Unit(org) and Staff(actor) of
 * docs/upstream-fhir.md#rules-the-mapping-tables-use read backwards. A unit is an Organization (its
 * internal id the logical id, its HSA id an identifier, its head care provider `partOf`); a member of
 * staff a Practitioner, and a PractitionerRole where the record gives a position or a unit. Each
 * layout names these facts its own way; the forms hand them over as UnitFacts and StaffFacts.
 */
import { HSA_OID } from '../adapters/ehr-fhir/identifiers.js';
import type { AsFhirContext, FhirResource } from './as-fhir.js';
import { eachOnce, fhirOnly, reference } from './as-fhir-common.js';
import { logicalIdOf, textConcept } from './as-fhir-datatypes.js';

export interface Telecom {
  use?: string;
  value?: string;
}

export interface UnitAddress {
  street?: string;
  postcode?: string;
  city?: string;
  county?: string;
  country?: string;
}

/** What a record says of a unit. */
export interface UnitFacts {
  hsaId?: string;
  internalId?: string;
  name?: string;
  /** The head care provider's (vårdgivare's) HSA id. */
  headHsaId?: string;
  phones?: readonly Telecom[];
  emails?: readonly Telecom[];
  address?: UnitAddress;
}

/** What a record says of a member of staff. */
export interface StaffFacts {
  hsaId?: string;
  internalId?: string;
  name?: string;
  position?: string;
  /** The unit the member of staff works for here, as the reference `WrittenResources.unit` gave. */
  unit?: { reference: string };
}

/** A phone, an e-mail address and an address as the PascalCase layouts (prescriptions' UnitData, journal notes' Unit) write them. */
interface PascalPhone { PhoneType?: string; PhoneNumber?: string }
interface PascalEmail { EmailType?: string; EmailAddress?: string }
interface PascalAddress { UnitAddressAddress?: string; UnitAddressPostcode?: string; UnitAddressCity?: string; UnitAddressCounty?: string; UnitAddressCountry?: string }

/** A PascalCase layout's unit phones, e-mail and first address (Unit(org) reads `address[0]`) as UnitFacts. */
export const pascalUnitContacts = (phones: readonly PascalPhone[] = [], emails: readonly PascalEmail[] = [], a?: PascalAddress): Pick<UnitFacts, 'phones' | 'emails' | 'address'> => ({
  phones: phones.map((x) => ({ use: x.PhoneType, value: x.PhoneNumber })),
  emails: emails.map((x) => ({ use: x.EmailType, value: x.EmailAddress })),
  address: a && { street: a.UnitAddressAddress, postcode: a.UnitAddressPostcode, city: a.UnitAddressCity, county: a.UnitAddressCounty, country: a.UnitAddressCountry },
});

const HSA_SYSTEM = `urn:oid:${HSA_OID}`;
/** ContactPoint.use is a required binding: a legacy word (`Arbete`) is left out rather than make the resource invalid. */
const CONTACT_USES: ReadonlySet<string> = new Set(['home', 'work', 'temp', 'old', 'mobile']);
const hsaIdentifiers = (hsaId: string | undefined) => (hsaId === undefined ? undefined : [{ system: HSA_SYSTEM, value: hsaId }]);
const hsaResourceId = (type: string, hsaId: string, ctx: AsFhirContext): string => ctx.idOf(type, { root: HSA_OID, extension: hsaId });

/**
 * The resources a form writes, in the records' order: each record's own resources, then those they
 * reference, then last those that only name an HSA id (a head care provider, a unit known by its id
 * alone), each Type/id once. A stub comes last so that the unit written in full elsewhere under the
 * same id is the one kept.
 */
export class WrittenResources {
  private readonly full: FhirResource[] = [];
  private readonly pending: FhirResource[] = [];
  private readonly stubs: FhirResource[] = [];

  /** A record's own resources, followed by those it references (made since the last record). */
  add(...resources: FhirResource[]): void {
    this.full.push(...resources, ...this.pending.splice(0));
  }

  /** A resource the next record references. */
  referenced(resource: FhirResource): void {
    this.pending.push(resource);
  }

  private addOrganization(org: FhirResource): void {
    const stub = Object.keys(org).every((k) => k === 'resourceType' || k === 'id' || k === 'identifier');
    if (stub) this.stubs.push(org);
    else this.referenced(org);
  }

  /** A unit as an Organization; undefined when the record names it by neither internal id nor HSA id. */
  unit(unit: UnitFacts, ctx: AsFhirContext): { reference: string } | undefined {
    const id = unit.internalId !== undefined ? logicalIdOf('Organization', unit.internalId, ctx)
      : unit.hsaId !== undefined ? hsaResourceId('Organization', unit.hsaId, ctx) : undefined;
    if (id === undefined) return undefined;
    const head = unit.headHsaId === undefined ? undefined : this.unit({ hsaId: unit.headHsaId }, ctx);
    const telecom = [
      ...(unit.phones ?? []).map((p) => contactPoint('phone', p)),
      ...(unit.emails ?? []).map((e) => contactPoint('email', e)),
    ];
    this.addOrganization(fhirOnly({
      resourceType: 'Organization', id, identifier: hsaIdentifiers(unit.hsaId), name: unit.name, telecom,
      address: address(unit.address), partOf: head,
    }));
    return reference('Organization', id);
  }

  /**
   * A member of staff: the Practitioner itself, or a PractitionerRole (its practitioner, unit and
   * position) where the record gives a position or a unit. Undefined when there is nothing to name.
   */
  staff(staff: StaffFacts, ctx: AsFhirContext): { reference: string } | undefined {
    const practitionerId = staff.internalId !== undefined ? logicalIdOf('Practitioner', staff.internalId, ctx)
      : staff.hsaId !== undefined ? hsaResourceId('Practitioner', staff.hsaId, ctx) : undefined;
    const practitioner = practitionerId === undefined ? undefined : reference('Practitioner', practitionerId);
    if (practitionerId !== undefined) {
      this.referenced(fhirOnly({
        resourceType: 'Practitioner', id: practitionerId, identifier: hsaIdentifiers(staff.hsaId),
        name: staff.name === undefined ? undefined : [{ text: staff.name }],
      }));
    }
    if (staff.position === undefined && staff.unit === undefined) return practitioner;
    // The role is this practitioner at this unit in this position: two records that differ in any
    // of them name two roles, so neither is read back with the other's facts.
    const id = ctx.idOf('PractitionerRole', { root: ctx.idRoot, extension: [practitionerId, staff.unit?.reference, staff.position].join('|') });
    this.referenced(fhirOnly({
      resourceType: 'PractitionerRole', id, practitioner, organization: staff.unit,
      code: staff.position === undefined ? undefined : [textConcept(staff.position)],
    }));
    return reference('PractitionerRole', id);
  }

  /** Every resource written, each Type/id once. */
  list(): FhirResource[] {
    return eachOnce(this.full, this.pending, this.stubs);
  }
}

function contactPoint(system: 'phone' | 'email', t: Telecom) {
  return fhirOnly({ system, value: t.value, use: t.use !== undefined && CONTACT_USES.has(t.use) ? t.use : undefined });
}

/** Address(a) backwards, as a list of none or one: the street is one line (the inbound joins lines with `, `). */
function address(a: UnitAddress | undefined) {
  if (a === undefined) return undefined;
  const written = fhirOnly({ line: a.street === undefined ? undefined : [a.street], postalCode: a.postcode, city: a.city, district: a.county, country: a.country });
  return Object.keys(written).length === 0 ? undefined : [written];
}

/**
 * What the vendor's v2 layouts (lab results, diagnoses; care contacts share the unit and staff
 * shapes) write as FHIR: the record ids they carry as plain IIs, a unit of `units.unit[]`, a member of
 * staff of `careProviders.careProvider[]`, and the contact (`hCMContact`) as the Encounter
 * docs/upstream-fhir.md#311-lab-results-operation-11 reads it from, read backwards.
 */
import type { AsFhirContext, FhirResource, RecordId } from './as-fhir.js';
import { fhirOnly, reference, securityLabels } from './as-fhir-common.js';
import { fhirInstant, logicalIdOf, partIdOf } from './as-fhir-datatypes.js';
import { encounterOf } from './as-fhir-encounter.js';
import type { UnitFacts, WrittenResources } from './as-fhir-parties.js';

/** An II as the plain layouts carry one: every member optional. */
export interface PlainIi {
  root?: string;
  extension?: string;
}

/** An II that names something: both a root and an extension. */
export const recordIdOf = (ii: PlainIi | undefined): RecordId | undefined =>
  (ii?.root === undefined || ii.extension === undefined ? undefined : { root: ii.root, extension: ii.extension });

/** A record id Own made from a FHIR logical id: `{FHIR_ID_ROOT, "<Type>/<id>"}` (docs/upstream-fhir.md#rules-the-mapping-tables-use). */
export const madeFromLogicalId = (id: RecordId, ctx: AsFhirContext): boolean =>
  id.root === ctx.idRoot && /^[A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.test(id.extension);

/**
 * The id a record's resource is made from (`ctx.idOf(type, …)`): the first of `ids` that names
 * something, where a record id made from a FHIR logical id comes first. Without any, the record
 * itself, which the context turns into a digest, stable for the same record and naming no one.
 */
export function recordKeyOf(type: string, ids: readonly (PlainIi | undefined)[], whole: object, ctx: AsFhirContext): RecordId {
  const named = ids.map(recordIdOf).filter((id): id is RecordId => id !== undefined);
  return named.find((id) => madeFromLogicalId(id, ctx)) ?? named[0] ?? { root: ctx.idRoot, extension: `${type}#${JSON.stringify(whole)}` };
}

const iiKey = (ii: PlainIi | undefined): string | undefined =>
  (ii?.root === undefined || ii.extension === undefined ? undefined : `${ii.root}|${ii.extension}`);

/**
 * The extract ids (`ehr_id`, `ehrId`) of one answer that name no single record: those several of its
 * extracts share. A legacy document may give every extract the id of the patient's whole record.
 */
export function sharedExtractIds(ids: readonly (PlainIi | undefined)[]): ReadonlySet<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const key of ids.map(iiKey)) {
    if (key === undefined) continue;
    if (seen.has(key)) shared.add(key);
    seen.add(key);
  }
  return shared;
}

/**
 * The id of an extract's resource (docs/upstream-fhir.md §3.7, §3.11, §3.12: `ehr_id`/`ehrId` is
 * Own, the resource's id): its extract id, so `GET <Type>/<ehr_id>` finds it whatever its `RcId`
 * holds; the record's own id (`RcId`, `rcId`) only where the extract id names no single record
 * (`shared`, sharedExtractIds), else the record itself.
 */
export function extractKeyOf(type: string, ehrId: PlainIi | undefined, rcId: PlainIi | undefined, shared: ReadonlySet<string>, whole: object, ctx: AsFhirContext): RecordId {
  const own = shared.has(iiKey(ehrId) ?? '') ? undefined : ehrId;
  return recordKeyOf(type, [own, rcId], whole, ctx);
}

/** `meta` of a record's resource: its version time and secrecy levels, absent when it has neither. */
export function metaOf(version: { value?: string } | undefined, levels: readonly string[] | undefined, zone: string) {
  const meta = fhirOnly({
    lastUpdated: version?.value === undefined ? undefined : fhirInstant({ value: version.value }, zone),
    security: securityLabels(levels),
  });
  return Object.keys(meta).length === 0 ? undefined : meta;
}

/** A unit of `units.unit[]` (any of the v2 layouts' spellings of an II). */
export interface VendorUnit {
  unitID?: PlainIi;
  unitInternalID?: string;
  unitName?: string;
  headCareProviderUnitID?: PlainIi;
  phoneNumbers: { phone: readonly { phoneType?: string; phoneNumber?: string }[] };
  emailAddresses: { Email: readonly { EmailType?: string; EmailAddress?: string }[] };
  unitAddresses: {
    unitAddress: readonly { unitAddressAddress?: string; unitAddressPostcode?: string; unitAddressCity?: string; unitAddressCounty?: string; unitAddressCountry?: string }[];
  };
}

/** Unit(org) backwards: what `units.unit[]` says of a unit. */
export function vendorUnitFacts(u: VendorUnit): UnitFacts {
  const a = u.unitAddresses.unitAddress[0];
  return {
    hsaId: u.unitID?.extension,
    internalId: u.unitInternalID,
    name: u.unitName,
    headHsaId: u.headCareProviderUnitID?.extension,
    phones: u.phoneNumbers.phone.map((p) => ({ use: p.phoneType, value: p.phoneNumber })),
    emails: u.emailAddresses.Email.map((e) => ({ use: e.EmailType, value: e.EmailAddress })),
    address: a === undefined ? undefined : {
      street: a.unitAddressAddress, postcode: a.unitAddressPostcode, city: a.unitAddressCity, county: a.unitAddressCounty, country: a.unitAddressCountry,
    },
  };
}

/** A member of staff of `careProviders.careProvider[]`. */
export interface VendorCareProvider {
  careProviderType?: string;
  careProviderID?: PlainIi;
  careProviderInternalID?: string;
  careProviderName?: string;
  careProviderPosition?: { careProviderPositionName?: string };
  careProviderUnit?: { unitID?: PlainIi };
}

/** Staff(actor) backwards: the Practitioner, or the PractitionerRole at the unit the record names. */
export function vendorStaff(cp: VendorCareProvider, out: WrittenResources, ctx: AsFhirContext): { reference: string } | undefined {
  const unitHsaId = cp.careProviderUnit?.unitID?.extension;
  return out.staff({
    hsaId: cp.careProviderID?.extension,
    internalId: cp.careProviderInternalID,
    name: cp.careProviderName,
    position: cp.careProviderPosition?.careProviderPositionName,
    unit: unitHsaId === undefined ? undefined : out.unit({ hsaId: unitHsaId }, ctx),
  }, ctx);
}

/** `hCMContact` as both layouts have it, but its secrecy levels, which they shape differently. */
export interface VendorContact {
  hCMContactInternalID?: string;
  hCMContactBegin?: { value?: string };
  hCMContactEnd?: { value?: string };
  hCMContactStatus?: string;
  hCMContactType?: string;
  contactPerformingUnit?: string;
}

/**
 * The contact as its Encounter: `hCMContactInternalID` is its id, `contactPerformingUnit` the id of
 * its `serviceProvider`. `unit` is what the record says of that unit besides; a unit the record
 * names by that id alone is referenced and not written, as an Organization needs a name or an
 * identifier (R4's org-1). `owner` is the id of the record the contact belongs to: a contact without
 * an id of its own is that record's part.
 */
export function contactEncounter(
  c: VendorContact, owner: RecordId, levels: readonly string[], unit: UnitFacts, out: WrittenResources, ctx: AsFhirContext,
): FhirResource {
  const internal = c.contactPerformingUnit;
  const known = unit.hsaId !== undefined || unit.name !== undefined;
  const serviceProvider = known ? out.unit({ ...unit, internalId: internal }, ctx)
    : internal === undefined ? undefined : reference('Organization', logicalIdOf('Organization', internal, ctx));
  const id = c.hCMContactInternalID === undefined ? partIdOf('Encounter', owner, 'contact', ctx) : logicalIdOf('Encounter', c.hCMContactInternalID, ctx);
  const security = securityLabels(levels);
  return fhirOnly({
    ...encounterOf({
      id, status: c.hCMContactStatus, type: c.hCMContactType, start: c.hCMContactBegin?.value, end: c.hCMContactEnd?.value, serviceProvider,
    }, ctx),
    meta: security.length === 0 ? undefined : { security },
  });
}

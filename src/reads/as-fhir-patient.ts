/**
 * The Patient both patient layouts answer (src/reads/patient/, src/reads/patient-v2/), written from
 * the facts they share: docs/upstream-fhir.md §3.4 and §3.5 read backwards, with the rules Name,
 * Address, Telecom and PersonId of §1.9. Each layout names these facts its own way and hands them
 * here; the Patient's managing organisation and that unit's head unit are written beside it.
 */
import { SE_BASE } from '../adapters/ehr-fhir/extensions.js';
import { PERSON_NUMBER_KINDS } from '../domain/identity/person-number-systems.js';
import type { AsFhirContext, FhirResource, RecordId } from './as-fhir.js';
import { CONFIDENTIALITY, fhirDateTime, fhirOnly } from './as-fhir-common.js';
import { fhirCountry, fhirInstant, systemOf } from './as-fhir-datatypes.js';
import type { WrittenResources } from './as-fhir-parties.js';

/** A patient's address as both layouts list it (v2 adds the county). */
export interface PatientAddressFacts {
  PatientAddressType?: string;
  PatientAddressCO?: string;
  PatientAddressStreet?: string;
  PatientAddressPostcode?: string;
  PatientAddressCity?: string;
  PatientAddressCounty?: string;
  PatientAddressCountry?: string;
  PatientAddressCountryCode?: string;
}

/** A phone or an e-mail address: its type and its number or address. */
export interface TelecomFacts {
  type?: string;
  value?: string;
}

/** What a patient layout says of the patient, in its own members' order. */
export interface PatientFacts {
  /** PatientVersionDateTime, else the extract's time_created (both TS(meta.lastUpdated)). */
  version?: string;
  /** Person-number identifiers, `old` where the layout lists the number as inactive. */
  numbers: readonly { ii: RecordId; old?: boolean }[];
  /** Identifiers of other kinds (v2): Text(type) and value. */
  others?: readonly { type?: string; value?: string }[];
  protectedId?: boolean;
  sex?: string;
  birthDate?: string;
  deceasedDate?: string;
  name?: { family?: string; middle?: string; given: readonly { qualifier?: string; value?: string }[] };
  phones: readonly TelecomFacts[];
  emails: readonly TelecomFacts[];
  addresses: readonly PatientAddressFacts[];
  /** `meta.tag` codings the layout adds (the older layout's OLDER_LAYOUT_ONLY). */
  tags?: readonly { system: string; code: string }[];
  /** The HSA ids of the unit responsible for the patient (managingOrganization) and of its head unit (its partOf). */
  unitHsaId?: string;
  headHsaId?: string;
}

const QUALIFIER = 'http://hl7.org/fhir/StructureDefinition/iso21090-EN-qualifier';
const ADDRESS_TYPE = `${SE_BASE}SEBaseAddressPersonExtension`;
/** HL7 Sweden's address type of a population-register address (docs/upstream-fhir.md §1.9, Address). */
const FOLKBOKFORING = { system: 'http://snomed.info/sct', code: '63381000052101', display: 'folkbokföringsadress' };

const SEX: Readonly<Record<string, string>> = { M: 'male', F: 'female', U: 'unknown' };
const CONTACT_USES: ReadonlySet<string> = new Set(['home', 'work', 'temp', 'old', 'mobile']);
const ADDRESS_USES: ReadonlySet<string> = new Set(['home', 'work', 'temp', 'old', 'billing']);
/**
 * The legacy documents' words for these uses (the type is `use`, docs/upstream-fhir.md §1.9 Telecom
 * and Address): a record read from the legacy EHR is served in the same dialect.
 */
const LEGACY_USES: Readonly<Record<string, string>> = { MOBIL: 'mobile', HEM: 'home', ARBETE: 'work', PRIVAT: 'home', TILLFALLIG: 'temp' };

/** A type as a FHIR `use`: a FHIR code as it is, a legacy word as its code, else none. */
const useOf = (type: string | undefined, uses: ReadonlySet<string>): string | undefined =>
  (type === undefined ? undefined : uses.has(type) ? type : LEGACY_USES[type]);

/** A date of 8 (or 14) digits as a FHIR date: the layouts' birth and death dates are dates (TS(x) as a date). */
const dateOf = (value: string | undefined, ctx: AsFhirContext): string | undefined =>
  (value === undefined ? undefined : fhirDateTime(value.slice(0, 8), ctx.zone));

/** FHIR allows no element without a value or children (ele-1): an empty name, address or identifier is left out. */
export const withContent = <T extends object>(list: readonly T[]): T[] => list.filter((o) => Object.keys(o).length > 0);

/** Name backwards: HL7 Sweden's `family` is middle and own family name, each also in its extension; CL in `_given`. */
function humanName(name: NonNullable<PatientFacts['name']>) {
  const given = name.given.filter((g): g is { qualifier?: string; value: string } => g.value !== undefined);
  const family = [name.middle, name.family].filter((p) => p !== undefined);
  return fhirOnly({
    extension: [
      ...(name.middle === undefined ? [] : [{ url: `${SE_BASE}SEBaseMiddleNameExtension`, valueString: name.middle }]),
      ...(name.family === undefined ? [] : [{ url: `${SE_BASE}SEBaseOwnFamilyExtension`, valueString: name.family }]),
    ],
    family: name.family === undefined ? undefined : family.join(' '),
    given: given.map((g) => g.value),
    _given: given.some((g) => g.qualifier !== undefined)
      ? given.map((g) => (g.qualifier === undefined ? null : { extension: [{ url: QUALIFIER, valueCode: g.qualifier }] }))
      : undefined,
  });
}

/**
 * The address type: HL7 Sweden's for a population-register address, a FHIR `use` for one that is
 * a use, else the type's text as the display of HL7 Sweden's type (which Address reads first).
 */
function addressType(type: string | undefined) {
  if (type === undefined) return {};
  if (type === FOLKBOKFORING.display || type === 'FOLKBOKFORING') return { extension: [{ url: ADDRESS_TYPE, valueCodeableConcept: { coding: [FOLKBOKFORING] } }] };
  const use = useOf(type, ADDRESS_USES);
  return use !== undefined ? { use } : { extension: [{ url: ADDRESS_TYPE, valueCodeableConcept: { coding: [{ display: type }] } }] };
}

/** Address backwards: care-of and street as lines, the country as written with its code. */
const address = (a: PatientAddressFacts) => fhirOnly({
  ...addressType(a.PatientAddressType),
  line: [a.PatientAddressCO, a.PatientAddressStreet].filter((l) => l !== undefined),
  city: a.PatientAddressCity,
  district: a.PatientAddressCounty,
  postalCode: a.PatientAddressPostcode,
  ...fhirCountry(a.PatientAddressCountryCode, a.PatientAddressCountry),
});

/** Telecom backwards: each phone and e-mail address, a number without a type and a type without a number too. */
const telecom = (system: string, list: readonly TelecomFacts[]) => list.map((t) => fhirOnly({ system, value: t.value, use: useOf(t.type, CONTACT_USES) }));

/** II backwards, a person number with the URI system the adapter sends (docs/upstream-fhir.md §1.4). */
const numberSystem = (root: string): string => PERSON_NUMBER_KINDS.find((k) => k.oid === root)?.uri ?? systemOf(root);

function identifiers(facts: PatientFacts) {
  return [
    ...facts.numbers.map((n) => ({ ...(n.old === true ? { use: 'old' } : {}), system: numberSystem(n.ii.root), value: n.ii.extension })),
    ...withContent((facts.others ?? []).map((o) => fhirOnly({ type: o.type === undefined ? undefined : { text: o.type }, value: o.value }))),
  ];
}

/** The Patient; its managing organisation and that unit's head unit go to `out`, to follow it. */
export function patientResource(facts: PatientFacts, out: WrittenResources, ctx: AsFhirContext): FhirResource {
  const unit = facts.unitHsaId === undefined ? undefined : out.unit({ hsaId: facts.unitHsaId, headHsaId: facts.headHsaId }, ctx);
  const version = facts.version === undefined ? undefined : fhirInstant({ value: facts.version }, ctx.zone);
  return fhirOnly({
    resourceType: 'Patient',
    id: ctx.patientReference.replace(/^Patient\//, ''),
    meta: version === undefined && facts.protectedId !== true && (facts.tags ?? []).length === 0 ? undefined : fhirOnly({
      lastUpdated: version,
      // Protected identity (docs/upstream-fhir.md §1.5): the record says only that it is protected, not
      // which of HL7 Sweden's two kinds, so the label that says no more than that: restricted (R).
      security: facts.protectedId === true ? [{ system: CONFIDENTIALITY, code: 'R' }] : undefined,
      tag: (facts.tags ?? []).length === 0 ? undefined : facts.tags?.map((t) => ({ ...t })),
    }),
    identifier: identifiers(facts),
    name: facts.name === undefined ? undefined : withContent([humanName(facts.name)]),
    telecom: [...telecom('phone', facts.phones), ...telecom('email', facts.emails)],
    gender: facts.sex === undefined ? undefined : SEX[facts.sex],
    birthDate: dateOf(facts.birthDate, ctx),
    deceasedDateTime: dateOf(facts.deceasedDate, ctx),
    address: withContent(facts.addresses.map(address)),
    managingOrganization: unit,
  });
}

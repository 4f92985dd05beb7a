/**
 * Identifier and code systems (docs/upstream-fhir.md#identifier-systems): the form the adapter sends,
 * the forms it also accepts, and the OID each becomes in the API's `{root, extension}`.
 */
import type { Coding, FhirIdentifier } from '../../domain/fhir/resources/datatypes.js';
import { PERSON_NUMBER_KINDS, PERSONNUMMER, SAMORDNINGSNUMMER } from '../../domain/identity/person-number-systems.js';

const OID = 'urn:oid:';

/** The HSA id's root in every answer, whichever of its two systems the server wrote. */
export const HSA_OID = '1.2.752.129.2.1.4.1';
const HSA_SYSTEMS: ReadonlySet<string> = new Set([`${OID}${HSA_OID}`, `${OID}1.2.752.29.4.19`]);

export const NPL_OID = '1.2.752.129.2.1.5.1';
const NPL_SYSTEM = `${OID}${NPL_OID}`;
export const ATC_URI = 'http://www.whocc.no/atc';
const ATC_SYSTEMS: ReadonlySet<string> = new Set([
  ATC_URI, `${OID}2.16.840.1.113883.6.73`, `${OID}1.2.752.129.2.2.3.1.1`, `${OID}1.2.752.129.2.2.3.1`,
]);
export const ICD10SE_SYSTEMS: ReadonlySet<string> = new Set([
  `${OID}1.2.752.116.1.1.1`, `${OID}1.2.752.116.1.1.1.1.3`, `${OID}1.2.752.116.1.1.1.1.8`, 'http://hl7.org/fhir/sid/icd-10-se',
]);
export const KVA_SYSTEM = `${OID}1.2.752.116.1.3.2.1.4`;

/** The OIDs of the URI systems the table lists; any other URI stays as it is. */
const URI_OIDS: ReadonlyMap<string, string> = new Map([
  [PERSONNUMMER.uri, PERSONNUMMER.oid],
  [SAMORDNINGSNUMMER.uri, SAMORDNINGSNUMMER.oid],
  [ATC_URI, '2.16.840.1.113883.6.73'],
  ['http://hl7.org/fhir/sid/icd-10-se', '1.2.752.116.1.1.1'],
]);

/** A system as the API writes it: an OID without `urn:oid:`, a listed URI's OID, else the URI. */
export const rootOf = (system: string): string =>
  (system.startsWith(OID) ? system.slice(OID.length) : URI_OIDS.get(system) ?? system);

/** II(identifier): `{root, extension}`, absent without both a system and a value. */
export function ii(identifier: FhirIdentifier | undefined): { root: string; extension: string } | undefined {
  if (identifier?.system === undefined || identifier.value === undefined) return undefined;
  return { root: rootOf(identifier.system), extension: identifier.value };
}

/** Own(resource): the EHR's record id, made from the resource's logical id. */
export const own = (resource: { resourceType: string; id: string }, idRoot: string): { root: string; extension: string } =>
  ({ root: idRoot, extension: `${resource.resourceType}/${resource.id}` });

/** Every accepted form of a person number, as `system|value` for an `identifier` search (FHIR's OR). */
export const personNumberForms = (number: string): string[] =>
  PERSON_NUMBER_KINDS.flatMap((k) => [`${k.uri}|${number}`, `${OID}${k.oid}|${number}`]);

/** The HSA id among identifiers (a unit's, a member of staff's). */
export const hsaIdOf = (identifiers: readonly FhirIdentifier[] | undefined): string | undefined =>
  identifiers?.find((i) => i.system !== undefined && HSA_SYSTEMS.has(i.system) && i.value !== undefined)?.value;

const hsaRooted = (hsaId: string): { root: string; extension: string } => ({ root: HSA_OID, extension: hsaId });

/** A unit or a member of staff named by HSA id: `{root, extension}` with the HSA root. */
export const hsaIi = (hsaId: string | undefined): { root: string; extension: string } | undefined =>
  (hsaId === undefined ? undefined : hsaRooted(hsaId));

/** A unit named by HSA id as the camelCase layouts link one: `{unitID: {root, extension}}`. */
export const unitIdOf = (hsaId: string | undefined) => (hsaId === undefined ? undefined : { unitID: hsaRooted(hsaId) });

/** A unit named by HSA id as the PascalCase layouts link one: `{UnitID: {root, extension}}`. */
export const unitIdPascalOf = (hsaId: string | undefined) => (hsaId === undefined ? undefined : { UnitID: hsaRooted(hsaId) });

export const isAtc = (coding: Coding): boolean => coding.system !== undefined && ATC_SYSTEMS.has(coding.system);
export const isNpl = (coding: Coding): boolean => coding.system === NPL_SYSTEM;
export const isIcd10Se = (coding: Coding): boolean => coding.system !== undefined && ICD10SE_SYSTEMS.has(coding.system);
export const isKva = (coding: Coding): boolean => coding.system === KVA_SYSTEM;

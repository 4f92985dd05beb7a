/**
 * The delegation registry from tagged RelatedPersons (docs/upstream-fhir.md#4-the-delegation-registry):
 * a row needs the delegation tag (next of kin entered for contact give no right to the records),
 * the actor's own number, a patient with a number, a relationship code that grants something, and
 * a start date. What the server was asked to filter is checked again here.
 */
import type { Relationship, RelationshipType } from '../../domain/access/relationship.js';
import { dayOfAge } from '../../domain/identity/legal-age.js';
import { tsDate } from './fhir-time.js';
import { personNumberKindOf } from '../../domain/identity/person-number-systems.js';
import type { MapContext } from './map-context.js';
import type { ResourceIndex } from './resource-index.js';
import type { RelatedPerson } from '../../domain/fhir/resources/parties.js';

const ROLE_CODE = 'http://terminology.hl7.org/CodeSystem/v3-RoleCode';
const TYPES: Readonly<Record<string, RelationshipType>> = {
  GUARD: 'guardian',
  POWATT: 'power-of-attorney',
  HPOWATT: 'power-of-attorney',
  DPOWATT: 'power-of-attorney',
  SPOWATT: 'power-of-attorney',
  SPS: 'partner',
  HUSB: 'partner',
  WIFE: 'partner',
  DOMPART: 'partner',
};
const GUARDIANSHIP_ENDS_AT_AGE = 18;

export interface DelegationTag {
  system: string;
  code: string;
}

/** FHIR_DELEGATION_TAG as `system|code`. */
export function parseDelegationTag(setting: string): DelegationTag {
  const [system, code, ...rest] = setting.split('|');
  if (!system || !code || rest.length > 0) throw new RangeError('FHIR_DELEGATION_TAG must be system|code');
  return { system, code };
}

function dayBefore(date: string): string {
  const d = new Date(0);
  d.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(4, 6)) - 1, Number(date.slice(6, 8)) - 1);
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}

const earlier = (a: string | undefined, b: string): string => (a === undefined || b < a ? b : a);

function rowsOf(person: RelatedPerson, index: ResourceIndex, ctx: MapContext): Relationship[] {
  const patient = index.get(person.patient, 'Patient');
  const number = patient?.identifier?.find((i) => i.use !== 'old' && personNumberKindOf(i.system) !== undefined)?.value;
  const validFrom = tsDate(person.period?.start, ctx)?.value;
  if (patient === undefined || number === undefined || validFrom === undefined) return [];
  const validTo = tsDate(person.period?.end, ctx)?.value;
  const birth = tsDate(patient.birthDate, ctx)?.value;
  const types = new Set((person.relationship ?? []).flatMap((r) => r.coding ?? [])
    .filter((c) => c.system === ROLE_CODE && c.code !== undefined && Object.hasOwn(TYPES, c.code))
    .map((c) => TYPES[c.code as string] as RelationshipType));
  return [...types].map((type) => {
    const until = type === 'guardian' && birth !== undefined ? earlier(validTo, dayBefore(dayOfAge(birth, GUARDIANSHIP_ENDS_AT_AGE))) : validTo;
    return until === undefined ? { patient: number, type, validFrom } : { patient: number, type, validFrom, validTo: until };
  });
}

export function mapRelationships(
  matches: readonly RelatedPerson[], index: ResourceIndex, actor: string, tag: DelegationTag, ctx: MapContext,
): Relationship[] {
  return matches.filter((person) => person.active !== false
    && (person.meta?.tag ?? []).some((t) => t.system === tag.system && t.code === tag.code)
    && (person.identifier ?? []).some((i) => i.value === actor && personNumberKindOf(i.system) !== undefined))
    .flatMap((person) => rowsOf(person, index, ctx));
}

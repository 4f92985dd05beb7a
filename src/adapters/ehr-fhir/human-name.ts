/**
 * Name(names) (docs/upstream-fhir.md#rules-the-mapping-tables-use): the name in use, its parts as
 * HL7 Sweden writes them (the own family name and the middle name in extensions, `family` holding
 * both), given names with the ISO 21090 qualifier (`CL`: the name in use), and the name as one string.
 */
import { definedOnly } from '../../domain/records/defined.js';
import { extensionOf, SE_BASE } from './extensions.js';
import type { HumanName } from '../../domain/fhir/resources/datatypes.js';

const QUALIFIER = 'http://hl7.org/fhir/StructureDefinition/iso21090-EN-qualifier';

export interface GivenName {
  value: string;
  qualifier?: string;
}

export interface NameParts {
  family?: string;
  middle?: string;
  given: GivenName[];
  /** `text`, else the given names and `family` joined by spaces. */
  whole?: string;
}

/** The name with `use` official, else usual, else the first that is not old. */
export function nameInUse(names: readonly HumanName[] | undefined): HumanName | undefined {
  if (names === undefined) return undefined;
  return names.find((n) => n.use === 'official') ?? names.find((n) => n.use === 'usual') ?? names.find((n) => n.use !== 'old');
}

/** A name as one string: `text`, else given names and `family` joined by spaces. */
export function wholeName(name: HumanName | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (name.text !== undefined) return name.text;
  const parts = [...(name.given ?? []), ...(name.family === undefined ? [] : [name.family])];
  return parts.length === 0 ? undefined : parts.join(' ');
}

export function nameParts(names: readonly HumanName[] | undefined): NameParts | undefined {
  const name = nameInUse(names);
  if (name === undefined) return undefined;
  const given = (name.given ?? []).map((value, i): GivenName => {
    const qualifier = extensionOf(name._given?.[i]?.extension, QUALIFIER)?.valueCode;
    return qualifier === undefined ? { value } : { qualifier, value };
  });
  return {
    family: extensionOf(name.extension, `${SE_BASE}SEBaseOwnFamilyExtension`)?.valueString ?? name.family,
    middle: extensionOf(name.extension, `${SE_BASE}SEBaseMiddleNameExtension`)?.valueString,
    given,
    whole: wholeName(name),
  };
}

/** The patient's name block as the PascalCase layouts write it (journal notes, the older patient layout, attention signals). */
export const patientNamePascal = (name: NameParts | undefined) => (name === undefined ? undefined : definedOnly({
  PatientFamilyName: name.family, PatientMiddleName: name.middle, PatientGivenName: name.given,
}));

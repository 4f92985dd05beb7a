/**
 * The two kinds of Swedish identity number and the identifier systems that name them
 * (docs/upstream-fhir.md#identifier-systems): a URI and an OID each. A samordningsnummer (coordination
 * number) is written as a personnummer is, with 60 added to its day of birth, so every number is of
 * exactly one kind, and an identifier's system must be its number's.
 */
const OID = 'urn:oid:';

export const PERSONNUMMER = { uri: 'http://electronichealth.se/identifier/personnummer', oid: '1.2.752.129.2.1.3.1', name: 'Personnummer' } as const;
export const SAMORDNINGSNUMMER = {
  uri: 'http://electronichealth.se/identifier/samordningsnummer', oid: '1.2.752.129.2.1.3.3', name: 'Samordningsnummer',
} as const;
export const PERSON_NUMBER_KINDS = [PERSONNUMMER, SAMORDNINGSNUMMER] as const;
export type PersonNumberKind = (typeof PERSON_NUMBER_KINDS)[number];

/** The kind an identifier system names, in its URI or its `urn:oid:` form; undefined for any other system. */
export const personNumberKindOf = (system: string | undefined): PersonNumberKind | undefined =>
  PERSON_NUMBER_KINDS.find((k) => system === k.uri || system === `${OID}${k.oid}`);

/** Whether a 12-digit number is a coordination number: its day of birth is over 60. */
export const isCoordinationNumber = (number: string): boolean => Number(number.slice(6, 8)) > 60;

/** The kind a 12-digit number is. */
export const kindOfNumber = (number: string): PersonNumberKind => (isCoordinationNumber(number) ? SAMORDNINGSNUMMER : PERSONNUMMER);

/** A kind's system in its `urn:oid:` form. */
export const oidSystemOf = (kind: PersonNumberKind): string => `${OID}${kind.oid}`;

/**
 * Why a number cannot stand under the kind its identifier's system names, for the person who sent it
 * (the number itself is not repeated); undefined where it can.
 */
export function numberKindMismatch(number: string, named: PersonNumberKind): string | undefined {
  const kind = kindOfNumber(number);
  return kind === named ? undefined : `the number is a ${kind.name.toLowerCase()}, not a ${named.name.toLowerCase()}: give it with system ${kind.uri} (or ${oidSystemOf(kind)})`;
}

import { isCompactDate, isCompactDateTime } from '../../domain/time/local-time.js';
import { idRoot, type DemoPerson } from './people.js';
import { HSA_ROOT, LOCAL_UNIT_ROOT, UNITS, type UnitKey } from './units.js';
import { el, leaf, tag, type XmlElement } from './xml.js';

/** The upstream building blocks (docs/upstream-ehr.md#1-rules-every-document-follows): Identifier, TimeValue, Code, and the document namespaces. */

/**
 * The registry document's namespace. A read's document is written in the namespace its `sources.ts`
 * declares, handed to its writer (ReadDemo.xml): these helpers never import the table of documents,
 * which gathers the read folders whose demo writers import them (issue 57 item 7).
 */
export const RELATIONSHIPS_NS = 'urn:example:ehr:relationship:1';

export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
export const EHR_ID_ROOT = '1.2.752.99999.1.1';
/** The root of the record ids (rcId, rc_id, RcId) of the demo documents. */
export const RC_ROOT = '1.2.752.99999.1.2';

export function id(name: string, extension: string, root: string): XmlElement {
  return tag(name, { extension, root });
}

/** A TimeValue; refuses anything but a real 8- or 14-digit value so a bug cannot write a malformed document. */
export function tv(name: string, value: string): XmlElement {
  if (!isCompactDateTime(value) && !isCompactDate(value)) throw new RangeError(`${name}: not a 8- or 14-digit time value: ${value}`);
  return tag(name, { value });
}

export function optionalTv(name: string, value: string | undefined): XmlElement | undefined {
  return value === undefined ? undefined : tv(name, value);
}

export function code(name: string, codeSystem: string, displayName: string): XmlElement {
  return tag(name, { codeSystem }, tag('displayName', { value: displayName }));
}

export const bool = (value: boolean): string => (value ? 'true' : 'false');

/** An int leaf's text; refuses what the README's strict integer form would reject. */
export function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not an integer: ${value}`);
  return String(value);
}

/** A person's given names as `name` elements with attributes; qualifier CL marks the name in use (the first). */
export function givenNames(name: string, person: DemoPerson): XmlElement[] {
  return person.givenNames.map((value, i) => tag(name, { qualifier: i === 0 ? 'CL' : undefined, value }));
}

/**
 * The patient of an extract, as every layout names its members: the camelCase layouts `patient…`,
 * the PascalCase ones `Patient…`. One writer, so a member added to one document is added to all.
 */
export function extractPatient(prefix: 'patient' | 'Patient', person: DemoPerson): XmlElement {
  return el(prefix,
    id(`${prefix}ID`, person.id, idRoot(person.id)),
    el(`${prefix}ProtectedId`, bool(person.protectedIdentity)),
    el(`${prefix}Name`,
      el(`${prefix}FamilyName`, person.familyName),
      leaf(`${prefix}MiddleName`, person.middleName),
      givenNames(`${prefix}GivenName`, person)));
}

/** The vendor's SimpleUnit: a unit by its HSA id and its local id. */
export const simpleUnit = (name: string, key: UnitKey): XmlElement => el(name,
  id('unitID', UNITS[key].hsaId, HSA_ROOT), id('unitLocalID', UNITS[key].localId, LOCAL_UNIT_ROOT));

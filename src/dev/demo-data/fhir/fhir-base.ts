/**
 * What every FHIR writer of the demo data shares (docs/upstream-fhir.md): the identifier systems,
 * the logical ids of the shared parties, references, and time as FHIR writes it (an instant with
 * the zone's offset, a date as a date). The FHIR form is made from the same description as the XML
 * documents (people.ts, units.ts, *-data.ts), never from a copy of it.
 */
import { compactToEpochMs, compactToOffsetIso } from '../../../domain/time/local-time.js';
import type { DemoClock } from '../clock.js';
import { isCoordinationNumber } from '../../../domain/identity/person-number-systems.js';
import type { DemoPerson } from '../people.js';
import { STAFF, type StaffKey, type UnitKey } from '../units.js';

export type FhirResource = { resourceType: string; id: string } & Record<string, unknown>;

export const SYSTEMS = {
  personnummer: 'http://electronichealth.se/identifier/personnummer',
  samordningsnummer: 'http://electronichealth.se/identifier/samordningsnummer',
  hsa: 'urn:oid:1.2.752.129.2.1.4.1',
  icd10se: 'urn:oid:1.2.752.116.1.1.1',
  kva: 'urn:oid:1.2.752.116.1.3.2.1.4',
  npl: 'urn:oid:1.2.752.129.2.1.5.1',
  atc: 'http://www.whocc.no/atc',
  npu: 'urn:oid:1.2.208.176.2.1',
  participationType: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType',
  confidentiality: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality',
  seSecurity: 'http://hl7.se/fhir/ig/base/CodeSystem/SecurityLabel',
} as const;

/** The demo's settings for the fhir-r4 adapter (FHIR_ID_ROOT, FHIR_VIDEO_ACTION_ID_SYSTEM, FHIR_DELEGATION_TAG). */
export const DEMO_FHIR_SETTINGS = {
  idRoot: '1.2.752.99999.1.1',
  videoActionIdSystem: 'urn:oid:1.2.752.99999.1.8',
  delegationTag: { system: 'http://example.org/fhir/pdas/CodeSystem/registry', code: 'delegation' },
} as const;

/** The demo's own identifier systems: the OIDs the XML documents give the same ids. */
export const LOCAL_SYSTEMS = {
  treatment: 'urn:oid:1.2.752.99999.1.5',
  note: 'urn:oid:1.2.752.99999.1.6',
} as const;

/** A logical id that names no identity number (it travels in URLs): the person's slot base. */
export const patientId = (person: DemoPerson): string => `pat-${person.slotBase}`;
export const orgId = (unit: UnitKey | 'head'): string => `org-${unit}`;
export const locationId = (unit: UnitKey): string => `loc-${unit}`;
export const practitionerId = (staff: StaffKey): string => `prac-${staff}`;
/** A clinician's PractitionerRole at their own unit (`role-doris`), or at another one they worked for (`role-doris-akut`). */
export const roleId = (staff: StaffKey, unit: UnitKey = STAFF[staff].unit): string =>
  (unit === STAFF[staff].unit ? `role-${staff}` : `role-${staff}-${unit}`);

export const ref = (type: string, id: string): { reference: string } => ({ reference: `${type}/${id}` });
export const patientRef = (person: DemoPerson) => ref('Patient', patientId(person));
export const text = (value: string): { text: string } => ({ text: value });

export function personNumberIdentifier(person: DemoPerson): { use: 'official'; system: string; value: string } {
  return { use: 'official', system: isCoordinationNumber(person.id) ? SYSTEMS.samordningsnummer : SYSTEMS.personnummer, value: person.id };
}

/** A 14-digit local time as a FHIR instant with the zone's offset at that instant (`2026-12-14T09:30:00+01:00`). */
export const instant = (compact: string, zone: string): string => compactToOffsetIso(compact, zone);

/** `meta` of a resource last changed at the local time `compact`, version 1 (the server keeps both while seeding). */
export const meta = (compact: string, clock: DemoClock, more: Record<string, unknown> = {}) =>
  ({ versionId: '1', lastUpdated: new Date(compactToEpochMs(compact, clock.zone)).toISOString(), ...more });

/** A decimal written as text upstream ("2,5", "084"), as a FHIR number. */
export const decimal = (value: string): number => Number(value.replace(',', '.'));

/**
 * A Quantity's value from a decimal written as text upstream: the FHIR number, and where the text has a
 * decimal comma (`2,5`) the text as written in FHIR's `rendered-value` extension on the value, as a
 * Swedish EHR in this dialect writes it (docs/upstream-fhir.md#text-numbers-and-codes).
 */
export const decimalValue = (value: string): { value: number; _value?: { extension: { url: string; valueString: string }[] } } =>
  (value.includes(',')
    ? { value: decimal(value), _value: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/rendered-value', valueString: value }] } }
    : { value: decimal(value) });

/** The security labels of a record kept with a secrecy level (FHIR's `R`), none for a normal one. */
export const secrecyLabels = (secrecy: string | undefined): { system: string; code: string }[] =>
  (secrecy === undefined || secrecy === 'Normal' ? [] : [{ system: SYSTEMS.confidentiality, code: 'R' }]);

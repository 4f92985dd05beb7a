/**
 * Address(a) (docs/upstream-fhir.md#rules-the-mapping-tables-use): care-of lines apart from the
 * street, the HL7 Sweden address type, and only addresses still in use (not `old`, period not ended).
 */
import { extensionOf, SE_BASE } from './extensions.js';
import { hasEnded } from './fhir-time.js';
import type { MapContext } from './map-context.js';
import type { FhirAddress } from '../../domain/fhir/resources/datatypes.js';

export interface AddressParts {
  careOf?: string;
  street?: string;
  postcode?: string;
  city?: string;
  county?: string;
  country?: string;
  /** The HL7 Sweden address type's coding (e.g. folkbokföringsadress). */
  seType?: { code?: string; display?: string };
  /** The type as one string: the Swedish type's display, else its code, else `use`. */
  typeText?: string;
  text?: string;
}

const CARE_OF = /^c\/o /i;
const joined = (lines: string[]): string | undefined => (lines.length === 0 ? undefined : lines.join(', '));

export function addressParts(a: FhirAddress): AddressParts {
  const lines = a.line ?? [];
  const coding = extensionOf(a.extension, `${SE_BASE}SEBaseAddressPersonExtension`)?.valueCodeableConcept?.coding?.[0];
  const seType = coding === undefined ? undefined : { code: coding.code, display: coding.display };
  return {
    careOf: joined(lines.filter((l) => CARE_OF.test(l))),
    street: joined(lines.filter((l) => !CARE_OF.test(l))),
    postcode: a.postalCode,
    city: a.city,
    county: a.district,
    country: a.country,
    seType,
    typeText: seType?.display ?? seType?.code ?? a.use,
    text: a.text,
  };
}

/** The addresses still in use: not `old`, and no period that has ended. */
export const currentAddresses = (addresses: readonly FhirAddress[] | undefined, ctx: MapContext): FhirAddress[] =>
  (addresses ?? []).filter((a) => a.use !== 'old' && !hasEnded(a.period, ctx.nowMs, ctx));

/** The members of a patient's address the two patient layouts share (v2 adds the county). */
export function patientAddressMembers(a: FhirAddress) {
  const parts = addressParts(a);
  const country = countryFields(a);
  return {
    PatientAddressType: parts.typeText,
    PatientAddressCO: parts.careOf,
    PatientAddressStreet: parts.street,
    PatientAddressPostcode: parts.postcode,
    PatientAddressCity: parts.city,
    PatientAddressCountryCode: country.code,
    PatientAddressCountry: country.name,
    county: parts.county,
  };
}

/** FHIR's coding of a string (ISO 21090 SC): on `_country`, the country's ISO 3166 code beside its name. */
export const SC_CODING = 'http://hl7.org/fhir/StructureDefinition/iso21090-SC-coding';
export const ISO_3166 = 'urn:iso:std:iso:3166';

/**
 * For layouts with both a country and a country code (docs/upstream-fhir.md, Address): the country as the EHR
 * wrote it, a two-letter value (ISO 3166) the code and anything else the country. A country written
 * as a name may carry its code in the SC-coding extension on `_country`, which is then the code beside
 * it (the service's own FHIR API writes a legacy address's code and name so). Nothing is made up: `SE`
 * is the code alone (issue 52 item 19a).
 */
export function countryFields(a: Pick<FhirAddress, 'country' | '_country'>): { code?: string; name?: string } {
  const code = extensionOf(a._country?.extension, SC_CODING)?.valueCoding?.code;
  if (a.country === undefined) return code === undefined ? {} : { code };
  if (code !== undefined) return a.country === code ? { code } : { code, name: a.country };
  return /^[A-Z]{2}$/.test(a.country) ? { code: a.country } : { name: a.country };
}

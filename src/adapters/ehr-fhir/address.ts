/**
 * Address(a) (docs/upstream-fhir.md#rules-the-mapping-tables-use): care-of lines apart from the
 * street, the HL7 Sweden address type, and only addresses still in use (not `old`, period not ended).
 */
import { extensionOf, SE_BASE } from './extensions.js';
import { hasEnded } from './fhir-time.js';
import type { MapContext } from './map-context.js';
import type { FhirAddress } from '../../domain/fhir/resources/datatypes.js';
import { swedishCountryName } from '../../domain/records/country.js';

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
  const country = countryFields(parts.country);
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

/**
 * For layouts with both a country and a country code: a two-letter value (ISO 3166) is the code, and
 * the country's Swedish name the country, as the legacy layouts write it beside the code (`SE`,
 * `Sverige`; issue 45 item 15, docs/upstream-fhir.md Address); anything else is the country.
 */
export function countryFields(country: string | undefined): { code?: string; name?: string } {
  if (country === undefined) return {};
  if (!/^[A-Z]{2}$/.test(country)) return { name: country };
  const name = swedishCountryName(country);
  return name === undefined ? { code: country } : { code: country, name };
}

/**
 * A country's Swedish name (docs/upstream-fhir.md#rules-the-mapping-tables-use, Address): FHIR's `Address.country`
 * of a patient carries the ISO 3166 code (`SE`), the legacy patient layouts the code and the Swedish name
 * (`Sverige`) beside it. The names are the Unicode CLDR's Swedish region names, as the runtime's Intl holds them.
 */

const SWEDISH = new Intl.DisplayNames('sv', { type: 'region', fallback: 'none' });
const CODE = /^[A-Z]{2}$/;

/** The Swedish name of an ISO 3166 code (`SE` → `Sverige`); undefined for a text that is no assigned code. */
export function swedishCountryName(code: string): string | undefined {
  if (!CODE.test(code)) return undefined;
  const name = SWEDISH.of(code);
  return name === undefined || name === code ? undefined : name;
}

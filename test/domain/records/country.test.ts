/**
 * Issue 45 item 15: one rule for a country (docs/upstream-fhir.md, Address). A patient's Address.country carries
 * the ISO 3166 code (`SE`); the legacy patient layouts hold the code and its Swedish name (`Sverige`) beside it,
 * so the `fhir-r4` adapter gives both back and a second instance answers `Sverige` where the first did.
 * Failed before: a patient's two-letter country gave the code alone (the chain test's PatientAddressCountry).
 */
import { describe, expect, it } from 'vitest';
import { countryFields } from '../../../src/adapters/ehr-fhir/address.js';
import { swedishCountryName } from '../../../src/domain/records/country.js';

describe('a patient\'s country: the ISO code on FHIR, the code and its Swedish name in the layouts', () => {
  it.each([['SE', 'Sverige'], ['FI', 'Finland'], ['NO', 'Norge'], ['DK', 'Danmark']])('%s gives %s beside it', (code, name) => {
    expect(swedishCountryName(code)).toBe(name);
    expect(countryFields(code)).toEqual({ code, name });
  });

  it('keeps a name as the country, an unassigned code as a code alone, and invents nothing for none', () => {
    expect([swedishCountryName('XX'), swedishCountryName('se'), swedishCountryName('Sverige')]).toEqual([undefined, undefined, undefined]);
    expect(countryFields('Sverige')).toEqual({ name: 'Sverige' });
    expect(countryFields('XX')).toEqual({ code: 'XX' });
    expect(countryFields(undefined)).toEqual({});
  });
});

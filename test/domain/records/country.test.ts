/**
 * One rule for a country (docs/upstream-fhir.md, Address): `Address.country` is the
 * country as the EHR wrote it. Where a layout has both a country and a country code, a two-letter value (ISO 3166)
 * is the code and anything else the country; a country written as a name may carry its code in the
 * `iso21090-SC-coding` extension on `_country` (FHIR's coding of a string), which gives the code beside the name.
 * The adapter never invents a value: `SE` gives the code alone, never a name of its own making.
 * Issue 52 item 19a. Failed before: `SE` gave `Sverige` beside it (issue 45 item 15's name, against the upstream's address rule),
 * and the extension was not read (`Sverige` with `SE` gave the name alone).
 */
import { describe, expect, it } from 'vitest';
import { countryFields } from '../../../src/adapters/ehr-fhir/address.js';

const SC_CODING = 'http://hl7.org/fhir/StructureDefinition/iso21090-SC-coding';
const coded = (code: string) => ({ extension: [{ url: SC_CODING, valueCoding: { system: 'urn:iso:std:iso:3166', code } }] });

describe('a patient\'s country: as the EHR wrote it, a two-letter value the code', () => {
  it.each(['SE', 'FI', 'NO', 'XX'])('%s is the code alone, no name made up beside it', (code) => {
    expect(countryFields({ country: code })).toEqual({ code });
  });

  it('keeps a name as the country, exactly as written, and gives nothing for none', () => {
    expect(countryFields({ country: 'Sverige' })).toEqual({ name: 'Sverige' });
    expect(countryFields({ country: ' sverige ' })).toEqual({ name: ' sverige ' });
    expect(countryFields({ country: 'se' })).toEqual({ name: 'se' });
    expect(countryFields({})).toEqual({});
  });

  it('gives the code of the SC-coding extension beside the name as written', () => {
    expect(countryFields({ country: 'Sverige', _country: coded('SE') })).toEqual({ code: 'SE', name: 'Sverige' });
    expect(countryFields({ country: 'SE', _country: coded('SE') })).toEqual({ code: 'SE' });
    expect(countryFields({ country: 'SWE', _country: coded('SWE') })).toEqual({ code: 'SWE' });
    // Another extension says nothing of the code.
    expect(countryFields({ country: 'Sverige', _country: { extension: [{ url: 'http://example.org/other', valueString: 'SE' }] } })).toEqual({ name: 'Sverige' });
  });
});

/**
 * Issue 52 item 19b (docs/upstream-fhir.md#text-numbers-and-codes): a decimal the EHR wrote with a comma reaches
 * the patient as written. FHIR's decimal has a point; the text as written travels in FHIR's `rendered-value`
 * extension on the value, which the `fhir-r4` adapter answers where it writes the same number. Failed before: the
 * extension was not read (`12,5` came back `12.5`, in lab results, journal notes, medications alike).
 */
import { describe, expect, it } from 'vitest';
import { valueAsWritten } from '../../../src/adapters/ehr-fhir/rendered-value.js';
import { parseFhirJson } from '../../../src/adapters/ehr-fhir/fhir-json.js';
import type { Quantity } from '../../../src/domain/fhir/resources/datatypes.js';

const RENDERED = 'http://hl7.org/fhir/StructureDefinition/rendered-value';
/** A Quantity as a FHIR server sends it, read as the adapter reads an answer (numbers keep their text). */
const quantity = (value: string, rendered?: string, url = RENDERED): Quantity => parseFhirJson(
  `{"value":${value}${rendered === undefined ? '' : `,"_value":{"extension":[{"url":"${url}","valueString":${JSON.stringify(rendered)}}]}`}}`,
) as Quantity;

describe('a Quantity\'s value as the EHR wrote it', () => {
  it.each([
    ['12.5', '12,5', '12,5'],
    ['-0.25', '-0,25', '-0,25'],
    // A server that keeps numbers as numbers drops trailing zeros (Medplum, docs/upstream-fhir.md): the text keeps them.
    ['4', '4,0', '4,0'],
    ['4.0', '4.0', '4.0'],
  ])('value %s with rendered-value %s is %s', (value, rendered, expected) => {
    expect(valueAsWritten(quantity(value, rendered))).toBe(expected);
  });

  it('answers the value as written where there is no rendered text, or one of another number, or another extension', () => {
    expect(valueAsWritten(quantity('4.0'))).toBe('4.0');
    expect(valueAsWritten(quantity('12.5', '13,5'))).toBe('12.5');
    expect(valueAsWritten(quantity('12.5', '12,5 mmol/L'))).toBe('12.5');
    expect(valueAsWritten(quantity('12.5', '1.2,5'))).toBe('12.5');
    expect(valueAsWritten(quantity('12.5', '12,5', 'http://example.org/other'))).toBe('12.5');
    expect(valueAsWritten(undefined)).toBeUndefined();
  });
});

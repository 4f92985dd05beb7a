/**
 * A product's strength on the COS door (H6): a Ratio shown whole, its denominator in the unit
 * (`mg/5 ml`), a combination product's as its label writes it (`160/4,5` `mikrog/dos`), or refused
 * where the one strength of the layout cannot hold it faithfully.
 */
import { describe, expect, it } from 'vitest';
import { parseFhirJson } from '../../../src/adapters/ehr-fhir/fhir-json.js';
import { mapMedications } from '../../../src/reads/medications/fhir.js';
import { demoResources, mapContext, readInput, type RawResource } from './support/demo-bundle.js';

/** The product of a prescription whose contained Medication has `ingredient` (JSON text, read as the adapter reads it). */
const productOf = (ingredient: string) => {
  const request = parseFhirJson(`{"resourceType": "MedicationRequest", "id": "mr-0003", "status": "active", "intent": "order",
    "contained": [{"resourceType": "Medication", "id": "m", "code": {"text": "Produkt"}, "ingredient": ${ingredient}}],
    "medicationReference": {"reference": "#m"}, "subject": {"reference": "Patient/pat-tolvan"}, "authoredOn": "2025-03-04T10:00:00+01:00"}`) as RawResource;
  const extracts = mapMedications(readInput(['MedicationRequest'], { resources: [...demoResources(), request] }), mapContext())[0]?.PrescriptionEHRExtract ?? [];
  // The demo's two prescriptions first, in the bundle's order.
  const main = extracts[2]?.Prescription?.MainProductTreatment;
  return [main?.PrescriptionProductStrengthNumeric, main?.PrescriptionProductStrengthNumericUnit];
};
const strength = (numerator: string, denominator?: string) =>
  `[{"strength": {"numerator": ${numerator}${denominator === undefined ? '' : `, "denominator": ${denominator}`}}}]`;

describe('a medication strength, a Ratio', () => {
  it.each([
    ['2.5 mg per 5 ml', strength('{"value": 2.5, "unit": "mg"}', '{"value": 5, "unit": "ml"}'), ['2.5', 'mg/5 ml']],
    ['10 mg per 1 ml', strength('{"value": 10, "unit": "mg"}', '{"value": 1, "unit": "ml"}'), ['10', 'mg/ml']],
    ['500 mg per 1.0 tablett, by UCUM code', strength('{"value": 500, "code": "mg"}', '{"value": 1.0, "code": "tablett"}'), ['500', 'mg/tablett']],
    ['a denominator of 2,5 ml as written', strength('{"value": 1, "unit": "mg"}', '{"value": 2.5, "unit": "ml", "_value": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/rendered-value", "valueString": "2,5"}]}}'), ['1', 'mg/2,5 ml']],
    ['per 1 of nothing: a plain strength', strength('{"value": 2.50, "unit": "mg"}', '{"value": 1}'), ['2.50', 'mg']],
    ['as this service\'s FHIR door writes a COS strength', strength('{"value": 2.5, "unit": "mg/5 ml"}', '{"value": 1}'), ['2.5', 'mg/5 ml']],
    ['no denominator', strength('{"value": 2.50, "unit": "mg"}'), ['2.50', 'mg']],
    // A combination product as its label writes it (Symbicort 160/4,5 mikrog/dos), each number as written.
    ['two ingredients per the same unit (Budesonid 160 mikrog, Formoterol 4,5 mikrog, per dose)', `[
      {"itemCodeableConcept": {"text": "Budesonid"}, "strength": {"numerator": {"value": 160, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}},
      {"itemCodeableConcept": {"text": "Formoterol"}, "strength": {"numerator": {"value": 4.5, "unit": "mikrog",
        "_value": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/rendered-value", "valueString": "4,5"}]}}, "denominator": {"value": 1, "unit": "dos"}}}]`,
    ['160/4,5', 'mikrog/dos']],
    // helper-216, F7: an inactive ingredient was joined into the label's strength. Failed before.
    ['a combination beside an inactive ingredient of a strength', `[
      {"strength": {"numerator": {"value": 160, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}},
      {"strength": {"numerator": {"value": 4.5, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}},
      {"itemCodeableConcept": {"text": "Laktos"}, "isActive": false, "strength": {"numerator": {"value": 800, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}}]`,
    ['160/4.5', 'mikrog/dos']],
    // helper-217, F6, F10: an inactive ingredient's strength alone is no product's; a legacy unit with no number comes back. Failed before.
    ['an inactive ingredient\'s strength alone: none', '[{"isActive": false, "strength": {"numerator": {"value": 500, "unit": "mg"}, "denominator": {"value": 1, "unit": "tablett"}}}]', [undefined, undefined]],
    ['a unit with no number, as this service writes a legacy one', strength('{"unit": "mg"}', '{"value": 1}'), [undefined, 'mg']],
    ['a strength beside an ingredient that states none (an excipient)', '[{"strength": {"numerator": {"value": 160, "unit": "mikrog"}}}, {"itemCodeableConcept": {"text": "Laktos"}}]', ['160', 'mikrog']],
  ])('shows %s', (_, ingredient, shown) => {
    expect(productOf(ingredient)).toEqual(shown);
  });

  it.each([
    // helper-217, F5: an ingredient marked active with no strength leaves the product's unknown. Failed before.
    ['a strength beside an active ingredient of none', '[{"strength": {"numerator": {"value": 160, "unit": "mikrog"}}}, {"itemCodeableConcept": {"text": "Formoterol"}, "isActive": true}]'],
    ['two ingredients in different units, which one unit cannot say', `[
      {"itemCodeableConcept": {"text": "Budesonid"}, "strength": {"numerator": {"value": 160, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}},
      {"itemCodeableConcept": {"text": "Formoterol"}, "strength": {"numerator": {"value": 0.0045, "unit": "mg"}, "denominator": {"value": 1, "unit": "dos"}}}]`],
    ['two ingredients per different amounts', `[
      {"strength": {"numerator": {"value": 160, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}},
      {"strength": {"numerator": {"value": 4.5, "unit": "mikrog"}, "denominator": {"value": 2, "unit": "dos"}}}]`],
    ['a denominator of no unit but 1', strength('{"value": 2.5, "unit": "mg"}', '{"value": 5}')],
    ['a denominator of no value', strength('{"value": 2.5, "unit": "mg"}', '{"unit": "ml"}')],
    ['a denominator of a unit under a numerator of none', strength('{"value": 2.5}', '{"value": 1, "unit": "ml"}')],
    ['a numerator of a unit and no value', strength('{"unit": "mg"}', '{"value": 1, "unit": "ml"}')],
    // helper-218: a combination of a number and a unit alone read `160/`; a strength of nothing over 1 read as none. Failed before.
    ['a combination of a number and a unit with none', `[
      {"strength": {"numerator": {"value": 160, "unit": "mikrog/dos"}, "denominator": {"value": 1}}},
      {"strength": {"numerator": {"unit": "mikrog/dos"}, "denominator": {"value": 1}}}]`],
    ['an empty numerator over 1', strength('{}', '{"value": 1}')],
    // helper-219, F5: a blank written value passed for a number (`160/ `). Failed before.
    ['a combination of a number and a blank written one', `[
      {"strength": {"numerator": {"value": 160, "unit": "mikrog"}, "denominator": {"value": 1, "unit": "dos"}}},
      {"strength": {"numerator": {"unit": "mikrog", "_value": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/rendered-value", "valueString": " "}]}}, "denominator": {"value": 1, "unit": "dos"}}}]`],
    ['a strength of a comparator', strength('{"value": 5, "comparator": "<", "unit": "mg"}', '{"value": 1, "unit": "ml"}')],
  ])('refuses %s', (_, ingredient) => {
    expect(() => productOf(ingredient)).toThrow(/FHIR answer refused: a Medication strength the prescription layout cannot hold/);
  });
});

/** A choice element (`value[x]`) given in more than one form is refused, whichever resource holds it (H7). */
import { describe, expect, it } from 'vitest';
import { mapLabResults } from '../../../src/reads/lab-results/fhir.js';
import { mapMedications } from '../../../src/reads/medications/fhir.js';
import { changed, mapContext, readInput, type RawResource } from './support/demo-bundle.js';

const labResults = (resources: RawResource[]) => mapLabResults(readInput(['DiagnosticReport'], { resources }), mapContext());
const medications = (resources: RawResource[]) => mapMedications(readInput(['MedicationRequest'], { resources }), mapContext());
const MORE_THAN_ONE = /FHIR answer refused: .* more than one form of a choice element/;

describe('a choice element in two forms', () => {
  it.each([
    ['an Observation\'s value[x] (a text "<5" beside a quantity 6.1)', () => labResults(changed('Observation/obs-0002', (r) => {
      r.valueString = '<5';
      r.valueQuantity = { value: 6.1, unit: 'mmol/L' };
    }))],
    ['a DiagnosticReport\'s effective[x]', () => labResults(changed('DiagnosticReport/dr-0001', (r) => {
      r.effectivePeriod = { start: '2025-03-01T09:50:00+01:00' };
    }))],
    ['a product, as a reference and as a concept', () => medications(changed('MedicationRequest/mr-0001', (r) => {
      r.medicationCodeableConcept = { text: 'Alvedon' };
    }))],
    ['a Timing\'s bounds[x], nested in a dosage', () => medications(changed('MedicationRequest/mr-0001', (r) => {
      const [dosage] = r.dosageInstruction as { timing: { repeat: Record<string, unknown> } }[];
      if (dosage !== undefined) dosage.timing.repeat.boundsDuration = { value: 14, unit: 'd' };
    }))],
  ])('%s is refused', (_, read) => {
    expect(read).toThrow(MORE_THAN_ONE);
  });

  it('keeps one form with its primitive extension (`valueString` with `_valueString`) and two elements of one name stem', () => {
    expect(() => labResults(changed('Observation/obs-0002', (r) => {
      delete r.valueQuantity;
      r.valueString = 'Negativ';
      r._valueString = { extension: [{ url: 'http://example.org/x', valueString: 'y' }] };
    }))).not.toThrow();
    expect(() => medications(changed('MedicationRequest/mr-0001', (r) => {
      r.reasonReference = [{ reference: 'Condition/cond-0001' }];
    }))).not.toThrow();
  });
});

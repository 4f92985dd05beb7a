/**
 * Lab results' section of the patient summary (docs/fhir-api.md#patient-summary): IPS's Results,
 * there only with entries, each a result's name, its value as written (its comparator and digits) and date.
 */
import { conceptText, type Concept } from '../../domain/fhir/narrative-labels.js';
import type { SummaryEntry, SummarySection } from '../../domain/fhir/resources/resource-type.js';

/** A value is a number, or a decimal's text as `JSON.rawJSON` holds it where a number would lose digits (`4.0`). */
interface Quantity { value?: number | { readonly rawJSON: string }; comparator?: string; unit?: string }

function valueOf(observation: SummaryEntry): string | undefined {
  const quantity = observation.valueQuantity as Quantity | undefined;
  if (quantity?.value !== undefined) {
    // `<5` is not 5: the comparator is part of the result, and the digits are the record's.
    const digits = typeof quantity.value === 'number' ? String(quantity.value) : quantity.value.rawJSON;
    return [`${quantity.comparator ?? ''}${digits}`, quantity.unit].filter((p) => p !== undefined).join(' ');
  }
  if (typeof observation.valueString === 'string') return observation.valueString;
  return conceptText(observation.valueCodeableConcept as Concept | undefined);
}

function resultLine(r: SummaryEntry): string {
  const name = conceptText(r.code as Concept | undefined) ?? r.resourceType;
  const value = valueOf(r);
  const date = typeof r.effectiveDateTime === 'string' ? r.effectiveDateTime.slice(0, 10) : undefined;
  return `${name}${value === undefined ? '' : `: ${value}`}${date === undefined ? '' : ` (${date})`}`;
}

export const RESULTS: SummarySection = {
  code: '30954-2', display: 'Relevant diagnostic tests/laboratory data Narrative', title: 'Results', required: false, noneKnown: 'No results.', words: { sv: 'Provsvar', en: 'Results' }, position: 4, line: resultLine,
};

/**
 * One line of a summary section's narrative per entry (docs/fhir-api.md#patient-summary): what the
 * resource names, in the EHR's own words (a concept's text, else a coding's display, else its code),
 * with a result's value as written (its comparator and digits) and date. IPS wants every section
 * readable without its entries.
 */
import type { FhirResource } from '../../reads/as-fhir.js';

interface Concept { text?: string; coding?: { code?: string; display?: string }[] }
/**
 * A value is a number, or a decimal's text as `JSON.rawJSON` holds it where a number would lose digits
 * (`4.0`): the shape of src/reads/as-fhir-datatypes.ts's RawJson, which the domain may not import.
 */
interface Quantity { value?: number | { readonly rawJSON: string }; comparator?: string; unit?: string }

function conceptText(concept: Concept | undefined): string | undefined {
  if (concept === undefined) return undefined;
  return concept.text ?? concept.coding?.find((c) => c.display !== undefined)?.display ?? concept.coding?.find((c) => c.code !== undefined)?.code;
}

/** A medication's name: its own concept, or the Medication it references (contained, or in the document). */
function medicationOf(request: FhirResource, resolve: (reference: string) => FhirResource | undefined): string | undefined {
  const own = conceptText(request.medicationCodeableConcept as Concept | undefined);
  if (own !== undefined) return own;
  const reference = (request.medicationReference as { reference?: string } | undefined)?.reference;
  if (reference === undefined) return undefined;
  const contained = (request.contained as FhirResource[] | undefined) ?? [];
  const medication = reference.startsWith('#') ? contained.find((c) => `#${c.id}` === reference) : resolve(reference);
  return conceptText(medication?.code as Concept | undefined);
}

function valueOf(observation: FhirResource): string | undefined {
  const quantity = observation.valueQuantity as Quantity | undefined;
  if (quantity?.value !== undefined) {
    // `<5` is not 5: the comparator is part of the result, and the digits are the record's.
    const digits = typeof quantity.value === 'number' ? String(quantity.value) : quantity.value.rawJSON;
    return [`${quantity.comparator ?? ''}${digits}`, quantity.unit].filter((p) => p !== undefined).join(' ');
  }
  if (typeof observation.valueString === 'string') return observation.valueString;
  return conceptText(observation.valueCodeableConcept as Concept | undefined);
}

/** The entry's line in its section's narrative. */
export function entryLabel(r: FhirResource, resolve: (reference: string) => FhirResource | undefined): string {
  const name = (r.resourceType === 'MedicationRequest' ? medicationOf(r, resolve) : conceptText(r.code as Concept | undefined)) ?? r.resourceType;
  if (r.resourceType !== 'Observation') return name;
  const value = valueOf(r);
  const date = typeof r.effectiveDateTime === 'string' ? r.effectiveDateTime.slice(0, 10) : undefined;
  return `${name}${value === undefined ? '' : `: ${value}`}${date === undefined ? '' : ` (${date})`}`;
}

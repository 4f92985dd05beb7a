/**
 * Medications' section of the patient summary (docs/fhir-api.md#patient-summary): IPS's Medication
 * Summary, which IPS requires, each entry named by its medication.
 */
import { conceptText, type Concept } from '../../domain/fhir/narrative-labels.js';
import type { Resolve, SummaryEntry, SummarySection } from '../../domain/fhir/resources/resource-type.js';

/** A medication's name: its own concept, or the Medication it references (contained, or in the document). */
function medicationOf(request: SummaryEntry, resolve: Resolve): string | undefined {
  const own = conceptText(request.medicationCodeableConcept as Concept | undefined);
  if (own !== undefined) return own;
  const reference = (request.medicationReference as { reference?: string } | undefined)?.reference;
  if (reference === undefined) return undefined;
  const contained = (request.contained as SummaryEntry[] | undefined) ?? [];
  const medication = reference.startsWith('#') ? contained.find((c) => `#${c.id}` === reference) : resolve(reference);
  return conceptText(medication?.code as Concept | undefined);
}

export const MEDICATION_SUMMARY: SummarySection = {
  code: '10160-0', display: 'History of Medication use Narrative', title: 'Medication Summary', required: true, noneKnown: 'No known medications.', words: { sv: 'Läkemedel', en: 'Medications' }, position: 3,
  line: (r, resolve) => medicationOf(r, resolve) ?? r.resourceType,
};

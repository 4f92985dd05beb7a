/**
 * Attention signals' section of the patient summary (docs/fhir-api.md#patient-summary): IPS's
 * Allergies and Intolerances, which IPS requires, each entry named by its code.
 */
import { statedLine } from '../../domain/fhir/narrative-labels.js';
import type { SummarySection } from '../../domain/fhir/resources/resource-type.js';

export const ALLERGIES: SummarySection = {
  code: '48765-2', display: 'Allergies and adverse reactions Document', title: 'Allergies and Intolerances', required: true,
  noneKnown: 'No known allergies or intolerances.', words: { sv: 'Allergier och överkänslighet', en: 'Allergies and intolerances' }, position: 2, line: statedLine,
};

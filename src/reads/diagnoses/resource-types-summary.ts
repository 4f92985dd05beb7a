/**
 * Diagnoses' section of the patient summary (docs/fhir-api.md#patient-summary): IPS's Problems,
 * which IPS requires, each entry named by its code.
 */
import { statedLine } from '../../domain/fhir/narrative-labels.js';
import type { SummarySection } from '../../domain/fhir/resources/resource-type.js';

export const PROBLEMS: SummarySection = {
  code: '11450-4', display: 'Problem list - Reported', title: 'Problems', required: true, noneKnown: 'No known problems.', words: { sv: 'Problem och diagnoser', en: 'Problems' }, position: 1, line: statedLine,
};

/** Reading CodeableConcepts (docs/upstream-fhir.md#text-numbers-and-codes): codes pass through as sent. */
import type { CodeableConcept, Coding } from '../../domain/fhir/resources/datatypes.js';

/** Text(x): `text`, else the first coding's display, else the first coding's code. */
export function textOf(concept: CodeableConcept | undefined): string | undefined {
  if (concept === undefined) return undefined;
  return concept.text ?? concept.coding?.find((c) => c.display !== undefined)?.display ?? concept.coding?.find((c) => c.code !== undefined)?.code;
}

/**
 * Text(x) beside a code answered from `coding`, one of the concept's codings: `text` (the concept's
 * own words), else that coding's display, else its code; never another coding's display, which
 * names the concept in another system's words (SNOMED's "Asthma" beside ICD-10-SE's J45.9).
 * Without such a coding no code is answered beside it, and Text(x) is the rule.
 */
export function textBeside(concept: CodeableConcept | undefined, coding: Coding | undefined): string | undefined {
  if (coding === undefined) return textOf(concept);
  return concept?.text ?? coding.display ?? coding.code;
}

export const hasCode = (concept: CodeableConcept | undefined, system: string, code: string): boolean =>
  concept?.coding?.some((c) => c.system === system && c.code === code) ?? false;

/** The code of the first coding (a status held as a CodeableConcept: `clinicalStatus`, `verificationStatus`). */
export const firstCode = (concept: CodeableConcept | undefined): string | undefined => concept?.coding?.find((c) => c.code !== undefined)?.code;

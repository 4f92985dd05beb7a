/** Reading CodeableConcepts (docs/upstream-fhir.md#text-numbers-and-codes): codes pass through as sent. */
import type { CodeableConcept } from '../../domain/fhir/resources/datatypes.js';

/** Text(x): `text`, else the first coding's display, else the first coding's code. */
export function textOf(concept: CodeableConcept | undefined): string | undefined {
  if (concept === undefined) return undefined;
  return concept.text ?? concept.coding?.find((c) => c.display !== undefined)?.display ?? concept.coding?.find((c) => c.code !== undefined)?.code;
}

export const hasCode = (concept: CodeableConcept | undefined, system: string, code: string): boolean =>
  concept?.coding?.some((c) => c.system === system && c.code === code) ?? false;

/** The code of the first coding (a status held as a CodeableConcept: `clinicalStatus`, `verificationStatus`). */
export const firstCode = (concept: CodeableConcept | undefined): string | undefined => concept?.coding?.find((c) => c.code !== undefined)?.code;

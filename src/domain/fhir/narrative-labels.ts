/**
 * The parts of an entry's line in a summary section's narrative (docs/fhir-api.md#patient-summary):
 * what a resource names, in the EHR's own words (a concept's text, else a coding's display, else its
 * code). IPS wants every section readable without its entries. Each type's own line is declared with
 * its section in the read's folder (resources/resource-type.ts's SummarySection).
 */
import type { SummaryEntry } from './resources/resource-type.js';

export interface Concept { text?: string; coding?: { code?: string; display?: string }[] }

/** A concept in words: its text, else a coding's display, else a coding's code. */
export function conceptText(concept: Concept | undefined): string | undefined {
  if (concept === undefined) return undefined;
  return concept.text ?? concept.coding?.find((c) => c.display !== undefined)?.display ?? concept.coding?.find((c) => c.code !== undefined)?.code;
}

/** The line of a resource named by its `code`, or by its type when the record names nothing. */
export const codeLine = (r: SummaryEntry): string => conceptText(r.code as Concept | undefined) ?? r.resourceType;

/** What a clinical status and a verification say in the plain case, which the line leaves unsaid. */
const PLAIN = { clinicalStatus: 'active', verificationStatus: 'confirmed' } as const;

/**
 * The line of a resource named by its `code`, followed by its clinical status and verification where
 * either is not the plain case (active, confirmed): `Plåster (kolofonium) (inactive, unconfirmed)`.
 * A list of allergies or problems that named a withdrawn or doubted entry as it names a known one
 * would tell the reader they have it.
 */
export const statedLine = (r: SummaryEntry): string => {
  const stated: string[] = [];
  for (const [member, plain] of Object.entries(PLAIN)) {
    const word = conceptText(r[member] as Concept | undefined);
    if (word !== undefined && word !== plain) stated.push(word);
  }
  return stated.length === 0 ? codeLine(r) : `${codeLine(r)} (${stated.join(', ')})`;
};

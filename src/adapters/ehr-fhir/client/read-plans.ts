/**
 * The FHIR plan of each read (read-plan.ts), gathered from the reads' folders
 * (src/reads/<read>/sources.ts). A read its folder declares NOT_SERVED over FHIR has no plan here:
 * the adapter answers it with no records, after the same patient check as any read.
 */
import { READ_NAMES, type ReadName } from '../../../domain/operations/table.js';
import { isServed, type NotServed } from '../../../reads/read-sources.js';
import { READ_SOURCES } from '../../../reads/source-table.js';
import type { ReadPlan } from './read-plan.js';

type Sources = typeof READ_SOURCES;

/** The reads a FHIR server is asked for (their folders do not declare them NOT_SERVED over FHIR). */
export type FhirRead = { [R in ReadName]: Sources[R]['fhir'] extends ReadPlan<R> ? R : never }[ReadName];

export const READ_PLANS: { readonly [R in ReadName]?: ReadPlan<R> } = Object.fromEntries(READ_NAMES.flatMap((read) => {
  const plan: ReadPlan<ReadName> | NotServed = READ_SOURCES[read].fhir;
  return isServed<ReadPlan<ReadName>>(plan) ? [[read, plan]] : [];
}));

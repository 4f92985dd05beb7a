/**
 * Every read's sources, by the read's name: a read of the operation table without its line in
 * sources.ts fails `npm run typecheck`, naming the read.
 */
import type { ReadName } from '../domain/operations/table.js';
import type { FhirForm } from './as-fhir.js';
import type { ReadSources } from './read-sources.js';
import * as REGISTERED from './sources.js';

export const READ_SOURCES = REGISTERED satisfies { readonly [R in ReadName]: ReadSources<R> };

/** The reads the service's own FHIR API serves: those whose `asFhir` is a form, not NOT_SERVED. */
export type FhirFormRead = { [R in ReadName]: (typeof READ_SOURCES)[R]['asFhir'] extends FhirForm<R> ? R : never }[ReadName];

/** The patient documents by kind (documents.ts): parse, map, and refuse foreign records. */
import { DOCUMENT_KINDS, DOCUMENTS, type DocumentKind, type DocumentResults } from './documents.js';
import type { DocumentInput } from './document-pieces.js';
import type { Reading } from './document.js';
import { assertOnlyPatient } from './patient-ids.js';
import type { MapContext } from './shape.js';

export interface MapOptions {
  /** IANA zone of the EHR's local times (EHR_TIMEZONE). */
  zone: string;
  /** When given, a document naming any other patient is malformed. */
  expectedPatientId?: string;
  /** Told why an item was left out (no personal data in the reason). */
  onDropped?: (reason: string) => void;
}

/** Internal: the reading of each document type (tests generate documents from the shapes). */
export const READINGS = Object.fromEntries(DOCUMENT_KINDS.map((kind) => [kind, DOCUMENTS[kind].reading])) as
  { readonly [K in DocumentKind]: Reading<DocumentResults[K]> };

const ignore = (): void => undefined;

const contextOf = (options: MapOptions): MapContext => ({ zone: options.zone, onDropped: options.onDropped ?? ignore });

function checked<K extends DocumentKind>(kind: K, data: DocumentResults[K], options: MapOptions): DocumentResults[K] {
  if (options.expectedPatientId !== undefined) assertOnlyPatient(kind, data, options.expectedPatientId);
  return data;
}

/**
 * Maps one EHR document to the API's records, in document order: selecting and sorting by time is
 * selectInRange's job. Throws MalformedDocumentError.
 */
export function mapDocument<K extends DocumentKind>(kind: K, xml: DocumentInput, options: MapOptions): DocumentResults[K] {
  return checked(kind, READINGS[kind].map(xml, contextOf(options)), options);
}

/** Longest stretch, in ms, that mapDocumentInSlices reads before it lets the event loop run. */
export const SLICE_MS = 2;

/**
 * mapDocument's result (or error), read in slices of about SLICE_MS with the event loop free in
 * between: for documents of megabytes, which would otherwise hold every other request up while
 * they are read. Small documents finish within their first slice, without waiting a turn.
 */
export async function mapDocumentInSlices<K extends DocumentKind>(kind: K, xml: DocumentInput, options: MapOptions, sliceMs = SLICE_MS): Promise<DocumentResults[K]> {
  const data = await READINGS[kind].mapInSlices(xml, contextOf(options), sliceMs);
  return checked(kind, data, options);
}

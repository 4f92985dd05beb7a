/**
 * Every patient identity a mapped document names. The service must never forward another
 * patient's record (threat 29 of docs/threat-model.md#the-upstream-ehr-api10), so a document naming anyone but the requested patient is refused.
 */
import { DOCUMENTS, type DocumentKind, type DocumentResults } from './documents.js';
import { malformed } from './malformed-document-error.js';

export function assertOnlyPatient<K extends DocumentKind>(kind: K, data: DocumentResults[K], expected: string): void {
  const ids = (DOCUMENTS[kind].patients as (d: DocumentResults[K]) => Iterable<string | undefined>)(data);
  for (const id of ids) {
    if (id !== undefined && id !== expected) throw malformed('record of another patient');
  }
}

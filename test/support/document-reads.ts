import { selectInRange } from '../../src/domain/operations/table.js';
import { readerOf } from '../../src/domain/use-cases/read-sources.js';
import type { TimeRange } from '../../src/domain/time/time-range.js';
import { DOCUMENTS, type DocumentKind, type DocumentResults } from '../../src/adapters/ehr-xml/documents.js';
import type { EhrRecords } from '../../src/ports/ehr-records.port.js';

/** The read the legacy document of `kind` answers, as the XML adapters' tests name documents. */
const readOf = (kind: DocumentKind) => DOCUMENTS[kind].read;

/** One patient's document of `kind` through an EHR adapter's reads, as the service would read it. */
export function readDocument<K extends DocumentKind>(ehr: EhrRecords, kind: K, patientId: string, range: TimeRange): Promise<DocumentResults[K]> {
  return readerOf(ehr.reads, readOf(kind))(patientId, range) as Promise<DocumentResults[K]>;
}

/** A mapped document's records within `range`, as the read it answers selects them. */
export function selectDocument<K extends DocumentKind>(kind: K, data: DocumentResults[K], range: TimeRange, zone: string): DocumentResults[K] {
  return selectInRange(readOf(kind), data as never, range, zone) as DocumentResults[K];
}

/**
 * The legacy EHR's patient documents, gathered from the reads' folders (src/reads/<read>/sources.ts,
 * xml-source.ts says what each holds). The embedded EHR, the XML-over-HTTP adapter and the simulator
 * read this table: they serve the reads listed here from documents, and answer a read its folder
 * declares NOT_SERVED with no records (after the same patient check as any read).
 */
import { READ_NAMES, type ReadItem, type ReadName } from '../../domain/operations/table.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import type { EhrReads, RecordReader } from '../../ports/ehr-records.port.js';
import { isServed, noRecords, type NotServed } from '../../reads/read-sources.js';
import { READ_SOURCES } from '../../reads/source-table.js';
import type { XmlDocument } from './xml-source.js';

type Sources = typeof READ_SOURCES;

/** The reads the legacy EHR's documents answer. */
export type XmlRead = { [R in ReadName]: Sources[R]['xml'] extends XmlDocument<R> ? R : never }[ReadName];

type KindOf<R extends XmlRead> = Sources[R]['xml'] extends XmlDocument<R, infer K> ? K : never;

/** A document, with the read it answers. */
export interface Document<R extends ReadName, K extends string = string> extends XmlDocument<R, K> {
  read: R;
}

type Documents = { readonly [R in XmlRead as KindOf<R>]: Document<R, KindOf<R>> };

export const DOCUMENTS = Object.fromEntries(READ_NAMES.flatMap((read) => {
  const xml: XmlDocument<ReadName> | NotServed = READ_SOURCES[read].xml;
  return isServed<XmlDocument<ReadName>>(xml) ? [[xml.path, { ...xml, read }]] : [];
})) as Documents;

export type DocumentKind = keyof Documents;

/** A document's records, as the read it answers has them. */
export type DocumentResults = { [K in DocumentKind]: ReadItem<Documents[K]['read']>[] };

export const DOCUMENT_KINDS = Object.keys(DOCUMENTS) as DocumentKind[];

/** The document that answers each read. */
export const DOCUMENT_OF = Object.fromEntries(DOCUMENT_KINDS.map((kind) => [DOCUMENTS[kind].read, kind])) as
  { readonly [K in DocumentKind as Documents[K]['read']]: K };

export const isXmlRead = (read: ReadName): read is XmlRead => Object.hasOwn(DOCUMENT_OF, read);

/** Reads one document of a patient, mapped, filtered to `range` and sorted as `read`'s policy says. */
type DocumentReader = <R extends XmlRead>(read: R, patientId: string, range: TimeRange) => Promise<ReadItem<R>[]>;

/** Every read of an EHR of these documents: each served one through `readDocument`, the others empty. */
export function documentReads(readDocument: DocumentReader): EhrReads {
  return Object.fromEntries(READ_NAMES.map((read): [ReadName, RecordReader<ReadName>] => [
    read, isXmlRead(read) ? (patientId, range) => readDocument(read, patientId, range) : noRecords,
  ])) as EhrReads;
}

/** Settings of the remote legacy EHR adapter (docs/contract.md#settings: EHR_BASE_URL, EHR_TIMEOUT_MS, EHR_TIMEZONE, EHR_TLS_*). */
import type { TransportEvent, TransportOptions } from '../ehr-http/transport.js';
import type { MappedDocuments } from '../mapped-documents/mapped-documents.js';
import type { ConditionalAnswer } from './kept-answers.js';

export type XmlHttpEhrEvent = TransportEvent;

export interface XmlHttpEhrOptions extends Omit<TransportOptions, 'media'> {
  /** EHR_TIMEZONE. */
  zone: string;
  /** Told why a record was left out of an answer (no personal data in the reason). */
  onDropped: (reason: string) => void;
  /** Bytes of large documents mapped at once (documents-in-flight.ts); its default when absent. */
  documentBytesInFlight?: number;
  /** Bytes of large documents asked for or waiting to be mapped (fetch-room.ts); its default when absent. */
  fetchRoomBytes?: number;
  /** The process's kept mappings (EHR_CACHE_BYTES), shared with every XML adapter; else a cache of its own of the default size. */
  mappedDocuments?: MappedDocuments;
  /** Told how the EHR answered each conditional GET (kept-answers.ts). */
  onConditional?: (answer: ConditionalAnswer) => void;
}

import { isUtf8 } from 'node:buffer';
import type { DocumentStore } from '../../adapters/ehr-embedded/document-store.js';
import { etagOf } from './conditional.js';

/** Documents of at least this many characters are kept, with their bytes, while their file is unchanged. */
export const KEPT_DOCUMENT_CHARS = 256 * 1024;
/** How many large documents are kept at once; the one kept longest goes first. */
const KEPT_DOCUMENTS = 4;

/**
 * A document as read and when its file was modified; its UTF-8 bytes and their ETag when it is large
 * enough to be kept. A file that is not UTF-8 has no text: its bytes are sent as they are, as an EHR
 * that wrote them would send them, for the service to refuse.
 */
export interface ReadDocument {
  text: string | undefined;
  modifiedMs: number;
  bytes?: Buffer;
  etag?: string;
}

type Kept = Required<ReadDocument> & { version: string };

/**
 * The simulator's large documents, kept as read and encoded while their files are unchanged (the
 * file version of document-store.ts: device, inode, size and times). Reading, decoding and encoding
 * a ~9 MiB journal again for every answer held the simulator's event loop 10-20 ms, on the core the
 * bench's load generator shares with it, and other reads queued behind it: the bench measured the
 * simulator's wait, not the service's (BENCHMARKS.md, issue 20 item 6, seventh round). Small
 * documents are read afresh every time, as before.
 */
export class KeptDocuments {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly store: DocumentStore) {}

  /** The file's document, or undefined when there is no such file. */
  async read(file: string): Promise<ReadDocument | undefined> {
    const hit = this.kept.get(file);
    if (hit !== undefined && hit.version === this.store.version(file)) return hit;
    this.kept.delete(file);
    const read = await this.store.readVersioned(file);
    if (read === undefined) return undefined;
    const { bytes, modifiedMs } = read;
    if (!isUtf8(bytes)) return { text: undefined, modifiedMs, bytes };
    const text = bytes.toString('utf8');
    if (text.length < KEPT_DOCUMENT_CHARS) return { text, modifiedMs };
    // Hashing a ~9 MiB document again for every answer would cost what keeping it saves.
    const kept: Kept = { version: read.version, text, modifiedMs, bytes, etag: etagOf(bytes) };
    const oldest = this.kept.keys().next();
    if (this.kept.size >= KEPT_DOCUMENTS && oldest.done !== true) this.kept.delete(oldest.value);
    this.kept.set(file, kept);
    return kept;
  }
}

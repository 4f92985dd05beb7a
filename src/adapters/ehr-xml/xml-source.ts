/**
 * How the legacy EHR answers one read (docs/upstream-ehr.md#2-requests-and-answers): the document's
 * path name in its HTTP interface and data folder, its namespace, how the one XML reader reads it,
 * which patients its records name, and which items the EHR's own `from`/`to` filter selects. A read's
 * folder gives its own (src/reads/<read>/sources.ts); documents.ts gathers them.
 */
import type { ReadItem, ReadName } from '../../domain/operations/table.js';
import type { Reading } from './document.js';

/** Items the upstream filter keeps or drops: where they sit below the root, and the path of their TimeValue. */
export interface FilteredItems {
  path: readonly string[];
  time: readonly string[];
}

export interface XmlDocument<R extends ReadName, K extends string = string> {
  /** The document's name in the EHR's paths and data folder (`/patients/<id>/<path>`, `<path>.xml`). */
  path: K;
  namespace: string;
  reading: Reading<ReadItem<R>[]>;
  /** The identity numbers the mapped records name (a document naming another patient is refused). */
  patients(records: ReadItem<R>[]): Iterable<string | undefined>;
  /** Absent: the document takes no `from`/`to` (the patient's own documents). */
  filtered?: readonly FilteredItems[];
}

/** A read's document, its path kept as a literal type (the simulator and the paths are typed by it). */
export const xmlDocument = <R extends ReadName, const K extends string>(d: XmlDocument<R, K>): XmlDocument<R, K> => d;

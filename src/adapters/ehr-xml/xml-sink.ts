/**
 * The seam of the XML reader (docs/xml-reader.md): what the tokenizer (xml-tokenizer.ts) tells the
 * builder (record-builder.ts) as it reads, and the little it asks it. The tokenizer has checked
 * everything XML and the upstream rules require of what it reports before it reports it, so a
 * builder refuses nothing about the XML itself; it only decides what the elements map to.
 *
 * Events are calls with primitive arguments, and names are passed as positions in the piece being
 * read (`t`), so reading costs no object per event: only the strings the records keep are cut out.
 */
import type { KnownNames } from './xml-names.js';

/** What the builder still wants of the open element's text: every character, exactly (a leaf, or an object whose shape takes its text). */
export const TEXT_ALL = 0;
/** Only whether there is any besides whitespace (an object, refused for it at its end if it has nothing else). */
export const TEXT_ANY = 1;
/** Nothing: a skipped element, or an object already known to hold text. The tokenizer still checks it. */
export const TEXT_NONE = 2;
export type TextMode = typeof TEXT_ALL | typeof TEXT_ANY | typeof TEXT_NONE;

export interface ElementSink {
  /** The names of the open element's children the tokenizer may match in place (see NameReader.readKnown). */
  readonly knownNames: KnownNames | undefined;
  readonly textMode: TextMode;
  /** Whether the open element has been given a part of its text already (its next part is then not its whole text). */
  readonly textBegun: boolean;

  /** The root element opens; `mapped` when it is the document's root, else it and all it holds are skipped. */
  openRoot(mapped: boolean): void;
  /** A child element opens whose name is the known name `id` (knownNames). */
  openKnown(id: number): void;
  /** Whether the known name `id` is a leaf's: the tokenizer may then read `<name>text</name>` whole and tell `knownLeaf`. */
  isLeaf(id: number): boolean;
  /**
   * The child element of known name `id`, a leaf, opened, given its whole text `text` (decoded and
   * trimmed, '' when it has none) and closed: what openKnown, text (when not empty) and close say
   * for it, in one call.
   */
  knownLeaf(id: number, text: string): void;
  /** Any other child element opens: its local name is `t[localFrom, to)`, `qname` its name as written. */
  openOther(qname: string, t: string, localFrom: number, to: number): void;
  /** An attribute of the element just opened, by local name `t[from, to)`: whether its value is wanted. */
  attribute(t: string, from: number, to: number): boolean;
  /** The value of the attribute just accepted: decoded, its tabs and line feeds read as spaces, trimmed. */
  attributeValue(value: string): void;
  /** In TEXT_ALL, the next part of the open element's text, decoded (never empty). */
  text(part: string): void;
  /** In TEXT_ANY, text other than whitespace was read. */
  textInObject(): void;
  /** The open element ends (its text was given first). */
  close(): void;
}

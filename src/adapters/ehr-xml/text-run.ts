/**
 * A text or attribute value that runs over several pieces of a document (document-pieces.ts),
 * decoded piece by piece so no step of the reader decodes megabytes at once (issue 20 item 2), yet
 * trimmed as one: whitespace at its ends is kept raw apart until its end shows whether the whole is
 * trimmed. Trimming the raw text, then reading tabs and line feeds of an attribute value as spaces,
 * then decoding references, as the reader does for a text within one piece (a space written as
 * `&#x20;` at an end is kept). A cut never falls inside a reference, so each part decodes alone.
 */
import { malformed } from './malformed-document-error.js';
import { decodeReferences, isTrimSpace } from './xml-text.js';

/** What String.prototype.trim removes: ASCII tab to CR and space, and the Unicode spaces (all >= 128). */
const isTrimmed = (c: number): boolean => (c < 128 ? isTrimSpace(c) : /\s/.test(String.fromCharCode(c)));

export class TextRun {
  /** Whitespace before the first other character (only whitespace so far when `started` is false). */
  private head = '';
  /** From the first other character to the last one seen, decoded. */
  private body = '';
  /** Whitespace after the last other character seen. */
  private tail = '';
  private started = false;

  /** `attribute`: tabs and line feeds read as spaces, as in an attribute value. */
  constructor(private readonly attribute: boolean) {}

  /** The next part of the raw text; throws when it holds a reference XML does not define. */
  add(raw: string): void {
    let from = 0;
    if (!this.started) {
      while (from < raw.length && isTrimmed(raw.charCodeAt(from))) from++;
      this.head += raw.slice(0, from);
      if (from === raw.length) return;
      this.started = true;
    }
    let to = raw.length;
    while (to > from && isTrimmed(raw.charCodeAt(to - 1))) to--;
    if (to === from) {
      this.tail += raw.slice(from);
      return;
    }
    this.body += this.spaces(this.tail) + this.cooked(raw.slice(from, to));
    this.tail = raw.slice(to);
  }

  /** The whole text trimmed. */
  trimmed(): string {
    return this.body;
  }

  /** The whole text as written, decoded. */
  untrimmed(): string {
    return this.spaces(this.head) + this.body + this.spaces(this.tail);
  }

  private spaces(s: string): string {
    return this.attribute ? s.replace(/[\t\n]/g, ' ') : s;
  }

  private cooked(s: string): string {
    const decoded = decodeReferences(this.spaces(s));
    if (decoded === undefined) throw malformed('not well-formed XML');
    return decoded;
  }
}

/**
 * Markup other than tags, as the tokenizer meets it (xml-tokenizer.ts, docs/xml-reader.md): the XML
 * declaration, comments, processing instructions and CDATA sections, each followed from piece to
 * piece as it runs on (a cut may fall before a `<` in it, or anywhere in a long one), every part
 * searched once.
 *
 * It refuses, as not well-formed XML: a declaration that is not XML 1.0's (version 1.0, then
 * optionally encoding and standalone, in that order) or not at the very start; a PI whose target is
 * `xml` in any case or is not a name; `--` inside a comment; any `<!` but a comment or CDATA
 * section (DTD markup was refused before, xml-cursor.ts); and a document that ends inside any of them.
 */
import { malformed, notWellFormed } from './malformed-document-error.js';
import type { XmlCursor } from './xml-cursor.js';
import { NameReader } from './xml-names.js';
import { isSpace } from './xml-text.js';

/** XML 1.0's XMLDecl after `<?xml`: version 1.0, then optionally encoding and standalone, in that order. */
const DECLARATION_BODY = /^[ \t\n]+version[ \t\n]*=[ \t\n]*(?:"1\.0"|'1\.0')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:"[A-Za-z][\w.-]*"|'[A-Za-z][\w.-]*'))?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\n]*$/;

/** The declaration's encoding name, where it gives one. */
const DECLARED_ENCODING = /[ \t\n]encoding[ \t\n]*=[ \t\n]*["']([^"']*)["']/;

/**
 * Where the document's first piece `t` goes on after its XML declaration (0 when it has none). The EHR
 * writes UTF-8 (docs/upstream-ehr.md §1): a document declaring another encoding is refused, since its
 * text read as UTF-8 would not be the text written (hostile review helper-213, H2: Latin-1 å became U+FFFD).
 */
export function afterDeclaration(t: string): number {
  if (!(t.startsWith('<?xml', 0) && (isSpace(t.charCodeAt(5)) || t.charCodeAt(5) === 63))) return 0;
  const end = t.indexOf('?>', 5);
  const body = end < 0 ? '' : t.slice(5, end);
  if (end < 0 || !DECLARATION_BODY.test(body)) notWellFormed();
  const encoding = DECLARED_ENCODING.exec(body)?.[1];
  if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') throw malformed('an encoding other than UTF-8');
  return end + 2;
}

/** Markup followed from piece to piece, and the text that closes each. */
type Markup = 'comment' | 'pi' | 'cdata';
const CLOSES: Readonly<Record<Markup, string>> = { comment: '--', pi: '?>', cdata: ']]>' };

export class MarkupReader {
  /** The comment, PI or CDATA section that runs on into later pieces, read on from the cursor's `pos`. */
  private markup: Markup | undefined = undefined;
  private readonly target = new NameReader();

  constructor(private readonly cursor: XmlCursor) {}

  /** Whether a comment, PI or CDATA section is still open: `goOn` reads on. */
  get isOpen(): boolean {
    return this.markup !== undefined;
  }

  /** The comment whose `<!--` is at `at`. True once it ended (`pos` past it), false when the slice ended first. */
  comment(at: number): boolean {
    return this.open('comment', at + 4);
  }

  /** `<!--` or `<![CDATA[` at `at` (see `comment`). */
  bang(at: number): boolean {
    const t = this.cursor.text;
    if (t.startsWith('<!--', at)) return this.open('comment', at + 4);
    if (!t.startsWith('<![CDATA[', at)) notWellFormed();
    return this.open('cdata', at + 9);
  }

  /** The processing instruction at `lt`, skipped (see `comment`). */
  pi(lt: number): boolean {
    const cursor = this.cursor;
    const t = cursor.text;
    const target = this.target;
    target.read(t, lt + 2);
    const end = target.end;
    if (end - lt - 2 === 3 && t.slice(lt + 2, end).toLowerCase() === 'xml') notWellFormed();
    const c = t.charCodeAt(end);
    if (c === 63) {
      if (t.charCodeAt(end + 1) !== 62) notWellFormed();
      cursor.pos = end + 2;
      return true;
    }
    if (!isSpace(c)) notWellFormed();
    return this.open('pi', end);
  }

  private open(markup: Markup, bodyFrom: number): boolean {
    // A CDATA section is a part of the element's text: the text before it is the part before.
    if (markup === 'cdata') this.cursor.giveText(false);
    this.markup = markup;
    this.cursor.pos = bodyFrom;
    return this.goOn();
  }

  /** Goes on with the open markup from `pos`, a piece at a time; false when the slice ends before it does. */
  goOn(): boolean {
    const cursor = this.cursor;
    const markup = this.markup as Markup;
    const close = CLOSES[markup];
    for (;;) {
      const t = cursor.text;
      const end = t.indexOf(close, cursor.pos);
      if (markup === 'cdata') cursor.cdataPart(cursor.pos, end < 0 ? t.length : end);
      if (end >= 0) {
        // `--` may only close a comment.
        if (markup === 'comment' && t.charCodeAt(end + 2) !== 62) notWellFormed();
        cursor.pos = end + close.length + (markup === 'comment' ? 1 : 0);
        this.markup = undefined;
        return true;
      }
      cursor.nextPieceWithin();
      if (cursor.due()) return false;
    }
  }
}

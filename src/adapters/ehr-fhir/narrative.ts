/**
 * A FHIR narrative (`text.div`, XHTML) as plain text, by the rules of
 * docs/upstream-fhir.md#narrative-to-text: character data as written with references decoded,
 * `<br/>` a line break, one line break where a block starts or ends (never two side by side, never
 * first), a tab before each table cell but a row's first, other tags dropped with their text kept,
 * whitespace alone between two block boundaries dropped, and the ends trimmed. A narrative that is
 * not well-formed XML (an HTML entity such as `&nbsp;`, a DTD) is a fault, as any malformed answer.
 */
import { SaxesParser } from 'saxes';
import { EhrError } from '../../domain/ehr-error.js';
import { fhirFault } from './fault.js';

const BLOCKS: ReadonlySet<string> = new Set([
  'p', 'div', 'li', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'dt', 'dd',
]);
const CELLS: ReadonlySet<string> = new Set(['td', 'th']);
const ONLY_SPACE = /^[ \t\n]*$/;

class TextWriter {
  private out = '';
  /** Text since the last tag: a run of whitespace alone is kept or dropped by what follows it. */
  private pending = '';
  private afterBoundary = false;
  /** Cells met so far in each open row (tables may nest). */
  private readonly rows: number[] = [];

  text(t: string): void {
    this.pending += t;
  }

  /** A block starts or ends here. */
  boundary(): void {
    if (!(this.afterBoundary && ONLY_SPACE.test(this.pending))) this.out += this.pending;
    this.pending = '';
    if (this.out !== '' && !this.out.endsWith('\n')) this.out += '\n';
    this.afterBoundary = true;
  }

  /** An inline tag, or a line break (`\n`) or a cell's tab written in its place. */
  inline(written = ''): void {
    this.out += this.pending + written;
    this.pending = '';
    this.afterBoundary = false;
  }

  open(name: string): void {
    if (BLOCKS.has(name)) {
      this.boundary();
      if (name === 'tr') this.rows.push(0);
    } else if (CELLS.has(name)) {
      const cells = this.rows.length === 0 ? 0 : (this.rows[this.rows.length - 1] as number);
      if (this.rows.length > 0) this.rows[this.rows.length - 1] = cells + 1;
      this.inline(cells > 0 ? '\t' : '');
    } else {
      this.inline(name === 'br' ? '\n' : '');
    }
  }

  close(name: string): void {
    if (BLOCKS.has(name)) {
      this.boundary();
      if (name === 'tr') this.rows.pop();
    } else if (name !== 'br') {
      this.inline();
    }
  }

  result(): string {
    return (this.out + this.pending).trim();
  }
}

/** The text of an XHTML narrative `div`. */
export function narrativeText(div: string): string {
  const writer = new TextWriter();
  const parser = new SaxesParser({ xmlns: true });
  parser.on('text', (t) => writer.text(t));
  parser.on('cdata', (t) => writer.text(t));
  parser.on('opentag', (tag) => writer.open(tag.local));
  parser.on('closetag', (tag) => writer.close(tag.local));
  parser.on('doctype', () => {
    throw fhirFault('narrative with a DTD');
  });
  try {
    parser.write(div).close();
  } catch (err) {
    if (err instanceof EhrError) throw err;
    throw fhirFault('narrative not well-formed XHTML');
  }
  return writer.result();
}

/**
 * A section's XHTML narrative as plain text, by the rule the service reads narratives with
 * (docs/upstream-fhir.md#narrative-to-text): references decoded, `<br/>` a line break, a line break
 * at each block's start and end, a tab between table cells, ends trimmed. The XHTML is parsed as
 * XML into a detached document (nothing in it runs or loads) and only its text is kept; the page
 * shows the result with textContent.
 */
const BLOCKS = new Set(['div', 'p', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote']);

class TextWriter {
  text = '';
  /** Whether only whitespace has been written since the last block boundary. */
  private pending = '';

  write(s: string): void {
    this.text += this.pending + s;
    this.pending = '';
  }

  /** Text between two boundaries that is whitespace alone is dropped; anything else is kept as it is. */
  whitespace(s: string): void { this.pending += s; }

  boundary(): void {
    this.pending = '';
    if (this.text !== '' && !this.text.endsWith('\n')) this.text += '\n';
  }
}

function walk(node: Node, out: TextWriter): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE || child.nodeType === Node.CDATA_SECTION_NODE) {
      const s = child.nodeValue ?? '';
      if (s.trim() === '') out.whitespace(s); else out.write(s);
    } else if (child.nodeType === Node.ELEMENT_NODE) {
      const name = (child as Element).localName;
      if (name === 'br') { out.write('\n'); continue; }
      if ((name === 'td' || name === 'th') && (child as Element).previousElementSibling !== null) out.write('\t');
      const block = BLOCKS.has(name);
      if (block) out.boundary();
      walk(child, out);
      if (block) out.boundary();
    }
  }
}

/** The narrative's text; undefined for a narrative that is not well-formed XML or says nothing. */
export function narrativeText(div: string | undefined): string | undefined {
  if (div === undefined) return undefined;
  const doc = new DOMParser().parseFromString(div, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return undefined;
  const out = new TextWriter();
  walk(doc.documentElement, out);
  const text = out.text.trim();
  return text === '' ? undefined : text;
}

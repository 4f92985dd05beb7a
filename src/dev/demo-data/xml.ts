/**
 * A tiny XML writer for the demo documents. Every text and attribute value is escaped and every
 * name is checked, so no content can change the document's structure; there is no way to write
 * a DOCTYPE or an entity declaration, which the upstream contract forbids.
 */

export interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attrs: readonly (readonly [string, string])[];
  readonly children: readonly XmlNode[];
}
export type XmlNode =
  | XmlElement
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'cdata'; readonly text: string }
  | { readonly kind: 'charRef'; readonly code: number };

/** What may be passed as content: strings become escaped text; false/undefined are left out. */
export type XmlChild = XmlNode | string | false | null | undefined | readonly XmlChild[];
export type XmlAttrs = Readonly<Record<string, string | undefined>>;

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;

function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error(`invalid XML name: ${name}`);
  return name;
}

// XML 1.0 cannot carry control characters other than tab and line breaks, even escaped: fail
// loudly instead of writing a document every consumer would reject.
function checkText(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff) {
      throw new Error('text holds a character XML 1.0 cannot carry');
    }
  }
  return text;
}

export function escapeXml(text: string): string {
  return checkText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function flatten(children: readonly XmlChild[], out: XmlNode[]): XmlNode[] {
  for (const child of children) {
    // An empty string gives an empty element (`<Reason/>`), which upstream means "absent".
    if (child === false || child === null || child === undefined || child === '') continue;
    if (typeof child === 'string') out.push({ kind: 'text', text: child });
    else if (Array.isArray(child)) flatten(child as readonly XmlChild[], out);
    else out.push(child as XmlNode);
  }
  return out;
}

/** An element with attributes (undefined values are left out) and content. */
export function tag(name: string, attrs: XmlAttrs, ...children: XmlChild[]): XmlElement {
  const pairs: (readonly [string, string])[] = [];
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined) pairs.push([checkName(key), value]);
  }
  return { kind: 'element', name: checkName(name), attrs: pairs, children: flatten(children, []) };
}

/** An element without attributes. */
export function el(name: string, ...children: XmlChild[]): XmlElement {
  return tag(name, {}, ...children);
}

/** A text leaf, or nothing when the value is absent (upstream leaves optional elements out). */
export function leaf(name: string, value: string | XmlNode | undefined): XmlElement | undefined {
  return value === undefined ? undefined : el(name, value);
}

export function cdata(text: string): XmlNode {
  return { kind: 'cdata', text: checkText(text) };
}

/** A numeric character reference such as `&#8211;`, which upstream producers emit. */
export function charRef(code: number): XmlNode {
  if (!Number.isInteger(code) || code < 0x20 || code > 0x10ffff) throw new Error('invalid character reference');
  return { kind: 'charRef', code };
}

function renderInline(node: XmlNode): string {
  switch (node.kind) {
    case 'text': return escapeXml(node.text);
    // "]]>" would end the section early; split it across two sections instead.
    case 'cdata': return `<![CDATA[${node.text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
    case 'charRef': return `&#${node.code};`;
    case 'element': return render(node, '');
  }
}

function render(node: XmlElement, indent: string): string {
  const attrs = node.attrs.map(([k, v]) => ` ${k}="${escapeXml(v)}"`).join('');
  const open = `${indent}<${node.name}${attrs}`;
  if (node.children.length === 0) return `${open}/>`;
  if (node.children.every((c) => c.kind !== 'element')) {
    return `${open}>${node.children.map(renderInline).join('')}</${node.name}>`;
  }
  const inner = node.children.map((c) =>
    c.kind === 'element' ? render(c, `${indent}  `) : `${indent}  ${renderInline(c)}`);
  return `${open}>\n${inner.join('\n')}\n${indent}</${node.name}>`;
}

/** One element as it is written inside a document's root (two spaces in). */
export const xmlElement = (node: XmlElement): string => render(node, '  ');

/** A whole document: declaration, an explanatory comment, the root element. */
export function xmlDocument(root: XmlElement, comment?: string): string {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  // "--" may not occur inside a comment.
  const note = comment === undefined ? '' : `<!-- ${checkText(comment).replace(/-(?=-)/g, '- ')} -->\n`;
  return `${head}${note}${render(root, '')}\n`;
}

/** Upstream writes text holding `<` as CDATA and merely escapes a lone `&`; the demo does the same. */
export function cdataIfMarkup(text: string): XmlNode {
  return text.includes('<') ? cdata(text) : { kind: 'text', text };
}

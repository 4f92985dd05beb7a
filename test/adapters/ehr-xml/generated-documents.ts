/**
 * Random upstream documents generated from a document type's compiled shape, for the differential
 * tests of the single-pass reader against the reference engine. Mostly valid (each leaf gets a
 * value its converter accepts), with the noise real producers add: prefixes, namespace
 * declarations, comments, CDATA, entities, character references, whitespace, unknown elements and
 * attributes, xsi:nil, empty elements, elements out of order, a BOM, CRLF line ends.
 */
import type { RawValue } from '../../../src/adapters/ehr-xml/raw-leaf.js';
import type { CompiledField, CompiledObject, MapContext } from '../../../src/adapters/ehr-xml/shape.js';

/** A small seeded generator (mulberry32), so every run sees the same documents. */
export class Rng {
  constructor(private seed: number) {}

  next(): number {
    this.seed = (this.seed + 0x6d2b79f5) | 0;
    let t = this.seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

type Form = 'text' | 'bool' | 'int' | 'num' | 'id' | 'tv14' | 'tv8' | 'code' | 'result' | 'any' | 'date';

const SAMPLES: Record<Form, RawValue> = {
  text: 'Ärlig text', bool: 'true', int: '42', num: '3.5', result: 'OK', date: '20250303',
  id: { '@_extension': '000123', '@_root': '1.2.752.99999.1.2' },
  tv14: { '@_value': '20250303101522' },
  tv8: { '@_value': '20250303' },
  code: { '@_codeSystem': '1.2.752.99999.2.1', displayName: { '@_value': 'Utbyte tillåtet' } },
  any: { Channel: '1177' },
};
const ATTRIBUTE_FORMS: Form[] = ['text', 'bool', 'int', 'num', 'result', 'date'];

const ctx: MapContext = { zone: 'Europe/Stockholm', onDropped: () => undefined };

/** The value forms a leaf's converter maps to something, found by trying one of each. */
function formsOf(f: CompiledField): Form[] {
  const candidates = f.isAttribute ? ATTRIBUTE_FORMS : (Object.keys(SAMPLES) as Form[]);
  const forms = candidates.filter((form) => {
    try {
      return f.convert?.(SAMPLES[form], f.name, ctx) !== undefined;
    } catch {
      return false;
    }
  });
  return forms.length > 0 ? forms : ['text'];
}

const WORDS = ['Tolvan', 'Märta', 'Åsa', 'vårdcentral', '00012345', '23', '2,5', '37.8', '<140', 'a & b', 'x > y', '"citat"', "it's"];
const ENTITIES = ['&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#229;', '&#xE5;', '&#8211;', '&#x1F600;'];
const UNKNOWN = ['Extra', 'Comment', 'Nickname', 'x', 'Any', 'Value'];

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => s.replace(/"/g, '&quot;');

export class DocumentGenerator {
  constructor(private readonly rng: Rng) {}

  private space(): string {
    return this.rng.pick(['', '', ' ', '\n  ', '\t', '\n    \n']);
  }

  private name(local: string): string {
    return this.rng.chance(0.1) ? `${this.rng.pick(['p', 'ix', 'a1'])}:${local}` : local;
  }

  /** Text content as producers write it: words, entities, character references, CDATA, a comment. */
  private text(): string {
    const parts: string[] = [];
    const n = 1 + this.rng.int(3);
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      if (r < 0.55) parts.push(escape(this.rng.pick(WORDS)));
      else if (r < 0.75) parts.push(this.rng.pick(ENTITIES));
      else if (r < 0.9) parts.push(`<![CDATA[${this.rng.pick([...WORDS, '  spaced  ', ''])}]]>`);
      else parts.push(`<!-- ${this.rng.pick(WORDS).replace(/-/g, '')} -->`);
      if (this.rng.chance(0.3)) parts.push(this.rng.pick([' ', '  ', '\n']));
    }
    return this.space() + parts.join('') + this.space();
  }

  private attrValue(): string {
    const v = this.rng.chance(0.8) ? escapeAttr(escape(this.rng.pick(WORDS))) : this.rng.pick(ENTITIES);
    return this.rng.chance(0.2) ? ` ${v} ` : v;
  }

  private element(qname: string, attrs: string, content: string): string {
    return content === '' && this.rng.chance(0.6) ? `<${qname}${attrs}/>` : `<${qname}${attrs}>${content}</${qname}>`;
  }

  private noise(): string {
    const r = this.rng.next();
    if (r < 0.4) return `<!--${escape(this.rng.pick(WORDS)).replace(/-/g, '')}-->`;
    const name = this.name(this.rng.pick(UNKNOWN));
    const inner = this.rng.chance(0.5) ? this.text() : `<Inner a="1">${escape(this.rng.pick(WORDS))}</Inner>`;
    return this.element(name, this.rng.chance(0.3) ? ` k="${this.attrValue()}"` : '', inner);
  }

  private leafContent(form: Form): [attrs: string, content: string] {
    const ws = (s: string): string => (this.rng.chance(0.2) ? ` ${s}\n` : s);
    switch (form) {
      case 'bool': return ['', ws(this.rng.pick(['true', 'false']))];
      case 'int': return ['', ws(this.rng.pick(['0', '42', '-7', '007', '9007199254740991']))];
      case 'num': return ['', ws(this.rng.pick(['0', '250.00', '-1.5', '084']))];
      case 'result': return ['', ws(this.rng.pick(['OK', 'ERROR', 'INFO']))];
      case 'date': return ['', ws(this.rng.pick(['20250303', '19121212', '20241027']))];
      case 'id': return [` extension="${this.attrValue()}" root="1.2.752.${this.rng.int(1000)}"`, ''];
      case 'tv14': return [` value="${this.rng.pick(['20250303101522', '20241027023000', '20250330023000'])}"`, ''];
      case 'tv8': return [` value="${this.rng.pick(['20250303', '19121212'])}"`, ''];
      case 'code': return [this.rng.chance(0.8) ? ' codeSystem="1.2.752.99999.2.1"' : '', `<displayName value="${this.attrValue()}"/>`];
      case 'any': return ['', this.anyContent(2)];
      default: return [this.rng.chance(0.1) ? ' lang="sv"' : '', this.text()];
    }
  }

  private anyContent(depth: number): string {
    const parts: string[] = [];
    const n = 1 + this.rng.int(3);
    for (let i = 0; i < n; i++) {
      const name = this.rng.pick(['Channel', 'Ref', 'Tag', 'Tag', 'Nested']);
      const inner = depth > 0 && this.rng.chance(0.3) ? this.anyContent(depth - 1) : this.text();
      parts.push(this.space(), this.element(name, '', inner));
    }
    return parts.join('') + this.space();
  }

  private leaf(f: CompiledField): string {
    const [attrs, content] = this.leafContent(this.rng.pick(formsOf(f)));
    return this.element(this.name(f.name), attrs, content);
  }

  /** The children (and attributes) of an object element of `shape`. */
  content(shape: CompiledObject, depth: number): [attrs: string, content: string] {
    let attrs = '';
    const children: string[] = [];
    for (const f of shape.fields) {
      // `$self` is the element's own text, never an element: XML names hold no `$`.
      if (f.name === '$self') {
        if (this.rng.chance(0.7)) children.push(escape(this.rng.pick(WORDS)));
        continue;
      }
      // A member that may be an attribute (the mirror documents): mostly one form, now and then both (refused).
      const asAttribute = f.isAttribute || (f.alsoAttribute && this.rng.chance(0.5));
      if (asAttribute) {
        if (f.options.required || this.rng.chance(0.7)) attrs += ` ${f.name}="${this.leafAttr(f)}"`;
        if (f.isAttribute || !this.rng.chance(0.02)) continue;
      }
      const count = f.options.many ? this.rng.int(depth > 3 ? 1 : 4) : f.options.required || this.rng.chance(f.alsoAttribute ? 0.3 : 0.6) ? 1 : 0;
      for (let i = 0; i < count; i++) children.push(f.object ? this.object(f, f.object, depth + 1) : this.leaf(f));
    }
    if (this.rng.chance(0.15)) children.splice(this.rng.int(children.length + 1), 0, this.noise());
    if (this.rng.chance(0.15) && children.length > 1) children.reverse();
    if (this.rng.chance(0.1)) attrs += ` extra="${this.attrValue()}"`;
    return [attrs, children.map((c) => this.space() + c).join('') + this.space()];
  }

  private leafAttr(f: CompiledField): string {
    const form = this.rng.pick(formsOf(f));
    const [, content] = this.leafContent(form);
    return escapeAttr(content.trim().replace(/</g, '&lt;'));
  }

  private object(f: CompiledField, shape: CompiledObject, depth: number): string {
    const qname = this.name(f.name);
    if (this.rng.chance(0.05)) return `<${qname} xsi:nil="true"/>`;
    if (depth > 6 || this.rng.chance(0.05)) return this.element(qname, '', '');
    const [attrs, content] = this.content(shape, depth);
    return this.element(qname, attrs, content);
  }

  /** A whole document of `root` with `shape`. */
  document(root: string, shape: CompiledObject): string {
    const [attrs, content] = this.content(shape, 0);
    const qname = this.rng.chance(0.1) ? `r:${root}` : root;
    const ns = ` xmlns="urn:example:ehr:x:1"${qname.startsWith('r:') ? ' xmlns:r="urn:example:ehr:x:1"' : ''} xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;
    let doc = `${this.rng.chance(0.7) ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}${this.rng.chance(0.5) ? '<!-- generated -->\n' : ''}`
      + `<${qname}${ns}${attrs}>${content}</${qname}>\n`;
    if (this.rng.chance(0.1)) doc = doc.replace(/\n/g, '\r\n');
    if (this.rng.chance(0.05)) doc = `\uFEFF${doc}`;
    return doc;
  }
}

/**
 * Issue 13: random mirror documents written straight from an answer's typebox schema, as a producer
 * of the vendor's layout might write them: each leaf as a child element or an attribute (now and
 * then both, which must be refused), arrays of 0..3, wrappers empty or absent, text beside an II's
 * attributes, and the noise every upstream document carries (prefixes, comments, CDATA, entities,
 * character references, unknown elements and attributes, xsi:nil, empty elements, whitespace);
 * mostly valid values, now and then a bad boolean, number or time.
 */
import { COMPACT_TIME_PATTERN } from '../../../src/domain/records/index.js';
import type { Rng } from './generated-documents.js';
import { resolved, type Schema } from './mirror-oracle.js';

const WORDS = ['Tolvan', 'Märta', 'Åsa', 'vårdcentral', '00012345', '23', '2,5', '37.8', '<140', 'a & b', 'x > y', '"citat"', "it's"];
const ENTITIES = ['&amp;', '&lt;', '&#229;', '&#xE5;', '&#8211;'];
const TIMES = ['20250303101522', '20241027023000', '20250330023000', '20250303', '19121212'];

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => escape(s).replace(/"/g, '&quot;');

export class MirrorGenerator {
  constructor(private readonly rng: Rng) {}

  private space(): string {
    return this.rng.pick(['', '', ' ', '\n  ', '\n    \n']);
  }

  private name(local: string): string {
    return this.rng.chance(0.08) ? `m:${local}` : local;
  }

  /** A leaf value of the schema's type (raw: already escaped for the place it goes). */
  private value(s: Schema, attribute: boolean): string {
    const bad = this.rng.chance(0.01);
    switch (s.type) {
      case 'boolean': return bad ? 'yes' : this.rng.pick(['true', 'false', ' true ']);
      case 'integer': return bad ? '1.5' : this.rng.pick(['0', '42', '-7', '007']);
      case 'number': return bad ? '2,1' : this.rng.pick(['2.1', '3', '-1.5', '084']);
      default:
        if (s.pattern === COMPACT_TIME_PATTERN) return bad ? '20250230120000' : this.rng.pick([...TIMES, '']);
        if (attribute) return escapeAttr(this.rng.pick(WORDS));
        return this.text();
    }
  }

  private text(): string {
    const r = this.rng.next();
    if (r < 0.6) return escape(this.rng.pick(WORDS));
    if (r < 0.75) return `${escape(this.rng.pick(WORDS))}${this.rng.pick(ENTITIES)}`;
    if (r < 0.9) return `<![CDATA[${this.rng.pick(WORDS)}]]>`;
    return `${escape(this.rng.pick(WORDS))}<!-- c -->${escape(this.rng.pick(WORDS))}`;
  }

  private element(qname: string, attrs: string, content: string): string {
    return content === '' && this.rng.chance(0.6) ? `<${qname}${attrs}/>` : `<${qname}${attrs}>${content}</${qname}>`;
  }

  private leafElement(name: string, s: Schema): string {
    const qname = this.name(name);
    if (this.rng.chance(0.03)) return `<${qname} xsi:nil="true"/>`;
    // A TS-like value is an attribute of its object, written by `object`; here the value is text.
    return this.element(qname, this.rng.chance(0.05) ? ' lang="sv"' : '', this.value(s, false));
  }

  /** The attributes and content of an object element of `s`. */
  content(s: Schema, depth: number): [attrs: string, content: string] {
    let attrs = '';
    const children: string[] = [];
    for (const [name, member] of Object.entries(s.properties ?? {})) {
      if (name === '$self') {
        if (this.rng.chance(0.1)) children.push(escape(this.rng.pick(WORDS)));
        continue;
      }
      if (member.type === 'array') {
        const count = depth > 4 ? this.rng.int(2) : this.rng.int(4);
        for (let i = 0; i < count; i++) {
          const item = resolved(member.items);
          children.push(item.type === 'object' ? this.object(name, item, depth + 1) : this.leafElement(name, item));
        }
      } else if (member.type === 'object') {
        if (this.rng.chance(depth > 4 ? 0.2 : 0.6)) children.push(this.object(name, member, depth + 1));
      } else if (this.rng.chance(0.55)) {
        const asAttribute = this.rng.chance(0.5);
        if (asAttribute || this.rng.chance(0.01)) attrs += ` ${name}="${this.value(member, true)}"`;
        if (!asAttribute) children.push(this.leafElement(name, member));
      }
    }
    // An unknown element inside an element whose own text is mapped refuses the document: seldom there.
    if (this.rng.chance(s.properties?.$self === undefined ? 0.15 : 0.02)) children.splice(this.rng.int(children.length + 1), 0, this.noise());
    if (this.rng.chance(0.15) && children.length > 1) children.reverse();
    if (this.rng.chance(0.1)) attrs += ` unknownMember="${escapeAttr(this.rng.pick(WORDS))}"`;
    return [attrs, children.map((c) => this.space() + c).join('') + this.space()];
  }

  private noise(): string {
    if (this.rng.chance(0.4)) return '<!-- note -->';
    return this.element(this.name('unknownElement'), '', this.rng.chance(0.5) ? escape(this.rng.pick(WORDS)) : '<inner a="1">x</inner>');
  }

  private object(name: string, s: Schema, depth: number): string {
    const qname = this.name(name);
    if (this.rng.chance(0.04)) return `<${qname} xsi:nil="true"/>`;
    if (this.rng.chance(0.04)) return this.element(qname, '', '');
    const [attrs, content] = this.content(s, depth);
    return this.element(qname, attrs, content);
  }

  /** A whole document of `root` whose children are the item's members (minus `omit`), maybe with `version`. */
  document(root: string, item: Schema, omit: readonly string[] = []): string {
    const properties = Object.fromEntries(Object.entries(item.properties ?? {}).filter(([key]) => !omit.includes(key)));
    const [attrs, content] = this.content({ type: 'object', properties }, 0);
    const version = omit.length > 0 && this.rng.chance(0.8) ? ` version="${this.value({ type: 'number' }, true)}"` : '';
    const qname = this.rng.chance(0.1) ? `m:${root}` : root;
    const doc = `${this.rng.chance(0.7) ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}`
      + `<${qname} xmlns="urn:example:ehr:mirror:2" xmlns:m="urn:example:ehr:mirror:2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"${version}${attrs}>`
      + `${content}</${qname}>\n`;
    return this.rng.chance(0.1) ? doc.replace(/\n/g, '\r\n') : doc;
  }
}

/**
 * Hostile XML documents, dressed as the answer a route asks for (its root element and namespace),
 * so only the hostile part — never a wrong root — is what the service must refuse.
 */
import { DOCUMENTS } from '../../../src/adapters/ehr-xml/documents.js';

export type DocumentKind = 'journalnotes' | 'contacts';

export const ROOT: Readonly<Record<DocumentKind, { root: string; item: string; ns: string }>> = {
  journalnotes: { root: 'JournalNoteRecords', item: 'JournalNoteRecord', ns: DOCUMENTS.journalnotes.namespace },
  contacts: { root: 'ContactEHRExtracts', item: 'contactEHRExtract', ns: DOCUMENTS.contacts.namespace },
};

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The classic billion laughs: ten levels of ten references, 10^9 "lol"s (3 GB) if ever expanded. */
export function billionLaughs(kind: DocumentKind): string {
  const { root, item, ns } = ROOT[kind];
  const levels = [' <!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) levels.push(` <!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `${DECLARATION}<!DOCTYPE ${root} [\n${levels.join('\n')}\n]>\n<${root} xmlns="${ns}"><${item}>&lol9;</${item}></${root}>\n`;
}

/** One 100 kB entity referenced 100 000 times (the "quadratic blowup"): 10 GB if expanded. */
export function quadraticBlowup(kind: DocumentKind): string {
  const { root, item, ns } = ROOT[kind];
  return `${DECLARATION}<!DOCTYPE ${root} [<!ENTITY a "${'a'.repeat(100_000)}">]>\n`
    + `<${root} xmlns="${ns}"><${item}>${'&a;'.repeat(100_000)}</${item}></${root}>\n`;
}

/** XXE: a general entity naming a local file, and one naming a loopback URL (the canary). */
export function externalEntity(kind: DocumentKind, system: string): string {
  const { root, item, ns } = ROOT[kind];
  return `${DECLARATION}<!DOCTYPE ${root} [<!ENTITY xxe SYSTEM "${system}">]>\n<${root} xmlns="${ns}"><${item}>&xxe;</${item}></${root}>\n`;
}

/** XXE through a parameter entity in the internal subset, fetched (if at all) while the DTD is read. */
export function parameterEntity(kind: DocumentKind, system: string): string {
  const { root, ns } = ROOT[kind];
  return `${DECLARATION}<!DOCTYPE ${root} [<!ENTITY % remote SYSTEM "${system}"> %remote;]>\n<${root} xmlns="${ns}"/>\n`;
}

/** An external DTD on the DOCTYPE itself, in lower case, after a BOM. */
export function externalDtd(kind: DocumentKind, system: string): string {
  const { root, ns } = ROOT[kind];
  return `\uFEFF${DECLARATION}<!doctype ${root} SYSTEM "${system}">\n<${root} xmlns="${ns}"/>\n`;
}

/** `depth` nested elements inside the root: 100 000 levels is about 700 kB, well under the size cap. */
export function deepNesting(kind: DocumentKind, depth: number): string {
  const { root, ns } = ROOT[kind];
  return `${DECLARATION}<${root} xmlns="${ns}">${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}</${root}>\n`;
}

/** The real document with `<name>` elements put inside its first record (and, for `__proto__`, an attribute too). */
export function reservedNames(document: string, kind: DocumentKind, name: string): string {
  const { item } = ROOT[kind];
  const open = new RegExp(`<((?:[A-Za-z0-9_]+:)?${item})>`);
  if (!open.test(document)) throw new Error(`no <${item}> in the ${kind} document`);
  return document.replace(open, `<$1><${name}><polluted>yes</polluted><isAdmin>true</isAdmin></${name}>`);
}

/** A Fault, as the EHR writes it, but sent with status 200: operator text that must never pass on. */
export function faultDocument(): string {
  return `${DECLARATION}<Fault xmlns="urn:example:ehr:fault:1"><Code>INTERNAL_ERROR</Code>`
    + '<Message>Internt fel för patient 191212121212: root:x:0:0:root:/root:/bin/bash java.lang.NullPointerException</Message></Fault>\n';
}

export const HTML_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>'
  + '<body><h1>Bad Gateway</h1><p>Upstream for 19121212-1212 failed. nginx/1.25</p></body></html>';

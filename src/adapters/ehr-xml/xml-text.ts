/**
 * Character-level rules of the single-pass reader (fast-reader.ts). Each rule accepts a SUBSET of
 * what the reference engine (fast-xml-parser's validator and parser, xml-parser.ts) accepts, and
 * decodes it to exactly the same text; whatever falls outside the subset makes the reader give the
 * document back to the reference engine, so no rule here can make the service more lenient.
 */

/** ASCII name characters; non-ASCII names are left to the reference engine. */
export const NAME_START = new Uint8Array(128);
export const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  NAME_START[c] = letter ? 1 : 0;
  NAME_CHAR[c] = letter || (c >= 48 && c <= 57) || c === 46 || c === 45 ? 1 : 0;
}

/** The XML whitespace the reference validator knows: space, tab, line feed (CR is normalised first). */
export const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9;

/** The ASCII characters String.prototype.trim removes (it also removes Unicode spaces, all >= 128). */
export const isTrimSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** `text` without a leading byte-order mark, as both engines read a document. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Line ends as fast-xml-parser normalises them before it reads (`\r\n?` -> `\n`). */
export const normaliseLineEnds = (text: string): string => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);

const DTD_KEYWORD = /\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/iy;

/**
 * Exactly `DTD_MARKUP.test(text)` (xml-parser.ts: `<!\s*(?:DOCTYPE|...)` case-insensitively), but
 * looking only where `<!` occurs instead of trying the pattern at every position.
 */
export function hasDtdMarkup(text: string): boolean {
  for (let at = text.indexOf('<!'); at >= 0; at = text.indexOf('<!', at + 2)) {
    // A comment or CDATA section (`<!-`, `<![`) cannot start the pattern: no regex needed there.
    const next = text.charCodeAt(at + 2);
    if (next === 45 || next === 91) continue;
    DTD_KEYWORD.lastIndex = at + 2;
    if (DTD_KEYWORD.test(text)) return true;
  }
  return false;
}

/**
 * Names the reference parser refuses (prototype pollution) or renames (`toString` -> `__toString`):
 * the reader never handles them itself.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
]);

const NAMED: ReadonlyMap<string, string> = new Map([['lt', '<'], ['gt', '>'], ['amp', '&'], ['quot', '"'], ['apos', "'"]]);

/** A character XML 1.0 allows and the reference decoder writes as itself (no C0 controls, no surrogates). */
const plainCodePoint = (cp: number): boolean =>
  cp === 9 || cp === 10 || cp === 13 || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0x10ffff);

function isDigits(s: string, from: number, to: number, hex: boolean): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (hex && ((c >= 97 && c <= 102) || (c >= 65 && c <= 70)));
    if (!ok) return false;
  }
  return true;
}

/** The character of the reference at `amp` (`&...;` ending at `semi`), or undefined outside the subset. */
function referenceAt(s: string, amp: number, semi: number): string | undefined {
  if (s.charCodeAt(amp + 1) !== 35) return NAMED.get(s.slice(amp + 1, semi));
  // The validator knows `&#x` only with a lower-case x.
  const hex = s.charCodeAt(amp + 2) === 120;
  const from = hex ? amp + 3 : amp + 2;
  if (semi - from > (hex ? 6 : 7) || !isDigits(s, from, semi, hex)) return undefined;
  const cp = Number.parseInt(s.slice(from, semi), hex ? 16 : 10);
  return plainCodePoint(cp) ? String.fromCodePoint(cp) : undefined;
}

/**
 * `s` with the five XML entities and numeric character references decoded, or undefined when it
 * holds any other `&` (an HTML entity, a bare ampersand, a reference to a control character):
 * those are the reference engine's to judge.
 */
export function decodeReferences(s: string): string | undefined {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  let out = '';
  let last = 0;
  while (amp >= 0) {
    const semi = s.indexOf(';', amp + 1);
    if (semi < 0 || semi - amp > 12) return undefined;
    const ch = referenceAt(s, amp, semi);
    if (ch === undefined) return undefined;
    out += s.slice(last, amp) + ch;
    last = semi + 1;
    amp = s.indexOf('&', last);
  }
  return out + s.slice(last);
}

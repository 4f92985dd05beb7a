/**
 * Character-level rules of the XML reader's tokenizer (xml-tokenizer.ts), XML 1.0 (fifth edition) as far as the
 * upstream format goes: names, whitespace, the characters a document may hold, and references.
 */

/** ASCII name characters (`:` is read apart, as the prefix separator); non-ASCII ones below. */
export const NAME_START = new Uint8Array(128);
export const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  NAME_START[c] = letter ? 1 : 0;
  NAME_CHAR[c] = letter || (c >= 48 && c <= 57) || c === 46 || c === 45 ? 1 : 0;
}

/**
 * XML's NameStartChar for a UTF-16 code unit >= 128. A surrogate pair (U+10000-U+EFFFF) is a name
 * character when its high half is D800-DB7F and a low half follows; `isNamePair` checks the pair.
 */
export const isNonAsciiNameStart = (c: number): boolean =>
  (c >= 0xc0 && c <= 0x2ff && c !== 0xd7 && c !== 0xf7) || (c >= 0x370 && c <= 0x1fff && c !== 0x37e)
  || c === 0x200c || c === 0x200d || (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef)
  || (c >= 0x3001 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd);

/** XML's NameChar for a code unit >= 128 (a surrogate half aside). */
export const isNonAsciiNameChar = (c: number): boolean =>
  isNonAsciiNameStart(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040;

/** Whether `text` holds at `i` a surrogate pair XML allows in names (U+10000-U+EFFFF). */
export const isNamePair = (text: string, i: number): boolean => {
  const hi = text.charCodeAt(i);
  const lo = text.charCodeAt(i + 1);
  return hi >= 0xd800 && hi <= 0xdb7f && lo >= 0xdc00 && lo <= 0xdfff;
};

/**
 * A character XML never allows in a document: C0 controls other than tab, LF and CR, and U+FFFE,
 * U+FFFF. (Lone surrogates are found by isWellFormed.)
 */
// The two non-characters are looked for apart: with them in the class, V8's regex scans 1.6 times slower.
// eslint-disable-next-line no-control-regex -- these control characters are exactly what it looks for
const FORBIDDEN_CONTROL = /[\0-\x08\x0B\x0C\x0E-\x1F]/;

/**
 * Every character the exact check below must look at more closely: the forbidden ones and any
 * surrogate (paired or not). Text without one holds only characters XML allows, found in one scan
 * instead of four; a piece of two bytes a character (an en dash will do) paid about ten
 * instructions a character for `isWellFormed` alone (issue 56 item 3). Text with one gets the exact
 * check. Not used where no lone surrogate can be (text decoded from bytes): the class of the control
 * regex alone scans faster than this one (the comment above), and there is no `isWellFormed` to spare.
 */
// eslint-disable-next-line no-control-regex -- these control characters are exactly what it looks for
const SUSPECT = /[\0-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** String.prototype.isWellFormed (ES2024, past the project's lib): whether `text` holds no lone surrogate. */
export const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** The exact check of hasOnlyXmlChars, for text SUSPECT found something in. */
const hasOnlyXmlCharsExactly = (text: string, noLoneSurrogate: boolean): boolean =>
  !FORBIDDEN_CONTROL.test(text) && !text.includes('\uFFFE') && !text.includes('\uFFFF')
  && (noLoneSurrogate || isWellFormed(text));

/**
 * Whether `text` holds only characters XML allows. `noLoneSurrogate`: the text is known to hold no
 * lone surrogate, being decoded from UTF-8 bytes, which gives U+FFFD for any sequence that is not a
 * character (document-pieces.ts): the pass that looks for one is spared (a third of this check on
 * text of two bytes a character), and the exact check is all there is to do. Else SUSPECT first.
 */
export const hasOnlyXmlChars = (text: string, noLoneSurrogate = false): boolean =>
  noLoneSurrogate ? hasOnlyXmlCharsExactly(text, true) : !SUSPECT.test(text) || hasOnlyXmlCharsExactly(text, false);

/** XML whitespace: space, tab, line feed (CR is normalised first). */
export const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 9;

/** The ASCII characters String.prototype.trim removes (it also removes Unicode spaces, all >= 128). */
export const isTrimSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** `text` without a leading byte-order mark. */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Line ends as XML normalises them before anything reads them (`\r\n?` -> `\n`). */
export const normaliseLineEnds = (text: string): string => (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text);

/** Deepest element nesting accepted; the deepest real document (journal notes) needs about 20. */
export const MAX_DEPTH = 64;

// A DTD is never legitimate here (docs/upstream-ehr.md#1-rules-every-document-follows); case-insensitive so `<!doctype` cannot slip past.
export const DTD_MARKUP = /<!\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;
const DTD_KEYWORD = /\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/iy;

/**
 * Exactly `DTD_MARKUP.test(text)`, but looking only where `<!` occurs instead of trying the pattern
 * at every position. It looks for the `!`, which text seldom holds, and then at the character before
 * it: a search for `<!` stops at every `<`, every tag (issue 56 item 3: 4 % of reading the 1 MB journal).
 */
export function hasDtdMarkup(text: string): boolean {
  for (let bang = text.indexOf('!'); bang >= 0; bang = text.indexOf('!', bang + 1)) {
    if (text.charCodeAt(bang - 1) !== 60) continue;
    // A comment or CDATA section (`<!-`, `<![`) cannot start the pattern: no regex needed there.
    const next = text.charCodeAt(bang + 1);
    if (next === 45 || next === 91) continue;
    DTD_KEYWORD.lastIndex = bang + 1;
    if (DTD_KEYWORD.test(text)) return true;
  }
  return false;
}

/** Element names refused outright: they could reach an object's prototype. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Names a leaf's inner element is keyed under with `__` before them (`toString` -> `__toString`), as
 * fast-xml-parser keys them, so a free-form object never holds an own `toString`.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set([
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf',
  '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
]);

const NAMED: ReadonlyMap<string, string> = new Map([['lt', '<'], ['gt', '>'], ['amp', '&'], ['quot', '"'], ['apos', "'"]]);

/** A character XML 1.0 allows (Char): tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF. */
const isXmlChar = (cp: number): boolean =>
  cp === 9 || cp === 10 || cp === 13 || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);

/** The code point of `&#...;` digits in `s[from, to)`, or -1 when they are not digits (any number of leading zeros). */
function codePoint(s: string, from: number, to: number, hex: boolean): number {
  if (to <= from) return -1;
  let cp = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (hex && c >= 97 && c <= 102) d = c - 87;
    else if (hex && c >= 65 && c <= 70) d = c - 55;
    else return -1;
    // Past U+10FFFF it can only be refused; stop growing.
    cp = Math.min(cp * (hex ? 16 : 10) + d, 0x110000);
  }
  return cp;
}

/** The character of the reference at `amp` (`&...;` ending at `semi`), or undefined when XML does not define it. */
function referenceAt(s: string, amp: number, semi: number): string | undefined {
  if (s.charCodeAt(amp + 1) !== 35) return NAMED.get(s.slice(amp + 1, semi));
  // `&#x` only with a lower-case x: XML defines no `&#X`.
  const hex = s.charCodeAt(amp + 2) === 120;
  const cp = codePoint(s, hex ? amp + 3 : amp + 2, semi, hex);
  return isXmlChar(cp) ? String.fromCodePoint(cp) : undefined;
}

/**
 * `s` with the five XML entities and character references decoded, or undefined when it holds any
 * other `&`: an undeclared entity (`&nbsp;`), a bare ampersand, a reference to a character XML forbids.
 */
export function decodeReferences(s: string): string | undefined {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  // Parts joined once: a string built by `+=` per reference is a tree of as many strings, which
  // for a text of 10^6 references cost the collector pauses of half a second (issue 20 item 2).
  const parts: string[] = [];
  let last = 0;
  while (amp >= 0) {
    const semi = s.indexOf(';', amp + 1);
    if (semi < 0) return undefined;
    const ch = referenceAt(s, amp, semi);
    if (ch === undefined) return undefined;
    if (amp > last) parts.push(s.slice(last, amp));
    parts.push(ch);
    last = semi + 1;
    amp = s.indexOf('&', last);
  }
  parts.push(s.slice(last));
  return parts.join('');
}

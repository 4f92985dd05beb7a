/**
 * A text as a person reading a log would take it (threats 34 and 50 of docs/threat-model.md): a path
 * logged as a client sent it may spell an identity number `%31%39…`, `%2531…` (encoded twice),
 * in fullwidth, Arabic-Indic or Devanagari digits, with a minus sign for its dash, with an invisible
 * character or a combining mark inside, and it is still that number.
 */

/** More rounds than this is no client's double encoding: the text is withheld rather than read further. */
const MAX_ROUNDS = 8;
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
const utf8 = new TextDecoder('utf-8');

/** One round of percent-decoding: each run of %XX read as UTF-8 bytes (a byte that is no character becomes U+FFFD); a `%` that escapes nothing stays. */
function decodeOnce(text: string): string {
  return text.replace(ESCAPES, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return utf8.decode(bytes);
  });
}

/**
 * Format characters (invisible: U+200B, U+2060 …), the blank fillers (Hangul's, the braille blank)
 * and marks (combining, enclosing, variation selectors, U+034F), which NFKC leaves where nothing
 * composes with them: `1\u0301912…` still reads as a 1 and its number to a person.
 */
const INVISIBLE_OR_MARK = /[\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u2800]/gu;

/**
 * Circled digits NFKC leaves as they are (❶ U+2776, ➀ U+2780, ➊ U+278A, ⓵ U+24F5: one to ten each):
 * a reader reads them as their numbers.
 */
const CIRCLED = /[\u2776-\u2793\u24f5-\u24fe]/gu;
const circledValue = (c: string): string => {
  const code = c.codePointAt(0) as number;
  const start = code <= 0x24fe ? 0x24f5 : 0x2776 + Math.floor((code - 0x2776) / 10) * 10;
  return String(code - start + 1);
};

/** Control characters other than tab and line breaks (a NUL or an ESC a decoded path may hold). */
const CONTROL = /[^\P{Cc}\t\n\r]/gu;

/** Signs a reader takes for a hyphen that NFKC leaves alone (minus sign, heavy minus, modifier minus, hyphen bullet). */
const MINUS_SIGNS = /[\u2212\u2796\u02d7\u2043]/gu;
/** A decimal digit of any script but ASCII's (U+0660 ٠, U+0966 ०, …); NFKC keeps them as they are. */
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;
const DIGIT = /\p{Nd}/u;

/**
 * The value of a decimal digit: Unicode keeps each script's digits in one run of ten code points from
 * zero to nine (its stability policy), so the value is the distance from the run's start, modulo ten
 * where runs of ten follow one another.
 */
function digitValue(digit: string): string {
  const code = digit.codePointAt(0) as number;
  let start = code;
  while (code - start < 60 && DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((code - start) % 10);
}

/**
 * `text` percent-decoded and its compatibility forms folded (NFKC: a fullwidth digit or percent sign is
 * an ASCII one) until nothing changes; then invisible characters, fillers and marks dropped, circled
 * and every script's digits made ASCII ones, control characters made spaces and minus signs hyphens.
 * Undefined when it still changes after MAX_ROUNDS (each round shortens the text or leaves it as NFKC
 * made it, so this bounds the work too). Plain ASCII text comes back as it was.
 */
export function readingOf(text: string): string | undefined {
  let current = text;
  for (let round = 0; ; round++) {
    const next = (current.includes('%') ? decodeOnce(current) : current).normalize('NFKC');
    if (next === current) break;
    if (round === MAX_ROUNDS) return undefined;
    current = next;
  }
  return current.replace(INVISIBLE_OR_MARK, '').replace(CIRCLED, circledValue).replace(CONTROL, ' ').replace(OTHER_DIGIT, digitValue).replace(MINUS_SIGNS, '-');
}

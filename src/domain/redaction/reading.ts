/**
 * A text as a person reading a log would take it (threats 34 and 50 of docs/threat-model.md): a path
 * logged as a client sent it may spell an identity number `%31%39…`, `%2531…` (encoded twice),
 * in fullwidth digits or with an invisible character inside, and it is still that number.
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

/** Control characters other than tab and line breaks (a NUL or an ESC a decoded path may hold). */
const CONTROL = /[^\P{Cc}\t\n\r]/gu;

/**
 * `text` percent-decoded and its compatibility forms folded (NFKC: a fullwidth digit or percent sign is
 * an ASCII one) until nothing changes, invisible format characters removed and control characters made
 * spaces; undefined when it still changes after MAX_ROUNDS (each round shortens the text or leaves it
 * as NFKC made it, so this bounds the work too). Plain ASCII text comes back as it was.
 */
export function readingOf(text: string): string | undefined {
  let current = text;
  for (let round = 0; ; round++) {
    const next = (current.includes('%') ? decodeOnce(current) : current).normalize('NFKC');
    if (next === current) break;
    if (round === MAX_ROUNDS) return undefined;
    current = next;
  }
  return current.replace(/\p{Cf}/gu, '').replace(CONTROL, ' ');
}

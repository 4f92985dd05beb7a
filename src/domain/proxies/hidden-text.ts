/**
 * Whether a grant's `purpose` could carry text its grantee does not see (hostile review helper-162, F4;
 * re-reviews helper-165 F3 and helper-166 F2: variation selectors, then joiners and selectors after
 * Latin letters, carried a hidden message a few bits a character). A character that shows nothing is
 * refused, but for those scripts and emoji are written with, where they change what is shown:
 *
 * - a joiner (ZWJ, ZWNJ) between two letters of a script whose letters join or form conjuncts (Arabic,
 *   the Indic scripts, Mongolian …), marks between them allowed, or ZWJ between two emoji;
 * - the text or emoji presentation selector (VS15, VS16) once after an emoji character (on a digit, `#`
 *   or `*` only before the keycap mark), the keycap mark after a digit, `#` or `*`, a Mongolian free
 *   variation selector after a Mongolian letter, and the three subdivision flags' tag sequences;
 * - at most MAX_MARKS marks over one letter (more stack over the text around it), joiners between them
 *   counting as none.
 *
 * Also refused: text not in NFC (a letter written two ways), ideographic variation selectors (240 of
 * them, mostly unregistered, a byte each: re-review helper-167, F2), private-use, unassigned and
 * noncharacter code points, the object replacement character, and spaces other than the plain,
 * no-break, thin, narrow no-break and ideographic ones (a choice of width is a bit each). Channels of a
 * bit here and there remain (a joiner between two letters of a joining script that join anyway, two
 * emoji a ZWJ does not fuse, a no-break space for a space): what the Unicode data at hand cannot tell.
 */

const HIDDEN = /^[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Me}\p{Co}\p{Cn}\u{fffc}\u{2800}]$/u;
/** The spaces text is written with (Intl's number and range formats among them); any other width is a hidden choice. */
const ODD_SPACE = /^(?![ \u00a0\u2009\u202f\u3000])\p{Zs}$/u;
const MARK = /^\p{M}$/u;
const MAX_MARKS = 4;
/** Scripts whose letters change shape or form conjuncts at a joiner: one there is seen. */
const JOINING = /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]$/u;
const EMOJI = /^\p{Emoji}$/u;
const PICTOGRAPHIC = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}]$/u;
const KEYCAP_BASE = /^[0-9#*]$/;
/** England, Scotland and Wales: the only subdivision flags there are, each a black flag and its tags. */
const SUBDIVISION_FLAGS = /\u{1f3f4}\u{e0067}\u{e0062}(?:\u{e0065}\u{e006e}\u{e0067}|\u{e0073}\u{e0063}\u{e0074}|\u{e0077}\u{e006c}\u{e0073})\u{e007f}/gu;

const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const isSelector = (c: string): boolean => c === '\ufe0e' || c === '\ufe0f';
const cp = (c: string): number => c.codePointAt(0) ?? 0;
const isMongolianSelector = (c: string): boolean => (cp(c) >= 0x180b && cp(c) <= 0x180d) || cp(c) === 0x180f;

/** The letter the marks before position `i` sit on, and whether anything but marks lies between. */
function baseBefore(chars: readonly string[], i: number): string | undefined {
  let j = i - 1;
  while (j >= 0 && MARK.test(chars[j] as string) && !isSelector(chars[j] as string)) j--;
  return chars[j];
}

/** Whether the joiner at `i` joins what it stands between. */
function joins(chars: readonly string[], i: number): boolean {
  const before = chars[i - 1];
  const after = chars[i + 1];
  if (before === undefined) return false;
  const base = baseBefore(chars, i);
  // After a virama at a word's end it makes a letter's dead form (Malayalam's chillu: ന്‍).
  if (base !== undefined && JOINING.test(base) && (after === undefined ? MARK.test(before) : JOINING.test(after) || (MARK.test(before) && !/^\p{L}$/u.test(after)))) return true;
  if (after === undefined) return false;
  return chars[i] === ZWJ && PICTOGRAPHIC.test(after) && (PICTOGRAPHIC.test(before) || (before === '\ufe0f' && PICTOGRAPHIC.test(chars[i - 2] ?? '')));
}

/** Whether the invisible character at `i` does what it is for there. */
function variesOrJoins(chars: readonly string[], i: number): boolean {
  const c = chars[i] as string;
  const before = chars[i - 1];
  if (c === ZWJ || c === ZWNJ) return joins(chars, i);
  if (before === undefined) return false;
  // On a digit, `#` or `*` a selector only makes a keycap: without the keycap mark after it, it shows nothing.
  if (isSelector(c)) return EMOJI.test(before) && !MARK.test(before) && (!KEYCAP_BASE.test(before) || chars[i + 1] === '\u20e3');
  if (c === '\u20e3') return KEYCAP_BASE.test(before) || (before === '\ufe0f' && KEYCAP_BASE.test(chars[i - 2] ?? ''));
  if (isMongolianSelector(c)) return /^\p{Script=Mongolian}$/u.test(before) && !isMongolianSelector(before);
  return false;
}

export function hidesText(text: string): boolean {
  // One spelling of each letter: é and e with a combining acute look the same and would be a choice each (NFC is how keyboards write).
  if (text.normalize('NFC') !== text) return true;
  const chars = [...text.replace(SUBDIVISION_FLAGS, '\u{1f3f4}')];
  let marks = 0;
  for (const [i, c] of chars.entries()) {
    if (ODD_SPACE.test(c)) return true;
    if (HIDDEN.test(c) || isSelector(c)) {
      if (!variesOrJoins(chars, i)) return true;
      // A joiner between marks does not start a new letter: they still stack over the one before.
      continue;
    }
    marks = MARK.test(c) ? marks + 1 : 0;
    if (marks > MAX_MARKS) return true;
  }
  return false;
}

/**
 * Texts the mapped records keep, in strings of their own.
 *
 * Why: the reader takes a text or attribute value as a substring of the piece it reads
 * (document-pieces.ts), and V8 makes a substring of 13 characters or more a view into its parent.
 * A mapped record holding such a view holds the whole 32 KiB piece, stored two bytes per character
 * as soon as the piece has one character past U+00FF (an en dash will do). A mapped ~9 MiB journal
 * kept 29.3 MiB alive that way for 2.2 million characters of text, a 1 MB journal 3.1 MiB; with
 * texts of their own, 10.3 MiB and 1.0 MiB (BENCHMARKS.md, issue 20 item 6, sixth round). The
 * record trees of large answers wait for their turn to be serialised, so this is the memory a large
 * answer holds in flight, and what every young-generation collection copies while it is built.
 *
 * How: no JavaScript API promises a copy of a string, but V8 joins a string made of two parts into
 * one new string before it takes a substring of it, so `(s + ' ').slice(0, -1)` is `s`, in a
 * string that shares nothing with the piece. Values repeat (the roots of identifiers, unit and
 * care provider names), so a short value seen before in the same document is given the string
 * made for it before (the last one of its slot, see `slotOf`): one string for all of them, and no copy.
 *
 * Only documents of more than one piece pay for it: a one-piece document's texts can hold no more
 * than that piece, and its records are as small as before.
 */

/** Shorter substrings are already copies in V8 (SlicedString::kMinLength). */
const SHORTEST_VIEW = 13;
/** Values up to this long are looked up among those seen before (identifiers, codes, names). */
const LONGEST_REPEATED = 64;
/** Values remembered per document, one a slot: a bound on the table, whatever the document holds. */
const REMEMBERED = 1024;

/**
 * The slot a value is remembered in: its length and three of its characters. Why not a Map: a Map
 * hashes every character of a value it looks up, which cost 6 % of reading the 1 MB journal (issue 56
 * item 3); a slot is found from four numbers, and a value found there is compared whole (`===`),
 * so a value that shares its slot with another is only copied anew, never given the other's text.
 */
const slotOf = (s: string): number =>
  (s.length * 31 + s.charCodeAt(s.length >> 1) * 17 + s.charCodeAt(s.length - 1) * 7 + s.charCodeAt(s.length - 5)) & (REMEMBERED - 1);

export class KeptTexts {
  private readonly seen: (string | undefined)[] = new Array<string | undefined>(REMEMBERED).fill(undefined);

  /** `s` in a string that shares no storage with the document's pieces. */
  keep(s: string): string {
    if (s.length < SHORTEST_VIEW) return s;
    if (s.length > LONGEST_REPEATED) return copied(s);
    const slot = slotOf(s);
    const before = this.seen[slot];
    if (before === s) return before;
    const kept = copied(s);
    this.seen[slot] = kept;
    return kept;
  }
}

const copied = (s: string): string => (s + ' ').slice(0, -1);

/**
 * XML names as the tokenizer reads them (xml-tokenizer.ts, docs/xml-reader.md), in place: a Name of
 * XML 1.0 in any script it allows, with at most one colon (a prefix and a local name). What is not
 * one is not well-formed XML; a second colon ends the name, which the caller then refuses for what
 * follows it. Element names that could reach an object's prototype are refused apart
 * (`isForbiddenName`, not parseable XML).
 *
 * The common tag is matched in place against the few names its parent's shape knows (`readKnown`)
 * instead of character by character. That gives the same answer as `read` only for names `read`
 * would read whole: a shape offers no other (`isPlainName`, checked where the tables are made,
 * shape-lookup.ts).
 */
import { notWellFormed } from './malformed-document-error.js';
import { FORBIDDEN_NAMES, isNamePair, isNonAsciiNameChar, isNonAsciiNameStart, NAME_CHAR, NAME_START } from './xml-text.js';

/**
 * The names of a group that share a first character, `[name, id, name, id, ...]` by their character
 * at `at` (ASCII): the place where they differ most, so a tag is tried against about one of them.
 */
export interface KnownGroup {
  readonly at: number;
  readonly byChar: readonly (readonly (string | number)[] | undefined)[];
}

/** Names that may be matched in place (`readKnown`), by their first character (ASCII). */
export type KnownNames = readonly (KnownGroup | undefined)[];

/**
 * The table `readKnown` matches `entries` (name, id) in: grouped by first character, then by the
 * character at the place where the group's names differ most. By the first character alone, a tag of
 * the 1 MB care contacts mirror was tried against 3.7 names on average (`contactPerformingUnit`,
 * `contactId`, ...), each a `startsWith`; the place costs one more character looked at (issue 56 item 3).
 * Every name must be a plain one (`isPlainName`).
 */
export function knownNames(entries: readonly (readonly [name: string, id: number])[]): KnownNames {
  const byFirst = new Map<number, (readonly [string, number])[]>();
  for (const entry of entries) {
    const first = entry[0].charCodeAt(0);
    const group = byFirst.get(first);
    if (group === undefined) byFirst.set(first, [entry]);
    else group.push(entry);
  }
  const table = new Array<KnownGroup | undefined>(128).fill(undefined);
  for (const [first, group] of byFirst) {
    const at = placeOfMostDifference(group.map(([name]) => name));
    const byChar = new Array<(string | number)[] | undefined>(128).fill(undefined);
    for (const [name, id] of group) (byChar[name.charCodeAt(at)] ??= []).push(name, id);
    table[first] = { at, byChar };
  }
  return table;
}

/** The place within the shortest of `names` where they hold the most different characters, all ASCII (0, their shared first, when none does better). */
function placeOfMostDifference(names: readonly string[]): number {
  const shortest = Math.min(...names.map((n) => n.length));
  let best = 0;
  let most = 1;
  for (let at = 1; at < shortest; at++) {
    const chars = names.map((n) => n.charCodeAt(at));
    if (chars.some((c) => c >= 128)) continue;
    const different = new Set(chars).size;
    if (different > most) {
      best = at;
      most = different;
    }
  }
  return best;
}

export class NameReader {
  /** Where the name last read ends. */
  end = 0;
  /** Where its colon is, or -1 when it has no prefix. */
  colon = -1;
  /** The name `readKnown` matched. */
  known = '';

  /** Reads the name at `from`: its first character must start a name, else it is not well-formed XML. */
  read(t: string, from: number): void {
    let j = nameStart(t, from);
    let colon = -1;
    for (;;) {
      const c = t.charCodeAt(j);
      if (c < 128) {
        if (NAME_CHAR[c] === 1) {
          j++;
        } else if (c === 58 && colon < 0) {
          colon = j;
          j = nameStart(t, j + 1);
        } else {
          break;
        }
      } else if (isNonAsciiNameChar(c)) {
        j++;
      } else if (isNamePair(t, j)) {
        j += 2;
      } else {
        break;
      }
    }
    this.end = j;
    this.colon = colon;
  }

  /**
   * The id of the name at `from` when it is one of `known` and ends where that one does (it does not
   * run on into more name characters, a colon or anything non-ASCII), `end`, `colon` and `known`
   * then set as `read` would set them; else -1, and the caller reads the name with `read`.
   */
  readKnown(t: string, from: number, known: KnownNames): number {
    const candidates = candidatesAt(known, t, from);
    if (candidates === undefined) return -1;
    for (let i = 0; i < candidates.length; i += 2) {
      const name = candidates[i] as string;
      const end = from + name.length;
      const after = t.charCodeAt(end);
      if (after >= 128 || NAME_CHAR[after] === 1 || after === 58 || !t.startsWith(name, from)) continue;
      this.end = end;
      this.colon = -1;
      this.known = name;
      return candidates[i + 1] as number;
    }
    return -1;
  }
}

/** The names of `known` a name at `t[from]` may be: those of its first character that share its character at their group's place. */
function candidatesAt(known: KnownNames, t: string, from: number): readonly (string | number)[] | undefined {
  const first = t.charCodeAt(from);
  const group = first < 128 ? known[first] : undefined;
  if (group === undefined) return undefined;
  // Past the text's end this is NaN, which no candidate has.
  const c = t.charCodeAt(from + group.at);
  return c < 128 ? group.byChar[c] : undefined;
}

/** The id of the name `t[from, to)`, read whole already (the local part of a prefixed one), in `known`; -1 when it is none of them. */
export function knownId(known: KnownNames, t: string, from: number, to: number): number {
  const candidates = candidatesAt(known, t, from);
  if (candidates === undefined) return -1;
  for (let i = 0; i < candidates.length; i += 2) {
    const name = candidates[i] as string;
    if (name.length === to - from && t.startsWith(name, from)) return candidates[i + 1] as number;
  }
  return -1;
}

/** Past the name start character at `i`. */
function nameStart(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c < 128) {
    if (NAME_START[c] !== 1) notWellFormed();
    return i + 1;
  }
  if (isNonAsciiNameStart(c)) return i + 1;
  if (!isNamePair(t, i)) notWellFormed();
  return i + 2;
}

const FORBIDDEN_LENGTHS = [...FORBIDDEN_NAMES].map((n) => n.length);
const SHORTEST_FORBIDDEN = Math.min(...FORBIDDEN_LENGTHS);
const LONGEST_FORBIDDEN = Math.max(...FORBIDDEN_LENGTHS);

/** Whether the local name `t[from, to)` is one refused outright (`__proto__`, `constructor`, `prototype`). */
export function isForbiddenName(t: string, from: number, to: number): boolean {
  const length = to - from;
  return length >= SHORTEST_FORBIDDEN && length <= LONGEST_FORBIDDEN && FORBIDDEN_NAMES.has(t.slice(from, to));
}

/**
 * Whether `name` may be offered to `readKnown`: read by `read` as exactly itself, without a prefix,
 * starting with an ASCII character (the tables go by it), and not a forbidden name.
 */
export function isPlainName(name: string): boolean {
  if (name.length === 0 || name.charCodeAt(0) >= 128 || FORBIDDEN_NAMES.has(name)) return false;
  const reader = new NameReader();
  try {
    reader.read(name, 0);
  } catch {
    return false;
  }
  return reader.end === name.length && reader.colon < 0;
}

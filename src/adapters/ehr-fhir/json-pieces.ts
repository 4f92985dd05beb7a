/**
 * A JSON text cut into pieces that JSON.parse reads one at a time, so a 4 MiB FHIR page never holds
 * the event loop in one go (docs/upstream-fhir.md#search-and-paging, "Bounded cost"). One pass over
 * the text's bytes finds where each value begins and ends, following strings (and their escapes) and
 * the nesting of objects and arrays. A container of at most PIECE_BYTES is one piece; a larger one is
 * cut between its members into runs of consecutive members (at most PIECE_BYTES together), and a
 * member that is itself a larger container is cut in turn. Each byte is looked at once by the pass,
 * and decoded and read once by JSON.parse: linear in the text. The pass works on the UTF-8 bytes, so
 * that the text is decoded piece by piece too (decoding 4 MiB at once took 25 ms here): every byte
 * JSON's structure is made of is ASCII, and no byte of a multi-byte UTF-8 character is.
 *
 * The pass checks only what lies between the pieces of a cut container (commas, colons, brackets)
 * and the nesting depth; JSON.parse checks everything within a piece, strings and numbers included.
 * So the pieces together accept the texts JSON.parse accepts (but for nesting deeper than MAX_DEPTH),
 * and fhir-json.ts joins them into the value JSON.parse would give.
 *
 * Why not a library: stream-json gives each number's text, but tokenises every character in
 * JavaScript and makes an object of every token, several times JSON.parse's cost; lossless-json
 * keeps numbers' text but parses a text in one go; @discoveryjs/json-ext cuts and joins much as this
 * does, but runs a reviver over the joined value afterwards, where a number's source text is gone.
 * JSON.parse with a reviver (fhir-json.ts) keeps decimals as written (4.0 stays "4.0"), and the cut
 * lets it do so piece by piece.
 */
import { fhirFault } from './fault.js';

/** Bytes one JSON.parse reads at most, but for a single string or number longer than this (native work, a few ms a MiB). */
export const PIECE_BYTES = 8 * 1024;
/** Containers nested deeper make the text refused: FHIR resources nest a few dozen levels, and deeper text only walks stacks. */
export const MAX_DEPTH = 256;
/** How many bytes the pass goes through between looks at the clock. */
const CHECK_BYTES = 64 * 1024;

/** A stretch of the text (byte offsets) that one JSON.parse reads: a whole value, or consecutive members of a container. */
export interface Run {
  from: number;
  to: number;
}

/** A container cut between its members: runs of them, and members cut in turn (an object's with the run of its key). */
export interface Cut {
  kind: 'array' | 'object';
  parts: (Run | { key: Run | undefined; cut: Cut })[];
}

/** What the clock says between pieces: when it is time, a turn of the event loop is given. */
export interface Slices {
  breathe(): Promise<void> | undefined;
}

interface Frame {
  readonly kind: Cut['kind'];
  /** Where its bracket stands. */
  readonly open: number;
  readonly parts: Cut['parts'];
  /** The run being gathered. */
  run: Run | undefined;
  /** Where the member being read begins (its key, in an object), and its key. */
  memberFrom: number;
  key: Run | undefined;
}

interface Value extends Run {
  cut?: Cut;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const notJson = (): Error => fhirFault('not JSON');
const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** What ends a number, `true`, `false` or `null`: JSON.parse then judges the characters before it. */
const endsBare = (c: number | undefined): boolean => isSpace(c) || c === COMMA || c === COLON || c === QUOTE
  || c === OPEN_ARRAY || c === CLOSE_ARRAY || c === OPEN_OBJECT || c === CLOSE_OBJECT;

function skipSpace(text: Buffer, i: number): number {
  while (isSpace(text[i])) i++;
  return i;
}

/** The index after the string that begins at `i`: its closing quote is the first with an even run of backslashes before it. */
function endOfString(text: Buffer, i: number): number {
  for (let from = i + 1; ;) {
    const quote = text.indexOf(QUOTE, from);
    if (quote < 0) throw notJson();
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function endOfBare(text: Buffer, i: number): number {
  let end = i;
  while (end < text.length && !endsBare(text[end])) end++;
  if (end === i) throw notJson();
  return end;
}

const closerOf = (frame: Frame): number => (frame.kind === 'array' ? CLOSE_ARRAY : CLOSE_OBJECT);

/** Where the member's value begins, its key (an object's) and colon read. */
function memberStart(text: Buffer, frame: Frame, i: number): number {
  frame.memberFrom = i;
  if (frame.kind === 'array') return i;
  if (text[i] !== QUOTE) throw notJson();
  const keyEnd = endOfString(text, i);
  frame.key = { from: i, to: keyEnd };
  const colon = skipSpace(text, keyEnd);
  if (text[colon] !== COLON) throw notJson();
  return skipSpace(text, colon + 1);
}

function endRun(frame: Frame): void {
  if (frame.run !== undefined) frame.parts.push(frame.run);
  frame.run = undefined;
}

/** The member just read joins the run being gathered, or ends it (a cut member, or a run that would grow past a piece). */
function add(frame: Frame, value: Value, pieceBytes: number): void {
  if (value.cut !== undefined) {
    endRun(frame);
    frame.parts.push({ key: frame.key, cut: value.cut });
  } else if (frame.run !== undefined && value.to - frame.run.from <= pieceBytes) {
    frame.run.to = value.to;
  } else {
    endRun(frame);
    frame.run = { from: frame.memberFrom, to: value.to };
  }
}

/** The container of `frame`, ended at `end`: one piece when small enough, else cut. */
function closed(frame: Frame, end: number, pieceBytes: number): Value {
  if (end - frame.open <= pieceBytes) return { from: frame.open, to: end };
  endRun(frame);
  return { from: frame.open, to: end, cut: { kind: frame.kind, parts: frame.parts } };
}

/**
 * `text` (the UTF-8 bytes of one JSON value, whitespace around it) as one piece or cut; throws a
 * fault when its structure is not JSON's. `pieceBytes` smaller than PIECE_BYTES only for tests, to cut everywhere.
 */
export async function cutJson(text: Buffer, slices: Slices, pieceBytes = PIECE_BYTES): Promise<Run | Cut> {
  const stack: Frame[] = [];
  let checked = 0;
  let i = skipSpace(text, 0);
  for (;;) {
    if (i - checked >= CHECK_BYTES) {
      checked = i;
      await slices.breathe();
    }
    // A value begins at i.
    let value: Value;
    const c = text[i];
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (stack.length === MAX_DEPTH) throw fhirFault(`JSON nested deeper than ${MAX_DEPTH} levels`);
      const frame: Frame = { kind: c === OPEN_ARRAY ? 'array' : 'object', open: i, parts: [], run: undefined, memberFrom: i, key: undefined };
      stack.push(frame);
      i = skipSpace(text, i + 1);
      if (text[i] !== closerOf(frame)) {
        i = memberStart(text, frame, i);
        continue;
      }
      stack.pop();
      i += 1;
      value = { from: frame.open, to: i };
    } else {
      const end = c === QUOTE ? endOfString(text, i) : endOfBare(text, i);
      value = { from: i, to: end };
      i = end;
    }
    // A value has been read: it joins its container, and each container that ends after it is read.
    for (;;) {
      const frame = stack.at(-1);
      if (frame === undefined) {
        if (skipSpace(text, i) !== text.length) throw notJson();
        return value.cut ?? { from: value.from, to: value.to };
      }
      add(frame, value, pieceBytes);
      i = skipSpace(text, i);
      const next = text[i];
      if (next === COMMA) {
        i = memberStart(text, frame, skipSpace(text, i + 1));
        break;
      }
      if (next !== closerOf(frame)) throw notJson();
      stack.pop();
      i += 1;
      value = closed(frame, i, pieceBytes);
    }
  }
}

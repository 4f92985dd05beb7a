/**
 * FHIR JSON, read so that decimals stay as written (docs/upstream-fhir.md#text-numbers-and-codes):
 * a lab value `4.0` is answered `"4.0"`, never `"4"`. JSON.parse hands its reviver the source text
 * of each number (Node 22 and 24); where that text differs from how JavaScript writes the number,
 * it is kept beside the object that holds the number, and `writtenNumber` gives it back. Numbers
 * stay numbers, so the schemas check them as numbers. A number of more than MAX_DECIMAL_DIGITS
 * digits makes the answer malformed, before anything is done with it: four million digits of a fee
 * held the event loop a second in the payment's arithmetic.
 *
 * An answer is parsed in slices (`parseFhirJsonInSlices`): a 4 MiB page through one JSON.parse with
 * the reviver held the event loop 70-520 ms. json-pieces.ts cuts its bytes where JSON.parse can read
 * them piece by piece; here each piece is decoded and read with the same reviver, and the pieces are
 * joined as JSON.parse would join them, a turn of the event loop given every SLICE_MS.
 */
import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EhrError } from '../../domain/ehr-error.js';
import { hasOnlyXmlChars } from '../ehr-xml/xml-text.js';
import { fhirFault } from './fault.js';
import { cutJson, MAX_DEPTH, type Cut, type Slices } from './json-pieces.js';

/** The most digits a number of a FHIR answer may have (docs/upstream-fhir.md#settings, "Bounded cost"). */
export const MAX_DECIMAL_DIGITS = 40;

/** Whether `text` (a number as written) has more than MAX_DECIMAL_DIGITS digits. */
export function tooManyDigits(text: string): boolean {
  if (text.length <= MAX_DECIMAL_DIGITS) return false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39 && ++digits > MAX_DECIMAL_DIGITS) return true;
  }
  return false;
}

const written = new WeakMap<object, Map<string, string>>();

interface ReviverContext {
  source?: string;
}

/** Notes the source text of the number at `holder[key]`, or forgets what was noted there (undefined). */
function noteSource(holder: object, key: string, source: string | undefined): void {
  let sources = written.get(holder);
  if (source === undefined) {
    sources?.delete(key);
    return;
  }
  if (sources === undefined) {
    sources = new Map();
    written.set(holder, sources);
  }
  sources.set(key, source);
}

function keepSource(this: unknown, key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === 'number' && context?.source !== undefined && tooManyDigits(context.source)) {
    throw fhirFault(`a number of more than ${MAX_DECIMAL_DIGITS} digits`);
  }
  if (typeof value === 'number' && context?.source !== undefined && context.source !== String(value)) {
    noteSource(this as object, key, context.source);
  }
  return value;
}

const REVIVER = keepSource as (key: string, value: unknown) => unknown;

const OPENS_CONTAINER = /^[ \t\n\r]*[{[]/;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/** Where the string whose opening quote stands at `i` ends (after its closing quote); -1 when it does not end. */
function afterString(text: string, i: number): number {
  for (let from = i + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Whether `c` may stand in a number as JSON writes one (digits, `-`, `+`, `.`, `e`, `E`). */
const inNumber = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === MINUS || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;

/**
 * Whether `text` (an object or array) holds no number the reviver would act on: none written
 * otherwise than JavaScript writes it (`4.0`, `1e2`, `-0`, more digits than a double keeps, so none
 * of too many digits either). JSON.parse without the reviver then gives exactly what it gives with it, with
 * nothing to note, at a third of its cost. Strings are stepped over whole (indexOf, native): a search
 * of the whole text held the loop ~1 s on a 10 MiB string of `,1,1…` (one piece in slices), a match
 * at every other character; outside strings, in JSON, a `-` or a digit can only begin a number,
 * and the number runs to the first character that cannot be in one. Text that is not JSON may be
 * judged either way: JSON.parse refuses it with or without the reviver. Nesting deeper than MAX_DEPTH
 * keeps the reviver too: its walk is what refuses nesting past the stack (RangeError), as before.
 */
function plainNumbersOnly(text: string): boolean {
  if (!OPENS_CONTAINER.test(text)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const after = afterString(text, i);
      if (after < 0) return false;
      i = after - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_DEPTH) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && inNumber(text.charCodeAt(end))) end++;
      // A number of more than MAX_DECIMAL_DIGITS digits never reads back as written either: the reviver refuses it.
      const source = text.slice(i, end);
      if (String(Number(source)) !== source) return false;
      i = end - 1;
    }
  }
  return true;
}

/**
 * Whether `text` (JSON) may give a string with a character a FHIR string may not hold. JSON.parse
 * refuses a control character written as itself, so one can come only by an escape (`\u0000`, `\b`,
 * `\f`); a lone surrogate by an escape too (`\uD800`), or in text not decoded from bytes; U+FFFE and
 * U+FFFF as escapes or themselves. One native scan, so the strings are walked only where one might
 * be: not for the `\u00e5` of a server that escapes all but ASCII (a walk costs ~5 ms a MiB).
 * An escaped backslash before `u0000` (`\\u0000`, text as written) is walked for nothing, and passes.
 */
const MAY_BE_UNFIT = /\\(?:u(?:00[01]|[dD][89a-fA-F]|[fF]{3}[eEfF])|[bf])|[\uD800-\uDFFF\uFFFE\uFFFF]/;

const UNFIT = 'a string with a character FHIR does not allow';

/**
 * Refuses `value` (parsed JSON) where a string of it, a member name too, holds a character FHIR's
 * string may not (below U+0020 but tab, CR and LF) or XML 1.0 refuses (a lone surrogate, U+FFFE,
 * U+FFFF), as the legacy XML path refuses them: such text cannot be shown as the EHR wrote it.
 */
function refuseUnfit(value: unknown): void {
  if (typeof value === 'string') {
    if (!hasOnlyXmlChars(value)) throw fhirFault(UNFIT);
  } else if (Array.isArray(value)) {
    for (const item of value) refuseUnfit(item);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      refuseUnfit(key);
      refuseUnfit(member);
    }
  }
}

/**
 * `text` as JSON.parse with the reviver reads it; without the reviver where that gives the same.
 * Every string of an answer passes here (in a piece, or a cut container's member name in `joined`).
 */
function parseKeepingSources(text: string): unknown {
  const value = plainNumbersOnly(text) ? JSON.parse(text) : JSON.parse(text, REVIVER);
  if (MAY_BE_UNFIT.test(text)) refuseUnfit(value);
  return value;
}

/** Not JSON (or nested past what the parser can hold) is a fault of the answer; the refusals of this file are already. */
function refusal(err: unknown): unknown {
  return err instanceof SyntaxError || err instanceof RangeError ? fhirFault('not JSON') : err;
}

/** The JSON of a FHIR answer, in one go: for a small one (a large one is `parseFhirJsonInSlices`'). */
export function parseFhirJson(text: string): unknown {
  try {
    return parseKeepingSources(text);
  } catch (err) {
    throw refusal(err);
  }
}

/** How long the parse of one answer may hold the event loop before it gives a turn (the contract's bound is 20 ms). */
export const SLICE_MS = 5;

/**
 * A turn of the event loop once `sliceMs` have passed since the last; after it, a call whose deadline
 * has passed stops: a page of a million numbers costs seconds of work, which nobody waits for then.
 */
class SliceClock implements Slices {
  private since = performance.now();

  constructor(private readonly sliceMs: number, private readonly deadline: AbortSignal | undefined) {}

  breathe(): Promise<void> | undefined {
    if (performance.now() - this.since < this.sliceMs) return undefined;
    return nextTurn().then(() => {
      if (this.deadline?.aborted) throw new EhrError('timeout', 'FHIR call exceeded its deadline');
      this.since = performance.now();
    });
  }
}

type Container = unknown[] | Record<string, unknown>;

/**
 * `value` as the next member of an array, or as `into[key]`, set as JSON.parse sets it: an own
 * property whatever its name (`__proto__` too), a repeated key keeping its place with the last
 * value. The number's source text goes with it, or what was noted for a repeated key is forgotten.
 */
function put(into: Container, key: string | undefined, value: unknown, source: string | undefined): void {
  if (Array.isArray(into)) {
    noteSource(into, String(into.length), source);
    into.push(value);
    return;
  }
  Object.defineProperty(into, key as string, { value, writable: true, enumerable: true, configurable: true });
  noteSource(into, key as string, source);
}

/** The members of a run, read alone as `[…]` or `{…}`, moved into their container with their numbers' source text. */
function adopt(run: Container, into: Container): void {
  const sources = written.get(run);
  if (Array.isArray(run)) {
    for (let k = 0; k < run.length; k++) put(into, undefined, run[k], sources?.get(String(k)));
  } else {
    for (const key of Object.keys(run)) put(into, key, run[key], sources?.get(key));
  }
}

/** The container a cut stands for: each run read by one JSON.parse, each cut member joined in turn. */
async function joined(bytes: Buffer, cut: Cut, slices: Slices): Promise<Container> {
  const into: Container = cut.kind === 'array' ? [] : {};
  for (const part of cut.parts) {
    if ('cut' in part) {
      const key = part.key === undefined ? undefined : parseKeepingSources(bytes.toString('utf8', part.key.from, part.key.to)) as string;
      put(into, key, await joined(bytes, part.cut, slices), undefined);
      continue;
    }
    const members = bytes.toString('utf8', part.from, part.to);
    adopt(parseKeepingSources(cut.kind === 'array' ? `[${members}]` : `{${members}}`) as Container, into);
    await slices.breathe();
  }
  return into;
}

/**
 * The JSON of a FHIR answer (its UTF-8 bytes, or text) as `parseFhirJson` gives it, parsed piece by
 * piece with a turn of the event loop every `sliceMs`, given up (`timeout`) once `signal`, the call's
 * deadline, has aborted. `pieceBytes` only for tests (json-pieces.ts).
 */
export async function parseFhirJsonInSlices(
  body: Buffer | string, options: { sliceMs?: number; signal?: AbortSignal | undefined; pieceBytes?: number } = {},
): Promise<unknown> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  // Decoding reads bytes that are no UTF-8 as U+FFFD: text the EHR never wrote. One native pass.
  if (!isUtf8(bytes)) throw fhirFault('not UTF-8');
  const slices = new SliceClock(options.sliceMs ?? SLICE_MS, options.signal);
  try {
    const pieces = await cutJson(bytes, slices, options.pieceBytes);
    return 'kind' in pieces ? await joined(bytes, pieces, slices) : parseKeepingSources(bytes.toString('utf8'));
  } catch (err) {
    throw refusal(err);
  }
}

/**
 * The number at `holder[key]` as the JSON wrote it. A number that did not come through
 * `parseFhirJson` (one made in code) is written as JavaScript writes it.
 */
export function writtenNumber(holder: object, key: string | number): string | undefined {
  const value = (holder as Record<string, unknown>)[key];
  if (typeof value !== 'number') return undefined;
  return written.get(holder)?.get(String(key)) ?? String(value);
}

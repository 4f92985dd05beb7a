/**
 * No identity number and no token in a log line or a span (threats 34 and 50 of
 * docs/threat-model.md): every text is searched both as written and as a person would read it
 * (reading.ts), and what either holds is replaced. Text that holds nothing comes back unchanged; text
 * that does comes back as read, with the findings replaced, so the log shows what was removed and
 * where. The rules, conservative on purpose:
 *
 * - Any 12 digits `(18|19|20)YYMMDDNNNC`, or any 10, standing alone, a `-` or `+` allowed before the
 *   last four: replaced whether or not they are a valid number (their shape is enough).
 * - Any run of digits that holds a person's number by the one rule of names-a-person.ts (digits joined
 *   by one to three separators, a valid number in any 12 or 10 of them in a row, or more than 40): the
 *   whole run is replaced. `2015062198471` is `201506219847` and one digit more.
 * - A JWT or any part of one (base64url JSON, `eyJ…`, with its dotted segments), and any run of 40 or
 *   more base64url characters mixing upper case, lower case and digits (a signature or a key alone).
 */
import { DIGIT_RUN, holdsPersonNumber, runPasses } from './names-a-person.js';
import { readingOf } from './reading.js';

export const REDACTED = '[REDACTED]';

const NUMBER_SHAPED = /(?<!\d)(?:(?:18|19|20)\d{6}|\d{6})[-+]?\d{4}(?!\d)/g;
const TOKEN_PART = /eyJ[\w-]{6,}(?:\.[\w-]*){0,4}/g;
const LONG_RUN = /[\w-]{40,}/g;
// Three expressions, not one alternation: V8 tried the alternation at every position, 3.3 µs against 0.3 µs for a UUID.
const NOT_PLAIN = /[^\x20-\x7e]|%|eyJ/;
const FORTY = /[\w-]{40}/;

/** DIGIT_RUN's separators in printable ASCII: all of it but letters, digits, `:` and `,`. */
const isSeparator = (c: number): boolean =>
  c >= 32 && c <= 126 && c !== 58 && c !== 44 && !(c >= 48 && c <= 57) && !((c | 32) >= 97 && (c | 32) <= 122);

/**
 * Whether printable ASCII `text` holds 10 digits joined as DIGIT_RUN joins them (at most three separators
 * in a row). A scan, not an expression: `\d(?:[-+. _/]{0,2}\d){9}` backtracks at every digit of a UUID
 * (BENCHMARKS.md, the scrubber's row).
 */
function tenDigitsJoined(text: string): boolean {
  let digits = 0;
  let gap = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits === 10) return true;
      gap = 0;
    } else if (digits > 0 && gap < 3 && isSeparator(c)) {
      gap++;
    } else {
      digits = 0;
      gap = 0;
    }
  }
  return false;
}

/**
 * Whether some rule below may change `text`. Other text is printable ASCII (so it reads as it is
 * written) with no escape, no token's start, no run of 40 and no 10 digits joined as a number may be
 * (DIGIT_RUN): no rule can find anything in it. Most logged text is so (a message, a path, a request
 * id), and it is given back without the rules' work (test/domain/redaction/scrub-text-shortcut.test.ts
 * holds the two equal).
 */
const mayHoldFindings = (text: string): boolean => NOT_PLAIN.test(text) || tenDigitsJoined(text) || FORTY.test(text);

const longRunOrNumber = (run: string): string => (runPasses(run, holdsPersonNumber) ? REDACTED : run);

const mixed = (run: string): string => (/[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run) ? REDACTED : run);

/** `text` with every finding of the rules above replaced, as written. */
function redact(text: string): string {
  return text.replace(TOKEN_PART, REDACTED).replace(LONG_RUN, mixed).replace(NUMBER_SHAPED, REDACTED).replace(DIGIT_RUN, longRunOrNumber);
}

/** `text` with no identity number or token in it, however it was spelled (see the file's header). */
export function scrubText(text: string): string {
  return mayHoldFindings(text) ? scrubByRules(text) : text;
}

/** Every rule applied to `text`, whatever it holds: what scrubText gives for text that may hold a finding. */
export function scrubByRules(text: string): string {
  const written = redact(text);
  const reading = readingOf(text);
  // Encoded more deeply than any client does: nobody can say what it holds.
  if (reading === undefined) return REDACTED;
  if (reading === text) return written;
  const read = redact(reading);
  return read === reading ? written : read;
}

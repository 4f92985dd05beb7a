/**
 * No identity number and no token in a log line or a span (threats 34 and 50 of
 * docs/threat-model.md): every text is searched both as written and as a person would read it
 * (reading.ts), and what either holds is replaced. Text that holds nothing comes back unchanged; text
 * that does comes back as read, with the findings replaced, so the log shows what was removed and
 * where. The rules, conservative on purpose:
 *
 * - Any 12 digits `(18|19|20)YYMMDDNNNC`, or any 10, standing alone, a `-` or `+` allowed before the
 *   last four: replaced whether or not they are a valid number (their shape is enough).
 * - Any longer run of digits, joined across single separators (a dash, `+`, a dot or a space), that
 *   holds a valid personal identity or coordination number in any 12 (or 10) digits in a row: the whole
 *   run is replaced. `2015062198471` is `201506219847` and one digit more. A run of more than 40
 *   digits is replaced unread.
 * - A JWT or any part of one (base64url JSON, `eyJ…`, with its dotted segments), and any run of 40 or
 *   more base64url characters mixing upper case, lower case and digits (a signature or a key alone).
 */
import { parsePersonalIdentityNumber } from '../identity/personal-identity-number.js';
import { readingOf } from './reading.js';

export const REDACTED = '[REDACTED]';

const NUMBER_SHAPED = /(?<!\d)(?:(?:18|19|20)\d{6}|\d{6})[-+]?\d{4}(?!\d)/g;
const DIGIT_RUN = /\d(?:[\p{Pd}+.\s]?\d)*/gu;
const TOKEN_PART = /eyJ[\w-]{6,}(?:\.[\w-]*){0,4}/g;
const LONG_RUN = /[\w-]{40,}/g;
// Three expressions, not one alternation: V8 tried the alternation at every position, 3.3 µs against 0.3 µs for a UUID.
const NOT_PLAIN = /[^\x20-\x7e]|%|eyJ/;
const TEN_DIGITS = /\d(?:[-+. ]?\d){9}/;
const FORTY = /[\w-]{40}/;
/**
 * Whether some rule below may change `text`. Other text is printable ASCII (so it reads as it is
 * written) with no escape, no token's start, no run of 40 and no 10 digits joined by single
 * separators (in printable ASCII the separators are `-`, `+`, `.` and the space): no rule can find
 * anything in it. Most logged text is so (a message, a path, a request id), and it is given back
 * without the rules' work (test/domain/redaction/scrub-text-shortcut.test.ts holds the two equal).
 */
const mayHoldFindings = (text: string): boolean => NOT_PLAIN.test(text) || TEN_DIGITS.test(text) || FORTY.test(text);

/** Longer runs of digits are withheld unread: nobody reads 40 digits as anything but data, and the work stays bounded. */
const LONGEST_READ = 40;

const twoDigits = (digits: string, at: number): number => (digits.charCodeAt(at) - 48) * 10 + digits.charCodeAt(at + 1) - 48;

/** Whether the ten digits at `at` (YYMMDDNNNC) name a month and a day (a coordination day +60): most windows do not, and cost no more. */
function dated(digits: string, at: number): boolean {
  const month = twoDigits(digits, at + 2);
  const day = twoDigits(digits, at + 4);
  return month >= 1 && month <= 12 && ((day >= 1 && day <= 31) || (day >= 61 && day <= 91));
}

/** Whether `digits` (all digits) has a valid identity number in 12 in a row, or in 10 read with any century. */
function holdsIdentityNumber(digits: string): boolean {
  if (digits.length > LONGEST_READ) return true;
  for (let i = 0; i + 10 <= digits.length; i++) {
    if (!dated(digits, i)) continue;
    const ten = digits.slice(i, i + 10);
    const centuries = i >= 2 ? [digits.slice(i - 2, i), '18', '19', '20'] : ['18', '19', '20'];
    if (centuries.some((century) => parsePersonalIdentityNumber(century + ten) !== undefined)) return true;
  }
  return false;
}

const longRunOrNumber = (run: string): string => {
  const digits = run.replace(/\D/g, '');
  return digits.length >= 10 && holdsIdentityNumber(digits) ? REDACTED : run;
};

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

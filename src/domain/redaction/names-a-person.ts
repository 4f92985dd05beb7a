/**
 * The one rule for "this text names a person" (threats 50 and 57 of docs/threat-model.md): an
 * identity number however it is spelled. The FHIR API refuses a search value the rule finds
 * (src/http/fhir/search-query.ts), and the scrubber replaces what it finds in a log line or a span
 * (scrub-text.ts); both read a text as written and as a person would read it (reading.ts).
 *
 * - **How a number is spelled**: digits joined by one to three separators, any character but a letter,
 *   a digit, a mark, `:` and `,`: a dash, `+`, `.`, `_`, `/`, a tilde, white space, `*`, `#`, a bracket
 *   (`19121212-1212`, `19121212+1212`, `19121212 1212`, `1912.1212.1212`, `121212-1212`,
 *   `19121212--1212`, `19121212 - 1212`, `19121212*1212`, a minus sign for the dash), percent-encoded, in the digits of
 *   any script (fullwidth, Arabic-Indic, Devanagari), with an invisible character or a mark on a digit
 *   (combining, enclosing, a variation selector) inside. A letter ends a run (`SE2321000016-1003` is an
 *   organisation's id), and so do `:` and `,`, which part a time's fields and a list's values
 *   (`10:12:12+01:00`, `_id=1212,…`).
 * - **Names a person**: such a run in which whole groups of digits in a row (the separators part the
 *   groups) are a valid personal identity or coordination number: 12 digits, or 10 with the century
 *   left out (any of 18, 19, 20). So `0 19121212-1212` names one, as a reader sees it, and a 13-digit
 *   code does not.
 * - **Holds a person's number**: such a run with a valid number in any 12 (or 10) of its digits in a
 *   row, or more than 40 digits (withheld unread). What the service writes itself (a log line, a span, a
 *   record id it serves) never holds one; a value a caller sends is refused only when it names one, since
 *   a 14-digit product code (NPL id) or a long SNOMED CT id that holds a date and a check digit by
 *   chance is nobody's number and must stay searchable. Whatever names a person also holds one.
 */
import { parsePersonalIdentityNumber } from '../identity/personal-identity-number.js';
import { readingOf } from './reading.js';

/** Digits joined by at most three separators (` - ` is three): each match is one way a number may be written. */
export const DIGIT_RUN = /\d(?:[^\p{L}\p{N}\p{M}:,]{0,3}\d)*/gu;

/** Longer runs of digits are withheld unread: nobody reads 40 digits as anything but data, and the work stays bounded. */
const LONGEST_READ = 40;
const CENTURIES = ['18', '19', '20'];

const twoDigits = (digits: string, at: number): number => (digits.charCodeAt(at) - 48) * 10 + digits.charCodeAt(at + 1) - 48;

/** Whether the ten digits at `at` (YYMMDDNNNC) name a month and a day (a coordination day +60): most windows do not, and cost no more. */
function dated(digits: string, at: number): boolean {
  const month = twoDigits(digits, at + 2);
  const day = twoDigits(digits, at + 4);
  return month >= 1 && month <= 12 && ((day >= 1 && day <= 31) || (day >= 61 && day <= 91));
}

const validWithCentury = (ten: string, centuries: readonly string[]): boolean =>
  centuries.some((century) => parsePersonalIdentityNumber(century + ten) !== undefined);

/** Whether `digits` (digits alone) are a person's number: 12 that are valid, or 10 valid with some century. */
export function isPersonNumber(digits: string): boolean {
  if (digits.length === 12) return parsePersonalIdentityNumber(digits) !== undefined;
  return digits.length === 10 && dated(digits, 0) && validWithCentury(digits, CENTURIES);
}

/** Whether `digits` (digits alone) hold a valid number in 12 in a row, or in 10 read with any century; more than 40 always. */
export function holdsPersonNumber(digits: string): boolean {
  if (digits.length > LONGEST_READ) return true;
  for (let i = 0; i + 10 <= digits.length; i++) {
    if (!dated(digits, i)) continue;
    if (validWithCentury(digits.slice(i, i + 10), i >= 2 ? [digits.slice(i - 2, i), ...CENTURIES] : CENTURIES)) return true;
  }
  return false;
}

/** Whether a run of DIGIT_RUN has the ten digits or more a number needs, and they pass `test`. */
export function runPasses(run: string, test: (digits: string) => boolean): boolean {
  const digits = run.replace(/\D/g, '');
  return digits.length >= 10 && test(digits);
}

/** Whether some groups of `run`'s digits in a row, whole as its separators part them, are a person's number. */
function groupsNamePerson(run: string): boolean {
  const groups = run.split(/\D+/);
  for (let first = 0; first < groups.length; first++) {
    let digits = '';
    for (let last = first; last < groups.length && digits.length < 12; last++) {
      digits += groups[last];
      if (isPersonNumber(digits)) return true;
    }
  }
  return false;
}

const runHolds = (run: string): boolean => runPasses(run, holdsPersonNumber);

/** Whether some digit run of `text`, taken as it is (no reading), passes `test`. */
function someRun(text: string, test: (run: string) => boolean): boolean {
  for (const [run] of text.matchAll(DIGIT_RUN)) {
    if (test(run)) return true;
  }
  return false;
}

/** `text` as written and, where it differs, as read; undefined where it cannot be read (encoded past any client's depth). */
function readings(text: string): string[] | undefined {
  const reading = readingOf(text);
  if (reading === undefined) return undefined;
  return reading === text ? [text] : [text, reading];
}

/** The rule: whether `text`, as written or as read, has a run of digits that is a person's number. Text that cannot be read is taken to. */
export function namesAPerson(text: string): boolean {
  const forms = readings(text);
  return forms === undefined || forms.some((form) => someRun(form, groupsNamePerson));
}

/** Whether `text`, as written or as read, holds a person's number in any of its digit runs. Text that cannot be read is taken to. */
export function holdsAPersonNumber(text: string): boolean {
  const forms = readings(text);
  return forms === undefined || forms.some((form) => someRun(form, runHolds));
}

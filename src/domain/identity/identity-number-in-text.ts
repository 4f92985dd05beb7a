/**
 * Whether a text the FHIR API would put in an id or a link names a person by identity number
 * (docs/fhir-api.md#ids). Two readings, each for its place; the logs' own, more conservative rule
 * (any number-shaped digits) is src/domain/redaction/scrub-text.ts.
 */
import { parsePersonalIdentityNumber } from './personal-identity-number.js';

/**
 * A record id: any 12 digits in a row of a run of digits, a `-`, `+` or `.` allowed between them
 * (`19121212-1212`), that are a valid number. Such an id is never served as it is: it is digested.
 */
export function recordIdNamesAPerson(text: string): boolean {
  for (const [run] of text.matchAll(/[0-9](?:[-+.]?[0-9])*/g)) {
    const digits = run.replace(/[^0-9]/g, '');
    for (let i = 0; i + 12 <= digits.length; i++) if (parsePersonalIdentityNumber(digits.slice(i, i + 12)) !== undefined) return true;
  }
  return false;
}

/**
 * A search value: a run of exactly 12 digits, or 8 and 4 around a hyphen (fullwidth digits folded),
 * that is a valid number. A longer run (a 14-digit product code) is no person's number. Such a value
 * is refused, since it would go into the `self` and `next` links.
 */
export function searchValueNamesAPerson(value: string): boolean {
  for (const [run] of value.normalize('NFKC').matchAll(/(?<![0-9])(?:[0-9]{12}|[0-9]{8}-[0-9]{4})(?![0-9])/g)) {
    if (parsePersonalIdentityNumber(run) !== undefined) return true;
  }
  return false;
}

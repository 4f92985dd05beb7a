import { daysInMonth } from '../time/local-time.js';

/**
 * Swedish personal identity numbers and coordination numbers, 12 digits `YYYYMMDDNNNC`, optionally
 * with `-` before the last four. The check digit is Luhn over the last ten digits; a coordination
 * number adds 60 to the day. Anything else is refused, so ambiguous input never reaches the EHR.
 */
const FORM = /^(\d{8})-?(\d{4})$/;

/** What an identity number given to the API must be, in words a person can act on (every 400 about one says this). */
export const IDENTITY_NUMBER_EXPECTED = 'a Swedish personal identity or coordination number: 12 digits YYYYMMDDNNNC (a hyphen before '
  + 'the last four is allowed), a real date and a valid check digit, e.g. 19121212-1212';

function luhnValid(tenDigits: string): boolean {
  let sum = 0;
  for (let i = 0; i < tenDigits.length; i++) {
    let d = tenDigits.charCodeAt(i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The birth date (`YYYYMMDD`) a valid number encodes, the coordination offset removed. */
export function birthDateOf(id: string): string {
  const day = Number(id.slice(6, 8));
  return id.slice(0, 6) + String(day > 60 ? day - 60 : day).padStart(2, '0');
}

/** The canonical 12-digit form, or undefined when the number is malformed or impossible. */
export function parsePersonalIdentityNumber(raw: string): string | undefined {
  const m = FORM.exec(raw);
  if (!m) return undefined;
  const id = `${m[1]}${m[2]}`;
  const year = Number(id.slice(0, 4));
  const month = Number(id.slice(4, 6));
  const rawDay = Number(id.slice(6, 8));
  const day = rawDay > 60 ? rawDay - 60 : rawDay;
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return luhnValid(id.slice(2)) ? id : undefined;
}

/**
 * What a refusal may show back of what a person sent (threat 57 of docs/threat-model.md). Stricter than
 * the rule a search value is refused by (names-a-person.ts), since nothing is lost by not showing: a
 * text is not shown when its digits, all of them in a row as written or as read, hold a person's number
 * in any 10 or 12, forwards or backwards (a right-to-left override shows them reversed). So no separator,
 * extra digit, cut or split across members can carry a number into an error body.
 */
import { holdsPersonNumber } from './names-a-person.js';
import { readingOf } from './reading.js';

const holdsEitherWay = (digits: string): boolean => digits.length >= 10 && (holdsPersonNumber(digits) || holdsPersonNumber([...digits].reverse().join('')));

/** Whether `text` may be shown back: it cannot be read (encoded past any client's depth), or its digits hold a number, and it may not. */
export function mayShowBack(text: string): boolean {
  const reading = readingOf(text);
  if (reading === undefined) return false;
  return !holdsEitherWay(text.replace(/\D/g, '')) && !holdsEitherWay(reading.replace(/\D/g, ''));
}

/** A value as a refusal shows it: quoted and cut to 64 characters, or, where mayShowBack says no, not at all. */
export const shownValue = (value: string): string => (mayShowBack(value) ? JSON.stringify(value.slice(0, 64)) : 'an identity number');

import { daysInMonth } from '../time/local-time.js';

/**
 * The day (`YYYYMMDD`) on which someone born on `birth` reaches `years` of age: the anniversary of
 * the birth date. Someone born on 29 February reaches it, in a year without that day, on the day
 * after 28 February, i.e. 1 March, as Swedish law counts age (never on 28 February: that would end
 * a guardianship a day early).
 */
export function dayOfAge(birth: string, years: number): string {
  const year = Number(birth.slice(0, 4)) + years;
  const month = Number(birth.slice(4, 6));
  const day = Number(birth.slice(6, 8));
  const [m, d] = day > daysInMonth(year, month) ? [month + 1, 1] : [month, day];
  return `${String(year).padStart(4, '0')}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}

/** Whether someone born on `birth` is at least `years` old on `today` (`YYYYMMDD`, local). */
export function hasReachedAge(birth: string, years: number, today: string): boolean {
  return today >= dayOfAge(birth, years);
}

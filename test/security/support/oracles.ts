/**
 * Independent statements of the input rules (docs/contract.md#token-kinds, #reads), written from the contract and not
 * from src/, so the fuzzing suites can tell what the answer must be for any input they generate.
 */

const leap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

export function daysIn(year: number, month: number): number {
  return [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** Luhn over ten ASCII digits (the last ten of a 12-digit number). */
export function luhnValid(ten: string): boolean {
  let sum = 0;
  for (let i = 0; i < ten.length; i++) {
    const d = (ten.charCodeAt(i) - 48) * (i % 2 === 0 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
}

/** The check digit that makes `yyyymmddnnn` valid. */
export function withCheckDigit(first11: string): string {
  for (let c = 0; c <= 9; c++) if (luhnValid(`${first11.slice(2)}${c}`)) return `${first11}${c}`;
  throw new Error('unreachable');
}

/**
 * The canonical 12 digits of a `patient` header, or undefined if the service must refuse it (400):
 * exactly 12 ASCII digits with an optional `-` before the last four, a real calendar date (the day
 * may carry +60 for a coordination number), a year from 1800 on (the service's floor), and the Luhn
 * check digit over the last ten digits.
 */
export function canonicalIdentity(raw: string): string | undefined {
  if (!/^[0-9]{8}-?[0-9]{4}$/.test(raw)) return undefined;
  const id = raw.replace('-', '');
  const year = Number(id.slice(0, 4));
  const month = Number(id.slice(4, 6));
  const rawDay = Number(id.slice(6, 8));
  const day = rawDay > 60 ? rawDay - 60 : rawDay;
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return luhnValid(id.slice(2)) ? id : undefined;
}

export interface Wall { y: number; mo: number; d: number; h: number; mi: number; s: number }

/** A `fromDateTime`/`toDateTime` value as wall-clock time, or undefined if it is 400: form `YYYY-MM-DDThh:mm:ss`, a real date and time. */
export function filterWall(value: string): Wall | undefined {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  return { y, mo, d, h, mi, s };
}

/** Minutes since 0001-01-01 of a wall-clock time, every year counted as itself (no two-digit-year mapping). */
export function wallMinutes(w: Wall): number {
  const date = new Date(0);
  date.setUTCFullYear(w.y, w.mo - 1, w.d);
  date.setUTCHours(w.h, w.mi, w.s, 0);
  return date.getTime() / 60_000;
}

/**
 * What a time filter must get: 400 for a bad bound or from > to, 200 otherwise. Bounds are local
 * time, so two bounds less than two hours apart may swap order across a DST change: either answer.
 */
export function expectedForTimeFilter(from: string | undefined, to: string | undefined): readonly number[] {
  const f = from === undefined ? undefined : filterWall(from);
  const t = to === undefined ? undefined : filterWall(to);
  if ((from !== undefined && !f) || (to !== undefined && !t)) return [400];
  if (!f || !t) return [200];
  const diff = wallMinutes(t) - wallMinutes(f);
  if (diff === 0 || diff >= 120) return [200];
  if (diff <= -120) return [400];
  return [200, 400];
}

/** The demo registry's live relations (actor>patient), from src/dev/demo-data. */
export const DEMO = {
  TOLVAN: '191212121212', MARTA: '198112189876', LILLA: '201701012393', ANTON: '200404122384',
  GOSTA: '194608632396', SARA: '197305242385', UNKNOWN: '195507142478',
} as const;
export const DEMO_PEOPLE: readonly string[] = [DEMO.TOLVAN, DEMO.MARTA, DEMO.LILLA, DEMO.ANTON, DEMO.GOSTA, DEMO.SARA];
const RELATIONS = new Set([`${DEMO.MARTA}>${DEMO.LILLA}`, `${DEMO.MARTA}>${DEMO.TOLVAN}`, `${DEMO.MARTA}>${DEMO.GOSTA}`]);

/** Whether a person may act for a patient: themself if the EHR knows them, or a live registry relation. */
export function personMayAct(actor: string, patient: string): boolean {
  if (actor === patient) return DEMO_PEOPLE.includes(actor);
  return RELATIONS.has(`${actor}>${patient}`);
}

/** How a header value travels: UTF-8 bytes read back as latin1, as Node hands obs-text to the app. */
export const onTheWire = (value: string): string => Buffer.from(value, 'utf8').toString('latin1');

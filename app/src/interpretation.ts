/**
 * What the laboratory said of a value: its `interpretation` (HL7 v3 ObservationInterpretation), read
 * as a mark a patient sees beside the value in words and a symbol, never by colour alone. This is the
 * laboratory's own mark; direction.ts makes its "abnormal" high or low where the value and range show which way.
 */
import type { CodeableConcept, Observation } from './fhir-types.js';
import { MARK_WORDS, type Lang } from './i18n.js';

const SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

export type MarkKind = 'high' | 'low' | 'abnormal';

/** A value the laboratory marked: high, low or outside the range without saying which; `critical` for HH, LL, AA. */
export interface Mark { kind: MarkKind; critical: boolean }

/** The codes of the v3 system that say a value is outside its range, and which way (`>`/`<`: off scale). */
const CODES: Readonly<Record<string, Mark>> = {
  H: { kind: 'high', critical: false }, HU: { kind: 'high', critical: false }, '>': { kind: 'high', critical: false },
  HH: { kind: 'high', critical: true },
  L: { kind: 'low', critical: false }, LU: { kind: 'low', critical: false }, '<': { kind: 'low', critical: false },
  LL: { kind: 'low', critical: true },
  A: { kind: 'abnormal', critical: false }, AA: { kind: 'abnormal', critical: true },
};

/** The symbol shown before the mark's word; the word is what assistive technology reads. */
export const SYMBOLS: Readonly<Record<MarkKind, string>> = { high: '↑', low: '↓', abnormal: '!' };

const codesOf = (concepts: readonly CodeableConcept[] | undefined): string[] =>
  (concepts ?? []).flatMap((c) => (c.coding ?? []).filter((x) => x.system === SYSTEM && x.code !== undefined).map((x) => x.code as string));

/** The laboratory's mark of the value, or undefined: normal (`N`), another code, or none given. */
export function markOf(o: Observation): Mark | undefined {
  const marks = codesOf(o.interpretation).map((code) => CODES[code]).filter((m): m is Mark => m !== undefined);
  // Where a laboratory gives more than one, the one that says most: a direction over "abnormal", critical over not.
  return marks.sort((a, b) => Number(b.kind !== 'abnormal') - Number(a.kind !== 'abnormal') || Number(b.critical) - Number(a.critical))[0];
}

/**
 * An interpretation the page has no mark for, in the laboratory's words (a text-only flag, or a code
 * of another system with its display): shown beside the value as written.
 */
export function otherInterpretation(o: Observation): string | undefined {
  if (markOf(o) !== undefined || codesOf(o.interpretation).includes('N')) return undefined;
  const words = (o.interpretation ?? []).map((c) => c.text ?? c.coding?.find((x) => x.display !== undefined)?.display).filter((t): t is string => t !== undefined && t !== '');
  return words.length === 0 ? undefined : words.join(', ');
}

/** A mark in words: `High`, `Low`, `Abnormal`, or `Critically high` (`Kritiskt högt`) for HH. */
export function markWords(mark: Mark, lang: Lang): string {
  const word = MARK_WORDS[mark.kind][lang];
  return mark.critical ? `${MARK_WORDS.critically[lang]} ${word.toLowerCase()}` : word;
}

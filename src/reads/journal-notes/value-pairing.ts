/**
 * Which of a Record's units and ranges belong to which of its values: the one rule the service's FHIR
 * door writes a note's Observations by (as-fhir-sections.ts), and the FHIR upstream's reading checks
 * its Records against (fhir-note-records.ts).
 *
 * The layout holds a Record's values, units and ranges as three lists that nothing pairs
 * (docs/upstream-fhir.md#310-journal-notes-operation-10). An Observation pairs them, and an app shows
 * its unit and its ranges (and a mark of high or low) beside its value. So a pair is written only where
 * the lists admit one reading (pairing(), below); anything else is written beside no value, in order,
 * rather than beside one it may not belong to (hostile reviews helper-217 F1, helper-218, helper-219).
 */
import type { JournalRecord } from '../../domain/records/index.js';
import { readsBackAsNarrative } from './narrative-form.js';

type Value = JournalRecord['Value'][number];

/** One Observation: a value (its index), with its unit and ranges (theirs); a unit or ranges of no value have no value. */
export interface PairedEntry {
  readonly value?: number;
  readonly unit?: number;
  readonly ranges: readonly number[];
}

export interface Pairing {
  /** Whether the first value is the section's narrative rather than an entry. */
  readonly narrative: boolean;
  readonly entries: readonly PairedEntry[];
}

/**
 * How a Record's values, its `units` units and `ranges` ranges pair. The values are counted whole, a
 * value with no text too (it may own a unit or a range), but only one with text is an entry: what a
 * value with none owns is written beside no value.
 *
 * - The first value, if it is no number and reads back as a narrative, is the narrative, unless it is
 *   the Record's only value and has ranges: a narrative holds no range.
 * - Ranges go to a value only where it is the only one besides the narrative: a value may have several
 *   (one per population), so with two values nothing says which are whose (hostile review helper-219, F1).
 * - Units go to the numbers, one each in order, only where there are as many and every value but the
 *   narrative is a number: a number has one unit at most, and a value in words may have one too.
 */
export function pairing(values: readonly Value[], units: number, ranges: number): Pairing {
  const hasText = (i: number) => values[i]?.$self !== undefined && values[i]?.$self !== '';
  const first = values[0];
  const narrative = first !== undefined && first.JournalValueType !== 'Numeric' && hasText(0) && readsBackAsNarrative(first.$self as string)
    && !(values.length === 1 && ranges > 0);
  const rest = values.map((_v, i) => i).slice(narrative ? 1 : 0);
  const numbers = rest.filter((i) => values[i]?.JournalValueType === 'Numeric');
  // A value in words may have a unit in the legacy layout too (a Fixed `<0,5`): only where all are numbers is each unit a number's.
  const unitOf = new Map(units === numbers.length && numbers.length === rest.length ? numbers.map((value, unit) => [value, unit] as const) : []);
  const owner = rest.length === 1 ? rest[0] : undefined;
  const owned = owner !== undefined && hasText(owner);
  const entries = rest.filter(hasText).map((value): PairedEntry => ({
    value, unit: unitOf.get(value), ranges: value === owner ? Array.from({ length: ranges }, (_r, i) => i) : [],
  }));
  const paired = new Set(entries.flatMap((e) => (e.unit === undefined ? [] : [e.unit])));
  const looseUnits = Array.from({ length: units }, (_u, unit) => unit).filter((unit) => !paired.has(unit)).map((unit): PairedEntry => ({ unit, ranges: [] }));
  const looseRanges = owned ? [] : Array.from({ length: ranges }, (_r, i): PairedEntry => ({ ranges: [i] }));
  return { narrative, entries: [...entries, ...looseUnits, ...looseRanges] };
}

/**
 * Which of a Record's units and ranges belong to which of its values: the one rule the service's FHIR
 * door writes a note's Observations by (as-fhir-sections.ts), and the FHIR upstream's reading checks
 * its Records against (fhir-note-records.ts).
 *
 * The layout holds a Record's values, units and ranges as three lists that nothing pairs
 * (docs/upstream-fhir.md#310-journal-notes-operation-10). An Observation pairs them, and an app shows
 * its unit and its ranges (and a mark of high or low) beside its value. So a pair is written only where
 * the lists admit one reading: as many units as numbers, one each in order; a range for every value,
 * or ranges for a lone value. Anything else is written beside no value, in order, rather than beside
 * one it may not belong to (hostile reviews helper-217 F1, helper-218).
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
  /** The value (its index) that is the section's narrative rather than an entry, if one is. */
  readonly narrative?: number;
  readonly entries: readonly PairedEntry[];
}

/** The owner (a position among `count` values) of each of `ranges` ranges, where the lists say it. */
function rangeOwners(count: number, ranges: number): (number | undefined)[] {
  return Array.from({ length: ranges }, (_r, i) => (count === 1 ? 0 : ranges === count ? i : undefined));
}

/** How a Record's values, its `units` units and `ranges` ranges pair; a value with no text is none (it has nothing to show). */
export function pairing(values: readonly Value[], units: number, ranges: number): Pairing {
  const shown = values.flatMap((v, i) => (v.$self === undefined || v.$self === '' ? [] : [i]));
  const first = shown[0] === undefined ? undefined : values[shown[0]];
  // The first text is the narrative unless a range is its own: a narrative holds no range.
  const narrative = first?.JournalValueType === 'Text' && readsBackAsNarrative(first.$self as string)
    && !rangeOwners(shown.length, ranges).includes(0);
  const entries = shown.slice(narrative ? 1 : 0).map((value) => ({ value, unit: undefined as number | undefined, ranges: [] as number[] }));
  const numbers = entries.filter((e) => values[e.value]?.JournalValueType === 'Numeric');
  const unitsPaired = units === numbers.length;
  numbers.forEach((e, i) => { if (unitsPaired) e.unit = i; });
  const owners = rangeOwners(entries.length, ranges);
  owners.forEach((owner, i) => { if (owner !== undefined) entries[owner]?.ranges.push(i); });
  const looseUnits = unitsPaired ? [] : Array.from({ length: units }, (_u, i): PairedEntry => ({ unit: i, ranges: [] }));
  const looseRanges = owners.flatMap((owner, i): PairedEntry[] => (owner === undefined ? [{ ranges: [i] }] : []));
  return { narrative: narrative ? shown[0] : undefined, entries: [...entries, ...looseUnits, ...looseRanges] };
}

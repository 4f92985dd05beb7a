/**
 * A Composition's sections as a journal note's Records (docs/upstream-fhir.md#310-journal-notes-operation-10):
 * the title is the Keyword, the narrative's text the first value, and each Observation entry (one
 * contained in the note, or the server's own) a further value (a number as written, or a string), its unit and reference range beside it. The
 * layout nests one Record in a Record, so a section's first subsection is nested and the others
 * follow it as siblings.
 */
import type { JournalRecord } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { rangeLines, valuesWithComponents, type ObservationValue } from '../../adapters/ehr-fhir/observation-value.js';
import { narrativeText } from '../../adapters/ehr-fhir/narrative.js';
import type { ResourceOf } from '../../adapters/ehr-fhir/schemas/index.js';
import type { Reference } from '../../domain/fhir/resources/datatypes.js';
import type { Section } from './resource-types.js';

/** The Observation an entry names: contained in the note (`#id`) or a resource of the server's. */
export type EntryLookup = (entry: Reference) => ResourceOf<'Observation'> | undefined;

/** Deeper nesting than any note needs (the XML reader's limit): refused, never walked. */
const MAX_DEPTH = 64;

type Value = JournalRecord['Value'][number];

function valuesOf(section: Section, observationOf: EntryLookup): { values: Value[]; units: string[]; ranges: string[] } {
  const values: Value[] = [];
  const units: string[] = [];
  const ranges: string[] = [];
  const text = section.text === undefined ? '' : narrativeText(section.text.div);
  if (text !== '') values.push({ JournalValueType: 'Text', $self: text });
  const entries = (section.entry ?? []).flatMap((entry) => {
    const observation = observationOf(entry);
    if (observation === undefined) return [];
    // Each value as written, a comparator with its number, a score or a coded answer too, and a blood pressure's
    // components; every range: any of them dropped lost what the EHR wrote (hostile review helper-216, F1, F2).
    const own = valuesWithComponents(observation);
    return [{ own, ranges: rangeLines(observation, own[0]?.unit) }];
  });
  if (entries.length > 1 && !pairsInOrder(entries)) throw fhirFault('a Composition section whose entries\' units or ranges would pair with other values');
  for (const { own, ranges: lines } of entries) {
    for (const v of own) {
      if (v.text !== undefined) values.push({ JournalValueType: v.numeric ? 'Numeric' : 'Text', $self: v.text });
      if (v.unit !== undefined) units.push(v.unit);
    }
    ranges.push(...lines);
  }
  return { values, units, ranges };
}

/**
 * Whether a section's entries read back to the same pairs: a Record holds its values, units and ranges
 * as three lists, which the FHIR door pairs in order (each unit with the next number, range i with
 * value i, as-fhir-sections.ts). With several entries that holds only when each has one value, every
 * number a unit or none, and every entry one range or none; else a score took the next value's unit
 * (hostile review helper-217, F1), and such a section is refused rather than paired wrongly.
 */
function pairsInOrder(entries: readonly { own: readonly ObservationValue[]; ranges: readonly string[] }[]): boolean {
  if (entries.some((e) => e.own.length > 1 || e.ranges.length > 1)) return false;
  // A unit or range beyond the values is an entry of its own, without a value, after them (as the door writes one).
  const valued = entries.filter((e) => e.own[0]?.text !== undefined);
  if (entries.slice(0, valued.length).some((e) => e.own[0]?.text === undefined)) return false;
  const own = valued.map((e) => e.own[0] as ObservationValue);
  const numbers = own.filter((v) => v.numeric);
  const unitsAll = numbers.every((v) => v.unit !== undefined) || numbers.every((v) => v.unit === undefined);
  const textUnits = own.some((v) => !v.numeric && v.unit !== undefined);
  const rangesAll = valued.every((e) => e.ranges.length === 1) || entries.every((e) => e.ranges.length === 0);
  return unitsAll && !textUnits && rangesAll;
}

/** The Records of one section: its own first (with its first subsection nested), then the rest in order. */
export function recordsOf(section: Section, observationOf: EntryLookup, depth = 0): JournalRecord[] {
  if (depth > MAX_DEPTH) throw fhirFault('Composition sections nested too deeply');
  const { values, units, ranges } = valuesOf(section, observationOf);
  const children = section.section ?? [];
  const [nested, ...after] = children.length === 0 ? [] : recordsOf(children[0] as Section, observationOf, depth + 1);
  const own: JournalRecord = definedOnly({
    Keyword: section.title,
    Value: values,
    Unit: units,
    Range: ranges,
    KeywordSecrecyLevels: { SecrecyLevel: [] },
    OtherValue: { ArchetypeRecords: { ArchetypeRecord: [] } },
    Record: nested,
  });
  return [own, ...after, ...children.slice(1).flatMap((c) => recordsOf(c, observationOf, depth + 1))];
}

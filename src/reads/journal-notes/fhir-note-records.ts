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
import { rangeLines, valuesWithComponents } from '../../adapters/ehr-fhir/observation-value.js';
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
  for (const entry of section.entry ?? []) {
    const observation = observationOf(entry);
    if (observation === undefined) continue;
    // Each value as written, a comparator with its number, a score or a coded answer too, and a blood pressure's
    // components; every range: any of them dropped lost what the EHR wrote (hostile review helper-216, F1, F2).
    const own = valuesWithComponents(observation);
    for (const v of own) {
      if (v.text !== undefined) values.push({ JournalValueType: v.numeric ? 'Numeric' : 'Text', $self: v.text });
      if (v.unit !== undefined) units.push(v.unit);
    }
    ranges.push(...rangeLines(observation, own[0]?.unit));
  }
  return { values, units, ranges };
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

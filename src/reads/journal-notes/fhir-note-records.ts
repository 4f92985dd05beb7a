/**
 * A Composition's sections as a journal note's Records (docs/upstream-fhir.md#310-journal-notes-operation-10):
 * the title is the Keyword, the narrative's text the first value, and each Observation entry (one
 * contained in the note, or the server's own) further values (a number as written, or a string), its
 * units and reference ranges in the Record's lists. The layout nests one Record in a Record, so a
 * section's first subsection is nested and the others follow it as siblings.
 */
import type { JournalRecord } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { BESIDE_NO_KNOWN_VALUE, componentValues, ownValue, rangeLines } from '../../adapters/ehr-fhir/observation-value.js';
import { pairing } from './value-pairing.js';
import { narrativeText } from '../../adapters/ehr-fhir/narrative.js';
import { enteredInError } from '../../adapters/ehr-fhir/read-input.js';
import type { ResourceOf } from '../../adapters/ehr-fhir/schemas/index.js';
import type { Reference } from '../../domain/fhir/resources/datatypes.js';
import type { Section } from './resource-types.js';

/** The Observation an entry names: contained in the note (`#id`) or a resource of the server's. */
export type EntryLookup = (entry: Reference) => ResourceOf<'Observation'> | undefined;

/** Deeper nesting than any note needs (the XML reader's limit): refused, never walked. */
const MAX_DEPTH = 64;

type Value = JournalRecord['Value'][number];

/** What a Record holds of a section, and what the EHR paired: each unit's and range's value (its index), none for a unit or range of no value. */
interface Lists {
  values: Value[];
  units: string[];
  ranges: string[];
  unitOwners: (number | undefined)[];
  rangeOwners: (number | undefined)[];
}

/** One value of an entry (its own value, or a component's), with its unit; the entry's ranges go with its own value. */
interface Piece {
  value?: { text: string; numeric: boolean };
  unit?: string;
  ranges: readonly string[];
}

const NO_LISTS = (): Lists => ({ values: [], units: [], ranges: [], unitOwners: [], rangeOwners: [] });

function add(lists: Lists, piece: Piece): Lists {
  const owner = piece.value === undefined ? undefined : lists.values.length;
  if (piece.value !== undefined) lists.values.push({ JournalValueType: piece.value.numeric ? 'Numeric' : 'Text', $self: piece.value.text });
  if (piece.unit !== undefined) {
    lists.units.push(piece.unit);
    lists.unitOwners.push(owner);
  }
  lists.ranges.push(...piece.ranges);
  lists.rangeOwners.push(...piece.ranges.map(() => owner));
  return lists;
}

/**
 * Each value of an Observation entry as written, a comparator with its number, a score or a coded
 * answer too, and a blood pressure's components; every range, with the Observation's own value (any of
 * them dropped lost what the EHR wrote: hostile review helper-216, F1, F2). A unit or ranges of no value
 * stay too, as a piece of no value.
 */
function piecesOf(observation: ResourceOf<'Observation'>): Piece[] {
  const own = ownValue(observation);
  const components = componentValues(observation);
  const value = own.text === undefined ? undefined : { text: own.text, numeric: own.numeric };
  // Bounds keep their unit: the Record's lists do not say which value a range is beside (helper-219 F3, helper-220 F4).
  const ranges = rangeLines(observation, BESIDE_NO_KNOWN_VALUE);
  const first: Piece[] = value === undefined && own.unit === undefined && ranges.length === 0 ? [] : [{ value, unit: own.unit, ranges }];
  return [...first, ...components.map((c) => ({ value: { text: c.text as string, numeric: c.numeric }, unit: c.unit, ranges: [] }))];
}

/**
 * Whether the service's FHIR door (value-pairing.ts) would show every unit and range beside no value
 * or the one the EHR gave it to. It may show one beside no value where the lists do not say whose it
 * is (a unitless pH beside a value in kPa), as the layout holds them: that loses a pair, makes none up.
 */
function pairsTruly(lists: Lists): boolean {
  const { entries } = pairing(lists.values, lists.units.length, lists.ranges.length);
  return entries.every((e) => e.value === undefined
    || ((e.unit === undefined || lists.unitOwners[e.unit] === e.value) && e.ranges.every((r) => lists.rangeOwners[r] === e.value)));
}

/** The section's narrative as text; empty where it has none. */
const sectionText = (section: Section): string => (section.text === undefined ? '' : narrativeText(section.text.div));

/**
 * A section's values, units and ranges as the lists of one Record, in the order of its narrative and
 * entries; or, where the service's FHIR door would pair them otherwise than the EHR did (a unit or a
 * range beside another value: helper-217 F1, helper-218), as one Record per value, in the same order,
 * under the same title: nothing is dropped, and no pair is made up.
 */
function listsOf(section: Section, text: string, observationOf: EntryLookup): Lists[] {
  const narrative: Piece[] = text === '' ? [] : [{ value: { text, numeric: false }, ranges: [] }];
  const pieces = [...narrative, ...(section.entry ?? []).flatMap((entry) => {
    const observation = observationOf(entry);
    // A value entered in error should never have existed, as a lab result's (hostile review helper-220, F1).
    return observation === undefined || enteredInError(observation) ? [] : piecesOf(observation);
  })];
  const whole = pieces.reduce(add, NO_LISTS());
  if (pairsTruly(whole)) return [whole];
  const apart = pieces.map((p) => add(NO_LISTS(), p));
  // A value alone pairs truly by the door's rule; should one not, the section is refused rather than shown wrongly.
  if (!apart.every(pairsTruly)) throw fhirFault('a Composition section entry whose units or ranges would pair with another value');
  return apart;
}

/** Whether an entry names an Observation entered in error. */
const withdrawnEntry = (entry: Reference, observationOf: EntryLookup): boolean => {
  const observation = observationOf(entry);
  return observation !== undefined && enteredInError(observation);
};

/** A section as Records, and whether all it held was entered in error: decided from below, each section once. */
interface SectionRead {
  records: JournalRecord[];
  /** Everything it held was entered in error: it is no Record. */
  withdrawn: boolean;
}

/**
 * One section: its own Records first (the first Record of its subsections still standing nested in
 * its last), then the rest of its subsections' in order. A narrative `generated` (R4: made from the
 * structured data) over the section's own entries, every one of them entered in error, restates the
 * withdrawn values in words, and is left out (hostile reviews helper-222 F1, helper-223 F1). Any other
 * narrative is kept: one of another status is the EHR's own text, and a generated one beside a value
 * still standing, or over subsections, may hold words no value holds (many EHRs mark every narrative
 * generated: helper-224 F1). A section all of which was entered in error, its entries, its
 * subsections and its narrative, should never have existed, as its entries should not: it is no
 * Record, not a title over nothing (helper-221 F4, helper-222 F2, F3). A section that held nothing
 * (an `emptyReason`) is no withdrawal, and stays.
 */
function readSection(section: Section, observationOf: EntryLookup, depth: number): SectionRead {
  if (depth > MAX_DEPTH) throw fhirFault('Composition sections nested too deeply');
  const children = (section.section ?? []).map((child) => readSection(child, observationOf, depth + 1));
  const entries = section.entry ?? [];
  const inError = entries.map((entry) => withdrawnEntry(entry, observationOf));
  const allInError = entries.length > 0 && !inError.includes(false);
  const text = section.text?.status === 'generated' && allInError ? '' : sectionText(section);
  const withdrawn = text === '' && entries.length + children.length > 0 && !inError.includes(false) && children.every((c) => c.withdrawn);
  if (withdrawn) return { records: [], withdrawn };
  const lists = listsOf(section, text, observationOf);
  // The first Record of the subsections still standing is nested; a section read as several Records
  // nests it in the last, so the Records keep the section's order.
  const [nested, ...after] = children.flatMap((c) => c.records);
  const own = lists.map(({ values, units, ranges }, i): JournalRecord => definedOnly({
    Keyword: section.title,
    Value: values,
    Unit: units,
    Range: ranges,
    KeywordSecrecyLevels: { SecrecyLevel: [] },
    OtherValue: { ArchetypeRecords: { ArchetypeRecord: [] } },
    Record: i === lists.length - 1 ? nested : undefined,
  }));
  return { records: [...own, ...after], withdrawn };
}

/** The Records of one of a note's sections, and of the sections within it. */
export const recordsOf = (section: Section, observationOf: EntryLookup): JournalRecord[] => readSection(section, observationOf, 0).records;

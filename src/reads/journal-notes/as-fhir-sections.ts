/**
 * A note's Records as Composition sections (docs/upstream-fhir.md#310-journal-notes-operation-10
 * read backwards, src/reads/journal-notes/fhir-note-records.ts the inbound): the Keyword is the
 * title, the first Text value the narrative, every further value an Observation entry (a number as
 * written, or a string) contained in the note, with the units and ranges value-pairing.ts gives it,
 * a nested Record a nested section.
 */
import type { JournalRecord } from '../../domain/records/index.js';
import type { FhirResource } from '../as-fhir.js';
import { fhirOnly } from '../as-fhir-common.js';
import { fhirQuantityValue, textConcept, UNKNOWN } from '../as-fhir-datatypes.js';
import { xhtml } from './narrative-form.js';
import { pairing, type PairedEntry } from './value-pairing.js';

type Value = JournalRecord['Value'][number];

const XHTML = 'http://www.w3.org/1999/xhtml';

/** A text as the section's narrative; it reads back as that text (pairing() chose it so). */
const narrativeOf = (text: string) => ({ status: 'additional', div: `<div xmlns="${XHTML}">${xhtml(text)}</div>` });

/**
 * R4 requires a section to hold text, entries or sections (cmp-1): a Record with nothing but its
 * Keyword gets a narrative with no text (`empty`), which reads back as no value.
 */
const EMPTY = { status: 'empty', div: `<div xmlns="${XHTML}"><br/></div>` };

interface Writing {
  observations: FhirResource[];
}

type Entry = { valueQuantity?: { value?: unknown; _value?: unknown; unit?: string }; valueString?: string; referenceRange?: { text: string }[] };

/**
 * A value as an Observation's value: a Numeric one a Quantity, its number as written (a legacy `3,5`
 * with its text in `rendered-value`, one that is no number by that text alone, so its unit stays
 * beside it: helper-213, H5), else a string.
 */
function valueOf(v: Value | undefined): Entry {
  if (v === undefined) return {};
  const number = v.JournalValueType === 'Numeric' ? fhirQuantityValue(v.$self) : {};
  return Object.keys(number).length === 0 ? { valueString: v.$self } : { valueQuantity: number };
}

/** One Observation's members: its value, with the unit and ranges paired with it (value-pairing.ts). */
function entryOf(e: PairedEntry, r: JournalRecord): Entry {
  const out = valueOf(e.value === undefined ? undefined : r.Value[e.value]);
  if (e.unit !== undefined) out.valueQuantity = { ...out.valueQuantity, unit: r.Unit[e.unit] as string };
  if (e.ranges.length > 0) out.referenceRange = e.ranges.map((i) => ({ text: r.Range[i] as string }));
  return out;
}

function section(r: JournalRecord, w: Writing): Record<string, unknown> {
  const paired = pairing(r.Value, r.Unit.length, r.Range.length);
  const narrative = paired.narrative ? narrativeOf(r.Value[0]?.$self as string) : undefined;
  const entry = paired.entries.map((p) => {
    // A value is part of its note, held in it: `#v<n>`, numbered in the note's order.
    const id = `v${w.observations.length + 1}`;
    // R4 requires an Observation's status and code: the record has no status of a value, and its Keyword names it.
    w.observations.push({ resourceType: 'Observation', id, status: 'unknown', code: textConcept(r.Keyword) ?? UNKNOWN, ...entryOf(p, r) });
    return { reference: `#${id}` };
  });
  const nested = r.Record === undefined ? undefined : [section(r.Record, w)];
  return fhirOnly({
    title: r.Keyword,
    text: narrative ?? (entry.length === 0 && nested === undefined ? EMPTY : undefined),
    entry,
    section: nested,
  });
}

/**
 * A note's Records as sections, and the Observations their entries name, to be contained in the
 * Composition: a value has no id of its own in the record, and is no resource apart from its note
 * (issue 45 item 10: an entry of its own id was neither readable nor among `Observation?patient=`).
 */
export function sectionsOf(records: readonly JournalRecord[]): { sections: Record<string, unknown>[]; contained: FhirResource[] } {
  const w: Writing = { observations: [] };
  return { sections: records.map((r) => section(r, w)), contained: w.observations };
}

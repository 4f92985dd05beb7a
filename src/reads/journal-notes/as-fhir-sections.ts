/**
 * A note's Records as Composition sections (docs/upstream-fhir.md#310-journal-notes-operation-10
 * read backwards, src/reads/journal-notes/fhir-note-records.ts the inbound): the Keyword is the
 * title, the first Text value the narrative, every further value an Observation entry (a number as
 * written, or a string) contained in the note, with the Record's units and ranges, a nested Record a
 * nested section.
 */
import type { JournalRecord } from '../../domain/records/index.js';
import type { FhirResource } from '../as-fhir.js';
import { fhirOnly } from '../as-fhir-common.js';
import { fhirQuantityValue, textConcept, UNKNOWN } from '../as-fhir-datatypes.js';

type Value = JournalRecord['Value'][number];

const XHTML = 'http://www.w3.org/1999/xhtml';

/**
 * Text as XHTML that docs/upstream-fhir.md#narrative-to-text reads back as the same text: `&`, `<`
 * and `>` escaped, a line break `<br/>`, a carriage return a character reference (XML would read a
 * bare one as a line break), every other character as it is, inner spaces and tabs included.
 */
export const xhtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/\r/g, '&#13;').replace(/\n/g, '<br/>');

// Characters XML 1.0 cannot hold, even as references (a tab, line feed and carriage return it can).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether `xhtml(text)` reads back as `text` by docs/upstream-fhir.md#narrative-to-text: the rule
 * trims the ends and XML holds no control characters; with neither, the one text node between the
 * div's two boundaries comes back as written. Decided here rather than by parsing every narrative
 * back (a quarter of a journal's FHIR cost, BENCHMARKS.md part 10); as-fhir.test.ts holds the two
 * equal over generated texts.
 */
export const readsBackAsNarrative = (text: string): boolean => text !== '' && text === text.trim() && !NOT_IN_XML.test(text);

/** The narrative of a text value, when it reads back as exactly that text; else the value goes into an Observation. */
function narrativeOf(text: string) {
  if (!readsBackAsNarrative(text)) return undefined;
  // The narrative is the value itself, which no entry holds.
  return { status: 'additional', div: `<div xmlns="${XHTML}">${xhtml(text)}</div>` };
}

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
function entryOf(v: Value): Entry {
  const number = v.JournalValueType === 'Numeric' ? fhirQuantityValue(v.$self) : {};
  return Object.keys(number).length === 0 ? { valueString: v.$self } : { valueQuantity: number };
}

/**
 * The entries of a Record: one per value, each unit on the next entry with a quantity in order and
 * each range on the entry of its position (the inbound lists both in entry order, unpaired); a unit
 * or range left over gets an entry of its own, without a value.
 */
function entries(values: readonly Value[], r: JournalRecord): Entry[] {
  const out = values.map(entryOf);
  let next = 0;
  for (const unit of r.Unit) {
    while (next < out.length && out[next]?.valueQuantity === undefined) next++;
    if (next === out.length) out.push({ valueQuantity: {} });
    (out[next] as { valueQuantity: { unit?: string } }).valueQuantity.unit = unit;
    next++;
  }
  r.Range.forEach((text, i) => {
    if (i === out.length) out.push({});
    (out[i] as Entry).referenceRange = [{ text }];
  });
  return out;
}

function section(r: JournalRecord, w: Writing): Record<string, unknown> {
  const values = r.Value.filter((v) => v.$self !== undefined && v.$self !== '');
  const first = values[0];
  const narrative = first?.JournalValueType === 'Text' ? narrativeOf(first.$self as string) : undefined;
  const entry = entries(narrative === undefined ? values : values.slice(1), r).map((e) => {
    // A value is part of its note, held in it: `#v<n>`, numbered in the note's order.
    const id = `v${w.observations.length + 1}`;
    // R4 requires an Observation's status and code: the record has no status of a value, and its Keyword names it.
    w.observations.push({ resourceType: 'Observation', id, status: 'unknown', code: textConcept(r.Keyword) ?? UNKNOWN, ...e });
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

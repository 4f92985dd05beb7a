/**
 * An Observation's value and reference ranges as the legacy layouts hold them: a value is one text
 * (the number as written, its comparator before it) with its unit, a range one line of text
 * (docs/upstream-fhir.md#310-journal-notes-operation-10, #311-lab-results-operation-11). What a text
 * cannot say as the EHR wrote it is refused, never left out (hostile reviews helper-213, helper-216):
 * a value whose form has no text here, a range for a population or of a kind with no words to say so.
 */
import type { CodeableConcept, Quantity } from '../../domain/fhir/resources/datatypes.js';
import { textOf } from './codes.js';
import { fhirFault } from './fault.js';
import { writtenNumber } from './fhir-json.js';
import { comparedAsWritten, valueAsWritten } from './rendered-value.js';

/** The members of an Observation read here; the schemas of both reads hold them. */
export interface ObservationParts {
  valueQuantity?: Quantity;
  valueString?: string;
  valueInteger?: number;
  valueCodeableConcept?: CodeableConcept;
  component?: readonly ObservationParts[];
  referenceRange?: readonly RangeParts[];
}

interface RangeParts {
  text?: string;
  low?: Quantity;
  high?: Quantity;
  appliesTo?: readonly CodeableConcept[];
  age?: unknown;
  type?: CodeableConcept;
}

/** value[x] forms no layout has a text for: refused rather than answered as no value (a titre's Ratio was). */
const UNREAD_VALUES = ['valueBoolean', 'valueRange', 'valueRatio', 'valueSampledData', 'valueTime', 'valueDateTime', 'valuePeriod'] as const;

export interface ObservationValue {
  text?: string;
  /** Whether it is a number (a Numeric journal value), not words. */
  numeric: boolean;
  unit?: string;
}

const unitOf = (q: Quantity | undefined): string | undefined => q?.unit ?? q?.code;

/** The value itself, not its components. */
export function ownValue(o: ObservationParts): ObservationValue {
  for (const key of UNREAD_VALUES) {
    if ((o as Record<string, unknown>)[key] !== undefined) throw fhirFault(`an Observation ${key}, which the layout has no text for`);
  }
  const q = o.valueQuantity;
  const number = comparedAsWritten(q);
  if (number !== undefined) return { text: number, numeric: true, unit: unitOf(q) };
  const integer = writtenNumber(o, 'valueInteger');
  if (integer !== undefined) return { text: integer, numeric: true };
  return { text: o.valueString ?? textOf(o.valueCodeableConcept), numeric: false, unit: unitOf(q) };
}

/** A component's value: one with none, or with ranges of its own, would be shown in part (helper-217, F2, F3). */
function componentValue(c: ObservationParts): ObservationValue {
  const value = ownValue(c);
  if (value.text === undefined || (c.referenceRange ?? []).length > 0) throw fhirFault('an Observation component with no value, or with ranges of its own');
  return value;
}

/** Each component's value (a blood pressure's two), in order. */
export const componentValues = (o: ObservationParts): ObservationValue[] => (o.component ?? []).map(componentValue);

/** The value, then each component's, in order. */
export function valuesWithComponents(o: ObservationParts): ObservationValue[] {
  return [ownValue(o), ...componentValues(o)].filter((v) => v.text !== undefined || v.unit !== undefined);
}

/** A concept's words (its text, else a coding's display; a bare code is no words), which a range's qualifier must have to be shown. */
function wordsOf(concept: CodeableConcept): string {
  const words = concept.text ?? concept.coding?.find((c) => c.display !== undefined)?.display;
  if (words === undefined) throw fhirFault('an Observation reference range qualified with no words');
  return words;
}

const MEANING = 'http://terminology.hl7.org/CodeSystem/referencerange-meaning';

/**
 * The unit of the value a range is shown beside; none for a value of no unit; BESIDE_NO_KNOWN_VALUE
 * where it is not known which value that is (a note's lists do not pair them: value-pairing.ts), so
 * the bounds' unit is always written.
 */
export const BESIDE_NO_KNOWN_VALUE = Symbol('beside no known value');
type ValueUnit = string | undefined | typeof BESIDE_NO_KNOWN_VALUE;

/**
 * One range as a line: its text, else `low–high` (an en dash, as the legacy documents write ranges),
 * `≤high` or `≥low`, the bounds' unit after them where it is not the value's; then who or what it is
 * for, in the EHR's words, where it says (`(Kvinnor)`, `(Terapeutiskt)`): bounds alone would pass for
 * everyone's. An age has no words of the EHR's: a range for one is shown by its own text alone, and
 * refused without one.
 */
function rangeLine(range: RangeParts, valueUnit: ValueUnit): string | undefined {
  if (range.age !== undefined && range.text === undefined) throw fhirFault('an Observation reference range for an age, with no text');
  // Plain `normal` says nothing more than a range does; words of its own ("Normalt för gravida") are shown (helper-217, F4).
  const plain = range.type === undefined || (range.type.text === undefined && range.type.coding?.some((c) => c.system === MEANING && c.code === 'normal') === true);
  const kind = plain || range.type === undefined ? [] : [wordsOf(range.type)];
  const qualifiers = [...kind, ...(range.appliesTo ?? []).map(wordsOf)];
  const line = range.text === undefined ? boundsOf(range, valueUnit) : writtenRange(range.text, range, valueUnit);
  if (line === undefined) return undefined;
  return qualifiers.length === 0 ? line : `${line} (${qualifiers.join(', ')})`;
}

/** The unit of a range's bounds; refused where they are in two, not where one is spelled two ways (helper-225, F3). */
function boundsUnit(range: RangeParts): string | undefined {
  const [lowUnit, highUnit] = [unitOf(range.low), unitOf(range.high)];
  if (lowUnit !== undefined && highUnit !== undefined && !alike(lowUnit, highUnit)) throw fhirFault('an Observation reference range of bounds in two units');
  return highUnit ?? lowUnit;
}

function boundsOf(range: RangeParts, valueUnit: ValueUnit): string | undefined {
  const low = valueAsWritten(range.low);
  const high = valueAsWritten(range.high);
  const bounds = low !== undefined && high !== undefined ? `${low}–${high}` : high !== undefined ? `≤${high}` : low === undefined ? undefined : `≥${low}`;
  const unit = boundsUnit(range);
  return bounds === undefined || unit === undefined || unit === valueUnit ? bounds : `${bounds} ${unit}`;
}

/**
 * A range's text that is numbers alone (`<6`, `4,0–6,0`, `≥ 1.5`, any dash or minus sign): read against
 * the value's unit, whatever its bounds' unit.
 */
const NUMBERS_ALONE = /^(?:[<>≤≥]=?\s*[-\u2212]?\d+(?:[.,]\d+)?|[-\u2212]?\d+(?:[.,]\d+)?\s*[-\u2010-\u2015\u2212]\s*[-\u2212]?\d+(?:[.,]\d+)?)$/;

/**
 * Whether two units are one spelled two ways: the litre `L` or `l`, the micro sign as `u`, µ or μ, a
 * power as `^` or `*` (`10^9/L`, `10*9/L`). A prefix's case is kept (`mU/L` is not `MU/L`, `g/L` not
 * `G/L`), as the patient app keeps it (app/src/units.ts).
 */
const alike = (a: string, b: string): boolean => {
  const spelled = (unit: string): string => unit.trim().replace(/l/g, 'L').replace(/[uμ]/g, 'µ').replace(/\^/g, '*');
  return spelled(a) === spelled(b);
};

/**
 * A range's text as written; where it is numbers alone and its bounds are in another unit than the
 * value's, that unit after it: `<6` of mmol/L bounds beside 99 mg/dL read as 6 mg/dL, and the app
 * marked the value high (hostile review helper-223, F3). Any other text is the EHR's words, left as
 * they are (`se kommentar`, `60–105 µmol/L`); a value of no unit (an INR) is compared with nothing in
 * another unit. Where the value it will be shown beside is not known (a note's), the unit is always
 * written (helper-225, F1: `<6` read as mg/dL again). Bounds in two units beside a text are no
 * refusal: the text says the range (helper-224, F2).
 */
function writtenRange(text: string, range: RangeParts, valueUnit: ValueUnit): string {
  const unit = unitOf(range.high) ?? unitOf(range.low);
  const away = unit !== undefined && (valueUnit === BESIDE_NO_KNOWN_VALUE || (valueUnit !== undefined && !alike(unit, valueUnit)));
  return away && NUMBERS_ALONE.test(text.trim()) ? `${text} ${unit}` : text;
}

/** Every range, a line each (a child's beside an adult's): the first alone may be another population's. */
export function rangeLines(o: ObservationParts, valueUnit: ValueUnit): string[] {
  return (o.referenceRange ?? []).map((r) => rangeLine(r, valueUnit)).filter((r) => r !== undefined);
}

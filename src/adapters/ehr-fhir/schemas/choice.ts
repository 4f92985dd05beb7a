/**
 * FHIR allows one form of a choice element (`value[x]`: `valueString` or `valueQuantity`, never
 * both). A resource that gives two is not FHIR, and whichever form the mapping read, the other's
 * words would be lost: an Observation with `valueString` "<5" beside `valueQuantity` 6.1 showed
 * 6.1. So it is refused (docs/upstream-fhir.md#text-numbers-and-codes), in any object of the resource.
 */
import { fhirFault } from '../fault.js';

/**
 * The choice elements the mapping reads, by name without `[x]`. Only these: a stem that is no
 * choice (`reasonCode` beside `reasonReference`) gives two elements of their own.
 */
const STEMS = ['value', 'effective', 'performed', 'onset', 'abatement', 'deceased', 'multipleBirth', 'medication', 'dose', 'rate',
  'bounds', 'asNeeded', 'allowed', 'item', 'author', 'occurrence', 'reported'];

/** The data types a choice element takes (R4's open type list), as they end its member's name. */
const TYPES = ['Base64Binary', 'Boolean', 'Canonical', 'Code', 'Date', 'DateTime', 'Decimal', 'Id', 'Instant', 'Integer', 'Markdown',
  'Oid', 'PositiveInt', 'String', 'Time', 'UnsignedInt', 'Uri', 'Url', 'Uuid', 'Address', 'Age', 'Annotation', 'Attachment',
  'CodeableConcept', 'Coding', 'ContactPoint', 'Count', 'Distance', 'Duration', 'HumanName', 'Identifier', 'Money', 'Period',
  'Quantity', 'Range', 'Ratio', 'Reference', 'SampledData', 'Signature', 'Timing', 'ContactDetail', 'Contributor',
  'DataRequirement', 'Expression', 'ParameterDefinition', 'RelatedArtifact', 'TriggerDefinition', 'UsageContext', 'Dosage', 'Meta'];

/** A member of a choice element, or of its primitive's extensions (`_valueString`): its stem and its type. */
const CHOICE = new RegExp(`^_?(${STEMS.join('|')})(${TYPES.join('|')})$`);

/** Each member name's stem, or null when it is no choice element's: a resource's names are few, its objects many. */
const stems = new Map<string, string | null>();

function stemOf(key: string): string | null {
  let stem = stems.get(key);
  if (stem === undefined) {
    stem = CHOICE.exec(key)?.[1] ?? null;
    if (stems.size < 10_000) stems.set(key, stem);
  }
  return stem;
}

function checkObject(value: Record<string, unknown>, type: string): void {
  let forms: Map<string, string> | undefined;
  for (const key of Object.keys(value)) {
    const stem = stemOf(key);
    if (stem !== null) {
      const form = key.startsWith('_') ? key.slice(1) : key;
      forms ??= new Map();
      const before = forms.get(stem);
      if (before !== undefined && before !== form) throw fhirFault(`${type} with more than one form of a choice element (${stem}[x])`);
      forms.set(stem, form);
    }
    oneFormEach(value[key], type);
  }
}

/** Refuses `value` (a checked resource of `type`) where any object of it gives a choice element in two forms. */
export function oneFormEach(value: unknown, type: string): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) oneFormEach(item, type);
    return;
  }
  checkObject(value as Record<string, unknown>, type);
}

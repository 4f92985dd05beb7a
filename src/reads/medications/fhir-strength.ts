/**
 * A product's strength as the prescription layout holds it (docs/upstream-fhir.md#39-medications-operation-9):
 * one number and one unit. FHIR's is a Ratio per ingredient; the layout's number is the numerator
 * as written and its unit says the denominator (`2.5 mg` per `5 ml` is `2.5` `mg/5 ml`, per `1 ml`
 * `mg/ml`), as the legacy documents write `mg/ml`. Showing the numerator alone misstated a
 * concentration five times, and one ingredient's strength alone passed for the product's: what the
 * one number and unit cannot say is refused instead.
 */
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { valueAsWritten } from '../../adapters/ehr-fhir/rendered-value.js';
import type { Quantity } from '../../domain/fhir/resources/datatypes.js';
import type { Medication } from './resource-types.js';

export interface Strength {
  numeric?: string;
  unit?: string;
}

const refused = () => fhirFault('a Medication strength the prescription layout cannot hold');

const unitOf = (q: Quantity): string | undefined => q.unit ?? q.code;

/** A quantity of a Ratio as written; one with a comparator (`<5`) or no value has no place in the layout. */
function written(q: Quantity): string {
  const value = valueAsWritten(q);
  if (value === undefined || q.comparator !== undefined) throw refused();
  return value;
}

/** The unit of `numerator` per `denominator`: per one of no unit is the numerator's own (this service's FHIR door writes that). */
function perUnit(numerator: Quantity, denominator: Quantity): string | undefined {
  const value = written(denominator);
  const unit = unitOf(denominator);
  if (unit === undefined) {
    if (denominator.value === 1) return unitOf(numerator);
    throw refused();
  }
  const over = unitOf(numerator);
  if (over === undefined) throw refused();
  return denominator.value === 1 ? `${over}/${unit}` : `${over}/${value} ${unit}`;
}

export function strengthOf(medication: Medication | undefined): Strength {
  const ingredients = medication?.ingredient ?? [];
  const strength = ingredients.find((i) => i.strength !== undefined)?.strength;
  if (strength === undefined || (strength.numerator === undefined && strength.denominator === undefined)) return {};
  // The layout's one strength is the product's: beside a second ingredient it would pass for the whole.
  if (ingredients.length > 1 || strength.numerator === undefined) throw refused();
  const { numerator, denominator } = strength;
  return { numeric: written(numerator), unit: denominator === undefined ? unitOf(numerator) : perUnit(numerator, denominator) };
}

/**
 * A product's strength as the prescription layout holds it (docs/upstream-fhir.md#39-medications-operation-9):
 * one number and one unit. FHIR's is a Ratio per ingredient; the layout's number is the numerator
 * as written and its unit says the denominator (`2.5 mg` per `5 ml` is `2.5` `mg/5 ml`, per `1 ml`
 * `mg/ml`), as the legacy documents write `mg/ml`. Showing the numerator alone misstated a
 * concentration five times, and one ingredient's strength alone passed for the product's: a
 * combination's numbers are joined as its label joins them, and what the one number and unit cannot
 * say is refused instead.
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

type Ratio = NonNullable<NonNullable<Medication['ingredient']>[number]['strength']>;

/** One ingredient's strength: its numerator as written, and the unit it is per. */
function ofIngredient({ numerator, denominator }: Ratio): Strength {
  if (numerator === undefined) throw refused();
  // A legacy strength's unit with no number, as this service's FHIR door writes it (helper-217, F10).
  const unit = unitOf(numerator);
  if (valueAsWritten(numerator) === undefined && unit !== undefined && numerator.comparator === undefined && denominator?.value === 1 && unitOf(denominator) === undefined) {
    return { unit };
  }
  return { numeric: written(numerator), unit: denominator === undefined ? unit : perUnit(numerator, denominator) };
}

/**
 * The product's strength: its one ingredient's, or, for a combination product, every ingredient's number
 * in order over their one unit, as its label writes it (`160/4,5` `mikrog/dos`); ingredients in
 * different units (or of none), or one of a unit and no number, are refused, since the one unit would
 * pass for each and a number would be missing from the joined ones. An ingredient that
 * states no strength, or is not active (an excipient), adds none.
 */
export function strengthOf(medication: Medication | undefined): Strength {
  // An inactive ingredient (an excipient) is no part of the label's strength, whatever it states (helper-216, F7).
  const active = (medication?.ingredient ?? []).filter((i) => i.isActive !== false);
  const stated = active.flatMap((i) => {
    const r = i.strength;
    return r === undefined || (r.numerator === undefined && r.denominator === undefined) ? [] : [r];
  });
  // An ingredient marked active with no strength beside one of a strength: the one would pass for the product's (helper-217, F5).
  const unstated = active.filter((i) => i.isActive === true && i.strength?.numerator === undefined);
  if (stated.length > 0 && unstated.length > 0) throw refused();
  const each = stated.map(ofIngredient);
  const [first] = each;
  if (first === undefined || each.length === 1) return first ?? {};
  // A unit alone beside a number has no place in the label's joined numbers (`160/`: helper-218).
  if (first.unit === undefined || each.some((s) => s.unit !== first.unit || s.numeric === undefined)) throw refused();
  return { numeric: each.map((s) => s.numeric).join('/'), unit: first.unit };
}

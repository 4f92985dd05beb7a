/**
 * When two units are one, for drawing values on one axis and comparing a value with a range. UCUM
 * spells the litre `L` or `l`, and laboratories write the micro sign (U+00B5) or the Greek mu
 * (U+03BC): each pair is one unit. Any other difference is another unit, a prefix's case included
 * (`mU/L` is not `MU/L`): a value read on another unit's scale is a false value.
 */

/** A unit as a key: equal for two spellings of one unit; '' for none. */
export const unitKey = (unit: string | undefined): string => {
  const written = unit?.trim() ?? '';
  return written === '' ? '' : `=${written.replace(/l/g, 'L').replace(/\u03bc/g, '\u00b5')}`;
};

/** Whether a value in `a` can be compared with a bound in `b`: the same unit, or either unknown. */
export const comparableUnits = (a: string | undefined, b: string | undefined): boolean =>
  unitKey(a) === '' || unitKey(b) === '' || unitKey(a) === unitKey(b);

/**
 * Whether a text is a SNOMED CT identifier (SNOMED CT Technical Implementation Guide, "SCTID"): 6 to 18
 * digits, no leading zero, a partition identifier in its second and third digits from the end (00–05
 * for the international release's concepts, descriptions and relationships, 10–15 for an extension's),
 * and a Verhoeff check digit last. A search's code under `http://snomed.info/sct` that is one is a
 * concept's id, not a person's number that happens to have ten digits (search-values.ts).
 */

/** Verhoeff's multiplication table of the dihedral group D5. */
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
/** Verhoeff's permutation; position i from the right applies it i times (P[i], built from it, not typed out). */
const P1 = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4];
const P: readonly number[][] = Array.from({ length: 8 }, (_, i) => Array.from({ length: 10 }, (_, digit) => {
  let at = digit;
  for (let n = 0; n < i; n++) at = P1[at]!;
  return at;
}));

/** Whether `digits` (digits alone), check digit last, pass Verhoeff's check. */
export function verhoeffValid(digits: string): boolean {
  let c = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = D[c]![P[i % 8]![digit]!]!;
  }
  return c === 0;
}

const PARTITIONS: ReadonlySet<string> = new Set(['00', '01', '02', '03', '04', '05', '10', '11', '12', '13', '14', '15']);

/** Whether `code` is a SNOMED CT identifier (see above). */
export function isSctid(code: string): boolean {
  return /^[1-9]\d{5,17}$/.test(code) && PARTITIONS.has(code.slice(-3, -1)) && verhoeffValid(code);
}

export const SNOMED_CT = 'http://snomed.info/sct';

/**
 * Whether a token search value (`system|code`) names SNOMED CT's system and a concept's id: a code,
 * whatever ten of its digits would say as a coordination number (1003755004 reads as one, day 75).
 */
export const isSnomedConceptValue = (value: string): boolean => value.startsWith(`${SNOMED_CT}|`) && isSctid(value.slice(SNOMED_CT.length + 1));

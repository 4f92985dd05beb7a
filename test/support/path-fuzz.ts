/**
 * Issue 44 item 11: request paths that carry an identity number in spellings a scrubber may not
 * foresee, from a fixed seed: double and mixed separators (`--`, `_`, `..`, `%20`, `/`), digits
 * percent-encoded once or twice or in fullwidth, junk around the number (`nr`, `)`, `.json/`, `,`, `~`),
 * its 12- and 10-digit forms, after any prefix a route has or none has. The review's finds are among
 * them: `/x/_19121212--1212.json/`, `/fhir/Patient/,19121212--1212~`, `/health/nr121212--1212)`.
 */

import { seededRandom } from '../../scripts/soak/plan.js';

/** The seeds the tests run; each test prints the ones it used. */
export const FUZZ_SEEDS = [4411, 4412, 4413] as const;

/** The review's finds, always sent. */
export const REVIEW_PATHS = ['/x/_19121212--1212.json/', '/fhir/Patient/,19121212--1212~', '/health/nr121212--1212)'] as const;

const PREFIXES = [
  '/x/', '/fhir/Patient/', '/fhir/', '/health/', '/patients/', '/patients/journalnotes/', '/fhir/Condition/', '/api/open/fhir/Patient/',
  '//', '/x//', '/fhir//Patient/', '/patients//appointments/', '/docs/', '/fhir/Patient/x/', '/',
];
const LEADS = ['', '', '_', 'nr', ',', '~', '(', 'id=', '.', '-', '%20'];
const SEPARATORS = ['-', '--', '_', '__', '.', '..', '+', '%20', '%2D', '%2d', '-_', '~', ',', ')', '/', '//', '%2F', '%E2%80%93', '+-'];
const TRAILS = ['', '', '.json/', '~', ')', '/', '.json', '?q=1', '/_history/1', ';'];

/** One path of `seed`'s stream. */
function onePath(next: () => number, id: string): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const digits = next() < 0.5 ? id : id.slice(2);
  const cuts = new Set<number>();
  const separators = 1 + Math.floor(next() * 3);
  for (let i = 0; i < separators; i++) cuts.add(1 + Math.floor(next() * (digits.length - 1)));
  let number = '';
  [...digits].forEach((digit, i) => {
    if (cuts.has(i)) number += pick(SEPARATORS);
    const r = next();
    if (r < 0.7) number += digit;
    else if (r < 0.82) number += `%3${digit}`;
    else if (r < 0.94) number += `%EF%BC%${(0x90 + Number(digit)).toString(16).toUpperCase()}`;
    else number += `%253${digit}`;
  });
  return `${pick(PREFIXES)}${pick(LEADS)}${number}${pick(TRAILS)}`;
}

/** `count` paths from `seed`, naming `id` (12 digits). */
export function fuzzPaths(seed: number, count: number, id: string): string[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => onePath(next, id));
}

/**
 * The identity number's digits in `text` as a reader finds them: a run of six or more of its
 * digits in a row, or its 10-digit form with up to three characters that are not letters or digits
 * between any two of its digits. `readings` are the text raw and decoded (test/support/log-grep.ts).
 */
export function digitRunsOf(readings: readonly string[], id: string): string[] {
  const found = new Set<string>();
  for (const reading of readings) {
    for (const [run] of reading.matchAll(/\d{6,}/g)) if (id.includes(run)) found.add(run);
    for (const [run] of reading.matchAll(/\d(?:[^\p{L}\p{N}]{0,3}\d)*/gu)) {
      const joined = run.replace(/\D/g, '');
      if (joined.includes(id.slice(2))) found.add(run);
    }
  }
  return [...found];
}

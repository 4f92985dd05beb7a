/**
 * The demo data agrees with itself (issue 47 item 9): what the generator checks before it writes a data set,
 * so a demo person's note never says what their records contradict.
 *
 * - Every lab test has a series: at least MIN_SERIES results, so the patient app's plot of it shows a trend.
 * - A numeric result is marked pathological exactly when it lies outside its reference range.
 * - A note's numeric value of a lab test (`Hb` names `B-Hemoglobin (Hb)`, `HbA1c` names `B-HbA1c`) is one of
 *   that test's results, with the same range.
 * - A note's diagnosis (`E11.9 …`) is among the person's diagnoses.
 * - A note that says `typ N-diabetes` has that diabetes among the person's diagnoses (E10 for type 1, E11 for
 *   type 2), and every prescription whose reason names diabetes names that type.
 */
import { DIAGNOSES, type DiagnosisSpec } from '../../reads/diagnoses/demo-data.js';
import { NOTES, type RecordSpec } from '../../reads/journal-notes/demo-data.js';
import { REPORTS, type TestSpec } from '../../reads/lab-results/demo-data.js';
import { PRESCRIPTIONS } from '../../reads/medications/demo-data.js';
import { DEMO_PEOPLE } from './people.js';

/** Results per lab test that make a trend. */
export const MIN_SERIES = 3;

const number = (text: string | undefined): number | undefined =>
  (text !== undefined && /^-?\d+(,\d+)?$/.test(text.trim()) ? Number(text.trim().replace(',', '.')) : undefined);
const sameRange = (a: string | undefined, b: string | undefined): boolean => (a ?? '').replace(/[-–]/g, '–') === (b ?? '').replace(/[-–]/g, '–');

/** Whether a number lies outside a range written `low–high`, `<high` or `>low`; undefined for a range it cannot read. */
function outside(value: number, range: string | undefined): boolean | undefined {
  if (range === undefined) return undefined;
  const span = /^(\d+(?:,\d+)?)\s*[-–]\s*(\d+(?:,\d+)?)$/.exec(range);
  if (span) return value < (number(span[1]) as number) || value > (number(span[2]) as number);
  const bound = /^([<>])\s*(\d+(?:,\d+)?)$/.exec(range);
  if (!bound) return undefined;
  const limit = number(bound[2]) as number;
  return bound[1] === '<' ? value >= limit : value <= limit;
}

const names = (keyword: string, test: string): boolean => test.endsWith(`(${keyword})`) || test.endsWith(`-${keyword}`);
const eachRecord = (r: RecordSpec): RecordSpec[] => [r, ...(r.nested === undefined ? [] : eachRecord(r.nested))];
const eachDiagnosis = (d: DiagnosisSpec): DiagnosisSpec[] => [d, ...(d.nested ?? []).flatMap(eachDiagnosis)];
const DIABETES_CODE: Readonly<Record<string, string>> = { 1: 'E10', 2: 'E11' };

/** The demo descriptions the check reads, by person. */
export interface DemoRecords {
  reports: typeof REPORTS;
  notes: typeof NOTES;
  diagnoses: typeof DIAGNOSES;
  prescriptions: typeof PRESCRIPTIONS;
}
const DEMO: DemoRecords = { reports: REPORTS, notes: NOTES, diagnoses: DIAGNOSES, prescriptions: PRESCRIPTIONS };

/** Every disagreement in the demo data, each in words naming the person and the record; none when it agrees. */
export function demoDataProblems(data: DemoRecords = DEMO): string[] {
  const problems: string[] = [];
  for (const { id } of DEMO_PEOPLE) {
    const tests: TestSpec[] = (data.reports[id] ?? []).flatMap((r) => r.tests);
    const series = new Map<string, TestSpec[]>();
    for (const t of tests) series.set(t.name, [...series.get(t.name) ?? [], t]);
    for (const [name, results] of series) {
      if (results.length < MIN_SERIES) problems.push(`${id}: lab test ${name} has ${results.length} result(s), fewer than ${MIN_SERIES}`);
    }
    for (const t of tests) {
      const value = number(t.result);
      const out = value === undefined ? undefined : outside(value, t.range);
      if (out !== undefined && out !== t.pathological) problems.push(`${id}: ${t.name} ${t.result} (${t.range ?? ''}) is marked ${t.pathological ? '' : 'not '}pathological`);
    }
    const codes = new Set((data.diagnoses[id] ?? []).flatMap((n) => n.diagnoses.flatMap(eachDiagnosis)).map((d) => d.code));
    for (const note of data.notes[id] ?? []) {
      for (const r of note.records.flatMap(eachRecord)) {
        for (const v of r.values) {
          if (v.type === 'Numeric') {
            const named = [...series.entries()].filter(([name]) => names(r.keyword, name)).flatMap(([, results]) => results);
            if (named.length > 0 && !named.some((t) => number(t.result) === number(v.text) && sameRange(t.range, r.range))) {
              problems.push(`${id}: note ${note.noteId} says ${r.keyword} ${v.text ?? ''} (${r.range ?? ''}), which no ${named[0]?.name ?? ''} result is`);
            }
          }
          const code = v.type === 'Diagnosis' ? v.text?.split(' ')[0] : undefined;
          if (code !== undefined && !codes.has(code)) problems.push(`${id}: note ${note.noteId} names diagnosis ${code}, which the person does not have`);
          for (const [, type] of (v.text ?? '').matchAll(/typ (\d)-diabetes/gi)) {
            const expected = DIABETES_CODE[type ?? ''];
            if (expected === undefined || ![...codes].some((c) => c.startsWith(expected))) {
              problems.push(`${id}: note ${note.noteId} says type ${type ?? ''} diabetes, which no diagnosis is`);
            }
            for (const p of data.prescriptions[id] ?? []) {
              if (/diabetes/i.test(p.reason) && !new RegExp(`typ ${type ?? ''}\\b`, 'i').test(p.reason)) {
                problems.push(`${id}: note ${note.noteId} says type ${type ?? ''} diabetes, prescription ${p.treatmentId}'s reason "${p.reason}"`);
              }
            }
          }
        }
      }
    }
  }
  // A note may say one thing in two records (its assessment and its diagnosis): told once.
  return [...new Set(problems)];
}

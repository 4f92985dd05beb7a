/**
 * Issue 47 item 9: demo data that agrees with itself, checked by the generator before it writes a data set
 * (src/dev/demo-data/consistency.ts). Failed before (the check did not exist, and the data had each of these):
 * Tolvan's note said type 2 diabetes while the insulin's reason said type 1 and no diabetes diagnosis was
 * listed; a note said "Hb 138" where his result was 128 (low); every lab test had one value.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDataProblems, MIN_SERIES, type DemoRecords } from '../../../src/dev/demo-data/consistency.js';
import { generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { STAFF } from '../../../src/dev/demo-data/units.js';
import { DIAGNOSES } from '../../../src/reads/diagnoses/demo-data.js';
import { NOTES } from '../../../src/reads/journal-notes/demo-data.js';
import { REPORTS } from '../../../src/reads/lab-results/demo-data.js';
import { PRESCRIPTIONS } from '../../../src/reads/medications/demo-data.js';

const TOLVAN = '191212121212';
const demo: DemoRecords = { reports: REPORTS, notes: NOTES, diagnoses: DIAGNOSES, prescriptions: PRESCRIPTIONS };
const withTolvan = <K extends keyof DemoRecords>(key: K, value: DemoRecords[K][string]): DemoRecords => ({ ...demo, [key]: { ...demo[key], [TOLVAN]: value } });

describe('the demo data agrees with itself', () => {
  it('has no disagreement the check finds, and every lab test of every person has a series', () => {
    expect(demoDataProblems()).toEqual([]);
    for (const [person, reports] of Object.entries(REPORTS)) {
      const counts = new Map<string, number>();
      for (const t of reports.flatMap((r) => r.tests)) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
      for (const [name, n] of counts) expect(n, `${person} ${name}`).toBeGreaterThanOrEqual(MIN_SERIES);
    }
  });

  it('names no care giver by a placeholder', () => {
    expect(Object.values(STAFF).map((s) => s.name).filter((name) => /[<>]/.test(name))).toEqual([]);
  });

  it('finds each contradiction the issue met', () => {
    const tolvan = (key: keyof DemoRecords) => demo[key][TOLVAN] ?? [];
    const typeOne = withTolvan('prescriptions', PRESCRIPTIONS[TOLVAN]?.map((p) => (/diabetes/i.test(p.reason) ? { ...p, reason: 'Diabetes mellitus typ 1' } : p)) ?? []);
    expect(demoDataProblems(typeOne)).toEqual([expect.stringMatching(/^191212121212: note 000345678 says type 2 diabetes, prescription \d+'s reason "Diabetes mellitus typ 1"$/)]);
    const noDiagnosis = withTolvan('diagnoses', DIAGNOSES[TOLVAN]?.filter((n) => !n.diagnoses.some((d) => d.code.startsWith('E11'))) ?? []);
    expect(demoDataProblems(noDiagnosis).join('\n')).toMatch(/says type 2 diabetes, which no diagnosis is/);
    const hb138 = withTolvan('notes', NOTES[TOLVAN]?.map((n) => ({ ...n, records: n.records.map((r) => (r.keyword === 'Hb' ? { ...r, values: [{ type: 'Numeric', text: '138' }] } : r)) })) ?? []);
    expect(demoDataProblems(hb138)).toEqual([expect.stringMatching(/^191212121212: note \d+ says Hb 138 \(134-170\), which no B-Hemoglobin \(Hb\) result is$/)]);
    const once = withTolvan('reports', (tolvan('reports') as typeof REPORTS[string]).slice(0, 5));
    expect(demoDataProblems(once).join('\n')).toMatch(/lab test B-Hemoglobin \(Hb\) has 1 result\(s\), fewer than 3/);
    const unmarked = withTolvan('reports', (tolvan('reports') as typeof REPORTS[string]).map((r) => ({ ...r, tests: r.tests.map((t) => ({ ...t, pathological: false })) })));
    expect(demoDataProblems(unmarked).join('\n')).toMatch(/B-Hemoglobin \(Hb\) 128 \(134–170\) is marked not pathological/);
  });

  it('is run by the generator, which writes no data set that disagrees', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pdas-demo-consistency-'));
    try {
      await expect(generateDemoData(path.join(dir, 'ehr'), { now: Date.parse('2026-11-21T08:00:00Z'), zone: 'Europe/Stockholm' })).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

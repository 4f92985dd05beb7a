/**
 * A lab report that reaches the demo EHR late, for `npm run notifications` (docs/notifications.md#trying-it):
 * one more `chemistryReportEHRExtract` in a demo person's `labresults.xml`, written as the demo data
 * writes reports. Its sample was taken and attested 15 days ago, so the example release policy's 14-day
 * signing delay already releases it: the patient may be told of it on the next poll. The file is
 * replaced whole (temp file, rename), so the embedded EHR never reads half of it.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { report } from '../../reads/lab-results/demo-xml.js';
import type { ReportSpec } from '../../reads/lab-results/demo-data.js';
import { demoClock } from '../demo-data/clock.js';
import { DEMO_PEOPLE } from '../demo-data/people.js';
import { xmlElement } from '../demo-data/xml.js';

const CLOSING = '</lr:ChemistryReportEHRExtracts>';

/** What the demo adds: a fasting glucose, a little high. */
const lateReport = (n: number): ReportSpec => ({
  n, day: -15, time: '0745', madeAfter: 90, status: 'Slutsvar', requester: 'doris', requestingUnit: 'vc', priority: 'Rutin',
  question: 'Uppföljning av blodsocker',
  tests: [{ name: 'P-Glukos', npu: 'NPU02192', result: '6,3', unit: 'mmol/L', range: '4,0–6,0', pathological: true, attestedAfter: 60 }],
});

/** Adds the late report to `person`'s lab results in the demo EHR's folder; answers the report's test name and result. */
export async function addLateLabReport(ehrDir: string, personId: string, now: number, zone: string): Promise<{ file: string; test: string }> {
  const person = DEMO_PEOPLE.find((p) => p.id === personId);
  if (person === undefined) throw new Error(`${personId} is not a demo person`);
  const file = path.join(ehrDir, 'patients', personId, 'labresults.xml');
  const text = await readFile(file, 'utf8');
  const at = text.lastIndexOf(CLOSING);
  if (at < 0) throw new Error(`${file} is not the demo's lab results document`);
  // A report number no earlier run of the demo gave this person.
  const n = 500 + (text.match(/<chemistryReportEHRExtract>/g)?.length ?? 0);
  const spec = lateReport(n);
  const added = `${xmlElement(report(spec, person, demoClock(now, zone)))}\n`;
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${text.slice(0, at)}${added}${text.slice(at)}`, { mode: 0o600 });
  await rename(tmp, file);
  const [test] = spec.tests;
  return { file, test: `${test?.name ?? ''} ${test?.result ?? ''} ${test?.unit ?? ''}` };
}

/**
 * The documents `bench/mapper.ts` measures, by name: the demo patient Tolvan's own, the generated
 * bench documents, and the mirror documents. Kept apart so the test that every one of them is mapped
 * exactly as the tests' oracle maps it (test/adapters/ehr-xml/bench-documents.test.ts, issue 56
 * item 3) reads the very documents the figures are measured on.
 */
import type { DocumentKind } from '../src/adapters/ehr-xml/documents.js';
import { BENCH_PATIENT, DEMO_PATIENT, JOURNAL_NOTES, NOTES_PATIENT, type BenchFixtures } from './fixtures.js';

export interface MapperCase { name: string; kind: DocumentKind; xml: string; patient: string }

export const sizeOf = (xml: string): string => {
  const bytes = Buffer.byteLength(xml);
  return bytes >= 500_000 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
};

export function mapperCases(f: BenchFixtures): MapperCase[] {
  const bench = (c: Omit<MapperCase, 'patient'>): MapperCase => ({ ...c, patient: BENCH_PATIENT });
  // Issue 56 item 3: the demo patient Tolvan's own documents as the demo data set has them.
  const demo = ([name, kind, xml]: readonly [string, DocumentKind, string]): MapperCase =>
    ({ name: `demo ${name} ${sizeOf(xml)}`, kind, xml, patient: DEMO_PATIENT });
  return [
    ...([
      ['journal notes', 'journalnotes', f.demo.journalXml],
      ['medications', 'medications', f.demo.medicationsXml],
      ['lab results', 'labresults', f.demo.labXml],
    ] as const).map(demo),
    bench({ name: 'patient ~7 KB', kind: 'patient', xml: f.patientXml }),
    bench({ name: 'medications ~20 KB', kind: 'medications', xml: f.smallXml }),
    bench({ name: 'journal notes ~1 MB', kind: 'journalnotes', xml: f.largeXml }),
    { name: `journal of ${JOURNAL_NOTES} notes ${sizeOf(f.notesXml)}`, kind: 'journalnotes', xml: f.notesXml, patient: NOTES_PATIENT },
    // Issue 13: the mirror documents, read by the same reader through shapes derived from the answer
    // schemas; named by their exact size so bench/run.ts's '20 KB' / '1 MB' rows stay the originals.
    ...([
      ['patient v2 (mirror)', 'patient-v2', f.mirror.patientV2Xml],
      ['attention signals (mirror)', 'attentionsignals', f.mirror.signalsXml],
      ['care contacts (mirror)', 'contacts', f.mirror.contactsSmallXml],
      ['care contacts (mirror)', 'contacts', f.mirror.contactsLargeXml],
      ['lab results (mirror)', 'labresults', f.mirror.labSmallXml],
      ['lab results (mirror)', 'labresults', f.mirror.labLargeXml],
      ['diagnoses (mirror)', 'diagnoses', f.mirror.diagnosesSmallXml],
      ['diagnoses (mirror)', 'diagnoses', f.mirror.diagnosesLargeXml],
    ] as const).map(([name, kind, xml]): MapperCase => bench({ name: `${name} ${sizeOf(xml)}`, kind, xml })),
  ];
}

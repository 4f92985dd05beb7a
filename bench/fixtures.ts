/**
 * Bench fixtures, generated (never hand-written): the demo data set for today in `.data/bench/ehr`,
 * plus one synthetic bench patient whose documents are cut from and multiplied out of the demo
 * patient Tolvan's, so they carry every trap the demo data carries (prefixes, CDATA, entities,
 * nesting, leading zeros):
 *   - medications.xml  ~20 KB  (two PrescriptionEHRExtracts, one of them rx:-prefixed)
 *   - journalnotes.xml ~1 MB   (Tolvan's journal extracts repeated, each copy with its own ehr_id)
 *   - a second bench patient's journal of exactly 100 notes (~0.6 MB, issue 56), cut the same way
 *   - the mirror documents (issue 13): patient-v2.xml as the demo's (~6 KB), attentionsignals.xml
 *     (~17 KB, the demo's), contacts.xml cut to ~20 KB, and a ~1 MB contacts document (not written
 *     to the data set: the bench reads only its bytes)
 * The demo generator's people and data are not touched: the bench patient exists only here.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateDemoData } from '../src/dev/demo-data/generate.js';

/** A valid Swedish test identity number that no demo person uses. */
export const BENCH_PATIENT = '199003152387';
/** A demo person whose journal the bench replaces with one of ~9 MiB (issue 20 item 6), under the 10 MiB cap. */
export const HUGE_JOURNAL_PATIENT = '198112189876';
const HUGE_JOURNAL_BYTES = 9 * 2 ** 20;
/** A valid Swedish test identity number no demo person uses, whose journal holds JOURNAL_NOTES notes (issue 56). */
export const NOTES_PATIENT = '197811049878';
export const JOURNAL_NOTES = 100;
/** The demo patient Tolvan, whose documents the bench's are made of. */
export const DEMO_PATIENT = '191212121212';
export const ZONE = 'Europe/Stockholm';

export interface BenchFixtures {
  /** EHR_DATA_DIR for the embedded EHR and the simulator. */
  ehrDir: string;
  /** The bench patient's documents, as written. */
  patientXml: string;
  smallXml: string;
  largeXml: string;
  /** HUGE_JOURNAL_PATIENT's journal of ordinary notes, ~9 MiB. */
  hugeXml: string;
  /** NOTES_PATIENT's journal of JOURNAL_NOTES notes. */
  notesXml: string;
  /** Issue 56 item 3: Tolvan's own documents, as the demo data set has them. */
  demo: { journalXml: string; medicationsXml: string; labXml: string };
  /** Issue 13: the mirror documents, beside the others' sizes. */
  mirror: {
    patientV2Xml: string; signalsXml: string; contactsSmallXml: string; contactsLargeXml: string;
    /** Issue 23: lab results and diagnoses at ~20 KB and ~1 MB. */
    labSmallXml: string; labLargeXml: string; diagnosesSmallXml: string; diagnosesLargeXml: string;
  };
}

interface Split { head: string; extracts: string[]; tail: string }

/** The document around its extracts, and the extracts themselves (prefixed ones included). */
function splitExtracts(xml: string, name: string): Split {
  const re = new RegExp(`<((?:[A-Za-z_][\\w.-]*:)?)${name}>[\\s\\S]*?</\\1${name}>`, 'g');
  const extracts: string[] = [];
  let first = -1;
  let last = -1;
  for (const m of xml.matchAll(re)) {
    if (first < 0) first = m.index;
    last = m.index + m[0].length;
    extracts.push(m[0]);
  }
  if (extracts.length === 0) throw new Error(`no ${name} in the demo document`);
  return { head: xml.slice(0, first), extracts, tail: xml.slice(last) };
}

const join = (s: Split, extracts: string[]): string => s.head + extracts.join('\n    ') + s.tail;

/** Tolvan's journal notes repeated to exactly `notes` extracts, every copy with its own ehr_id. */
export function journalOfNotes(demoJournal: string, notes: number, name = 'JournalNoteEHRExtract'): string {
  const split = splitExtracts(demoJournal, name);
  const out: string[] = [];
  for (let i = 0; out.length < notes; i++) {
    const e = split.extracts[i % split.extracts.length] as string;
    out.push(e.replace(/(<ehr_id extension=")([^"]*)"/, (_m, open: string, id: string) => `${open}${id}-${Math.floor(i / split.extracts.length)}"`));
  }
  return join(split, out);
}

/** Tolvan's medications (or another document's `name` extracts) cut to about `bytes` (whole extracts only). */
export function smallDocument(demoMedications: string, bytes = 20_000, name = 'PrescriptionEHRExtract'): string {
  const split = splitExtracts(demoMedications, name);
  const kept: string[] = [];
  for (const e of split.extracts) {
    kept.push(e);
    if (join(split, kept).length >= bytes * 0.95) break;
  }
  return join(split, kept);
}

/** Tolvan's journal notes (or another document's `name` extracts) multiplied out to at least `bytes`, every copy with its own ehr_id. */
export function largeDocument(demoJournal: string, bytes = 1_000_000, name = 'JournalNoteEHRExtract'): string {
  const split = splitExtracts(demoJournal, name);
  const out: string[] = [];
  let size = split.head.length + split.tail.length;
  for (let copy = 0; size < bytes; copy++) {
    for (const e of split.extracts) {
      const unique = e.replace(/(<ehr_id extension=")([^"]*)"/, (_m, open: string, id: string) => `${open}${id}-${copy}"`);
      out.push(unique);
      size += unique.length + 5;
    }
  }
  return join(split, out);
}

const forBenchPatient = (xml: string): string => xml.split(DEMO_PATIENT).join(BENCH_PATIENT);

/** Writes the bench data set under `root` (`.data/bench` by default) and returns what it wrote. */
export async function generateBenchFixtures(root = path.resolve('.data/bench')): Promise<BenchFixtures> {
  const ehrDir = path.join(root, 'ehr');
  await mkdir(root, { recursive: true });
  await generateDemoData(ehrDir, { now: Date.now(), zone: ZONE });
  const demo = (file: string): Promise<string> => readFile(path.join(ehrDir, 'patients', DEMO_PATIENT, file), 'utf8');
  const patientXml = forBenchPatient(await demo('patient.xml'));
  const smallXml = forBenchPatient(smallDocument(await demo('medications.xml')));
  const largeXml = forBenchPatient(largeDocument(await demo('journalnotes.xml')));
  const dir = path.join(ehrDir, 'patients', BENCH_PATIENT);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'patient.xml'), patientXml);
  await writeFile(path.join(dir, 'medications.xml'), smallXml);
  await writeFile(path.join(dir, 'journalnotes.xml'), largeXml);
  const hugeXml = largeDocument(await demo('journalnotes.xml'), HUGE_JOURNAL_BYTES).split(DEMO_PATIENT).join(HUGE_JOURNAL_PATIENT);
  await writeFile(path.join(ehrDir, 'patients', HUGE_JOURNAL_PATIENT, 'journalnotes.xml'), hugeXml);
  const forNotesPatient = (xml: string): string => xml.split(DEMO_PATIENT).join(NOTES_PATIENT);
  const notesXml = forNotesPatient(journalOfNotes(await demo('journalnotes.xml'), JOURNAL_NOTES));
  await mkdir(path.join(ehrDir, 'patients', NOTES_PATIENT), { recursive: true });
  await writeFile(path.join(ehrDir, 'patients', NOTES_PATIENT, 'patient.xml'), forNotesPatient(await demo('patient.xml')));
  await writeFile(path.join(ehrDir, 'patients', NOTES_PATIENT, 'journalnotes.xml'), notesXml);
  const contacts = await demo('contacts.xml');
  const mirror = {
    patientV2Xml: forBenchPatient(await demo('patient-v2.xml')),
    signalsXml: forBenchPatient(await demo('attentionsignals.xml')),
    contactsSmallXml: forBenchPatient(smallDocument(contacts, 20_000, 'contactEHRExtract')),
    contactsLargeXml: forBenchPatient(largeDocument(contacts, 1_000_000, 'contactEHRExtract')),
    ...await reportsAndDiagnoses(demo),
  };
  await writeFile(path.join(dir, 'patient-v2.xml'), mirror.patientV2Xml);
  await writeFile(path.join(dir, 'attentionsignals.xml'), mirror.signalsXml);
  await writeFile(path.join(dir, 'contacts.xml'), mirror.contactsSmallXml);
  await writeFile(path.join(dir, 'labresults.xml'), mirror.labSmallXml);
  await writeFile(path.join(dir, 'diagnoses.xml'), mirror.diagnosesSmallXml);
  const demoDocuments = { journalXml: await demo('journalnotes.xml'), medicationsXml: await demo('medications.xml'), labXml: await demo('labresults.xml') };
  return { ehrDir, patientXml, smallXml, largeXml, hugeXml, notesXml, mirror, demo: demoDocuments };
}

/** Issue 23: the demo's lab results and diagnoses grown to ~20 KB and ~1 MB, as the care contacts are. */
async function reportsAndDiagnoses(demo: (file: string) => Promise<string>) {
  const labs = await demo('labresults.xml');
  const diagnoses = await demo('diagnoses.xml');
  return {
    labSmallXml: forBenchPatient(smallDocument(labs, 20_000, 'chemistryReportEHRExtract')),
    labLargeXml: forBenchPatient(largeDocument(labs, 1_000_000, 'chemistryReportEHRExtract')),
    diagnosesSmallXml: forBenchPatient(smallDocument(diagnoses, 20_000, 'diagnosisEHRExtract')),
    diagnosesLargeXml: forBenchPatient(largeDocument(diagnoses, 1_000_000, 'diagnosisEHRExtract')),
  };
}

/**
 * Changes a test makes to the demo EHR's documents (DATA_DIR/demo-ehr), as the EHR would make them: a
 * late lab report, a journal note signed now, a booking moved, a result corrected, a registry row ended. Each file is
 * replaced whole (a temp file, then a rename), so the embedded EHR never reads half of one.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { epochMsToCompact } from '../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';

async function replace(file: string, change: (text: string) => string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const changed = change(text);
  if (changed === text) throw new Error(`nothing to change in ${file}`);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, changed);
  await rename(tmp, file);
}

const patientFile = (ehrDir: string, patient: string, document: string): string => path.join(ehrDir, 'patients', patient, `${document}.xml`);

/**
 * A copy of the patient's first journal note as a new one: its own ids, created and signed at `signedMs`.
 * Answers the new note's record id (its Composition's id).
 */
export async function addSignedNote(ehrDir: string, patient: string, signedMs: number): Promise<string> {
  const id = randomUUID();
  const at = epochMsToCompact(signedMs, ZONE);
  await replace(patientFile(ehrDir, patient, 'journalnotes'), (text) => {
    const start = text.indexOf('<JournalNoteEHRExtract>');
    const end = text.indexOf('</JournalNoteEHRExtract>', start) + '</JournalNoteEHRExtract>'.length;
    const note = text.slice(start, end)
      .replace(/<ehr_id extension="[^"]+"/, `<ehr_id extension="${id}"`)
      .replace(/<NoteId extension="[^"]+"/, `<NoteId extension="9${Date.now() % 100_000_000}"`)
      .replace(/<time_created value="\d{14}"/, `<time_created value="${at}"`)
      .replace(/<NoteSignDateTime value="\d{14}"/, `<NoteSignDateTime value="${at}"`);
    return `${text.slice(0, end)}\n    ${note}${text.slice(end)}`;
  });
  return id;
}

/** Moves the patient's first booking an hour later; answers its ContactId. */
export async function moveFirstBooking(ehrDir: string, patient: string): Promise<string> {
  let contact = '';
  await replace(patientFile(ehrDir, patient, 'bookings'), (text) => text.replace(/<ContactId>(\d+)<\/ContactId>\s*<StartTime value="(\d{8})(\d{2})(\d{4})"\/>/, (whole, id: string, day: string, hour: string, rest: string) => {
    contact = id;
    return whole.replace(`${day}${hour}${rest}`, `${day}${String((Number(hour) + 1) % 24).padStart(2, '0')}${rest}`);
  }));
  return contact;
}

/** Ends `actor`'s registry row for `patient`: its last day becomes its first, long past. */
export async function endRelationship(ehrDir: string, actor: string, patient: string): Promise<void> {
  await replace(path.join(ehrDir, 'relationships', `${actor}.xml`), (text) =>
    text.replace(new RegExp(`(<Relationship patient="${patient}" type="[^"]+" validFrom="(\\d{8})")(?: validTo="\\d{8}")?`), '$1 validTo="$2"'));
}

/** Corrects the patient's first negative test result to positive (its report's own fields unchanged). */
export async function correctFirstNegativeResult(ehrDir: string, patient: string): Promise<void> {
  await replace(patientFile(ehrDir, patient, 'labresults'), (text) => text.replace('<result>Negativ</result>', '<result>Positiv</result>'));
}

/**
 * Parameters that name a patient in a way the API does not serve (docs/fhir-api.md#search, threat 57
 * of docs/threat-model.md). An unknown parameter is ignored under FHIR's lenient handling; one that
 * names a patient must not be, or the answer is the launch patient's records under another person's
 * name (`Condition?subject:Patient=<child>` answering the guardian's diagnoses). So, whatever
 * `Prefer` says, 400 for a parameter the API does not serve that:
 *
 * - is spelt as a patient, in any case, with a modifier or a chain (`PATIENT`, `patient:Patient`,
 *   `patient.identifier`, `subject:Patient.name`, ` patient`, a fullwidth `ｐａｔｉｅｎｔ`), or picks
 *   records by another resource or an expression (`_has`, `_filter`, `_query`, `_list`);
 * - holds a reference to a Patient (`asserter=Patient/<id>`), an id of a Patient id's form (judged by
 *   its form, so the answer never tells a genuine id from a forged one), or an identity number in any
 *   spelling (`performer=19121212+1212`); `Appointment?actor=Patient/<id>`
 *   is served, as `patient` is (search-values.ts, namesPatientBy), and never reaches here;
 * - is any filter on Patient, where every parameter picks people (`Patient?name=…`,
 *   `Patient?birthdate=…`): only the parameters that shape an answer are ignored there.
 */
import { namesAPerson } from '../../domain/redaction/names-a-person.js';
import { readingOf } from '../../domain/redaction/reading.js';
import { ApiError } from '../api-error.js';
import { searchValueNamesAPerson } from './search-values.js';

/** FHIR R4's parameters that shape an answer (its size, form and includes) and pick no records: ignored on Patient where not served. */
const PICKS_NOBODY: ReadonlySet<string> = new Set(['_sort', '_summary', '_total', '_elements', '_contained', '_containedtype', '_pretty']);
/** Parts of a name that name a patient, or pick records by what other resources or an expression say. */
const PATIENT_PARTS: ReadonlySet<string> = new Set(['patient', 'subject', '_has', '_filter', '_query', '_list']);
/** A name as a person reads it: decoded, compatibility forms folded, invisible characters and white space out, in lower case; undefined past reading. */
const folded = (name: string): string | undefined => readingOf(name)?.replace(/\s/g, '').toLowerCase();

/** The name as it may be shown back in an error: a plain parameter name, naming nobody; else undefined. */
export function shownName(name: string): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_\-:.]{0,63}$/.test(name) && !namesAPerson(name) ? name : undefined;
}

/** `Search parameter <name>`, or `A search parameter` where the name cannot be shown back. */
export const parameterLabel = (name: string): string => {
  const shown = shownName(name);
  return shown === undefined ? 'A search parameter' : `Search parameter ${shown}`;
};

/** Whether a value points at a Patient: a reference to one, an id of a Patient id's form, or an identity number. */
function valueNamesAPatient(value: string, isPatientIdForm: (id: string) => boolean): boolean {
  const read = readingOf(value) ?? value;
  if (/patient\s*[/?]/i.test(read) || searchValueNamesAPerson(value)) return true;
  return read.split(/[^A-Za-z0-9\-.]+/).some((piece) => piece !== '' && isPatientIdForm(piece));
}

/** Whether a parameter names a patient or picks records by others' (see the file's header), `patient` itself included. */
export function namesAPatient(name: string, value: string, isPatientIdForm: (id: string) => boolean): boolean {
  // A name encoded past any client's depth is taken to name a patient: nobody can say it does not.
  const parts = folded(name)?.split(/[:.]/) ?? ['patient'];
  return parts.some((part) => PATIENT_PARTS.has(part)) || valueNamesAPatient(value, isPatientIdForm);
}

/**
 * The refusal of a parameter the API does not serve `where` (`on Condition`, `on a read by id`), when
 * it names a patient (see the file's header); undefined when it may be ignored.
 */
export function namingRefusal(
  where: string, name: string, value: string, isPatientIdForm: (id: string) => boolean,
  instead = 'name the patient with patient=Patient/<id> alone (see the searchParam of GET /fhir/metadata)',
): ApiError | undefined {
  if (!namesAPatient(name, value, isPatientIdForm)) return undefined;
  return new ApiError(400, `${parameterLabel(name)} names a patient in a way this API does not serve ${where}: ${instead}.`);
}

/** The refusal of a parameter the API does not serve on Patient, where every filter picks people; undefined for one that shapes the answer alone. */
export function patientFilterRefusal(name: string): ApiError | undefined {
  if (PICKS_NOBODY.has(folded(name) ?? '')) return undefined;
  return new ApiError(400, `${parameterLabel(name)} is not one this API serves on Patient, where every parameter picks people: `
    + 'search by _id=<Patient id> or identifier=<system>|<number>, or leave both out for everyone this token reaches.');
}

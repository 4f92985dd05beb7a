// What a FHIR resource type holds, in words a person reads on the consent page (issue 55 item 7), in
// Swedish and English, from what the service already says of it: the names the access log gives the reads
// that bring the type (the operation table's `fhirTypes`, and every read whose FHIR form writes it: the
// video meetings are Appointments too, hostile review helper-144, F1), else the name of the reads under the
// API scope its SMART read scope stands for (`patient/AuditEvent.read` is the access log's scope), and
// the people and places every record names as such. No list of types here: a read that brings a new
// type names it in the access log, and so here.
import { canonicalScope } from '../../domain/access/scopes.js';
import { PARTY_TYPES, PATIENT_TYPES } from '../../domain/fhir/resources/parties.js';
import type { RecordsRead } from '../../domain/operations/operation.js';
import { OPERATION_NAMES, OPERATIONS, READ_NAMES, type OperationName, type ReadName } from '../../domain/operations/table.js';
import { servedForm } from '../../reads/read-sources.js';
import { READ_SOURCES } from '../../reads/source-table.js';
import type { Localized } from './page-language.js';

const lowerFirst = (text: string): string => text.replace(/^./, (c) => c.toLowerCase());

/** Whether `read`'s FHIR form writes records of `type` (its folder's as-fhir.ts), where the API serves it. */
const writes = (read: ReadName, type: string): boolean => servedForm(READ_SOURCES[read])?.types.includes(type) === true;
const AND: Localized = { en: ' and ', sv: ' och ' };

/** The access log's names of `operations`, each once, as part of a sentence: "lab results", "provsvar". */
export function namesOf(operations: readonly OperationName[]): Localized {
  const names = (lang: 'sv' | 'en') => [...new Set(operations.map((name) => lowerFirst(OPERATIONS[name].displayName[lang])))].join(AND[lang]);
  return { en: names('en'), sv: names('sv') };
}

/** The people and places a record names (its units, staff, places): every read brings them along. */
const PARTIES: Localized = { en: 'the care units and staff the record names', sv: 'vårdenheter och personal som journalen nämner' };

/** What `type` holds, in words; undefined for a type the service does not serve. */
export function typeWords(type: string): Localized | undefined {
  const reads = READ_NAMES.filter((read) => Object.hasOwn((OPERATIONS[read] as RecordsRead).fhirTypes ?? {}, type) || writes(read, type));
  if (reads.length > 0) return namesOf(reads);
  const scope = canonicalScope(`patient/${type}.read`);
  // Only what holds records has a type's words: sharing's scope spelt as a type (`user/Proxy.rs`) opens nothing (helper-144, F4).
  const scoped = OPERATION_NAMES.filter((name) => OPERATIONS[name].scope.name === scope && ['records', 'accessLog'].includes(OPERATIONS[name].handler));
  if (scoped.length > 0) return namesOf(scoped);
  // The patient's own types (a relative's too) are their personal details, as the Patient's scope says.
  if (Object.hasOwn(PATIENT_TYPES, type) && type !== 'Patient') return typeWords('Patient');
  return Object.hasOwn(PARTY_TYPES, type) ? PARTIES : undefined;
}

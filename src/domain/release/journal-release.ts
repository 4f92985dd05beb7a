/**
 * The release rules of one journal note. A note is withheld whole for its secrecy level, a missing
 * or too recent signature, a listed unit or a listed keyword name; a keyword (Record) with a listed
 * secrecy level is withheld whole, with every Record nested in it. A note left with no keyword of
 * those it had is withheld too: its empty frame would still say that something was written.
 */
import type { JournalExtract, JournalRecord } from '../records/index.js';
import { anyListed, byListedUnit, normalised, type ActiveRules } from './active-rules.js';
import { signatureWithholds } from './signing-delay.js';

export interface Outcome<T> {
  /** Undefined: withheld whole. */
  kept: T | undefined;
  /** How many items were left out (the whole, or the parts of a kept one). */
  withheld: number;
}

function hasListedKeyword(record: JournalRecord | undefined, names: ReadonlySet<string>): boolean {
  for (let r = record; r !== undefined; r = r.Record) {
    if (r.Keyword !== undefined && names.has(normalised(r.Keyword))) return true;
  }
  return false;
}

/** A keyword and what it holds, less what a secrecy level withholds; nested Records go with their parent. */
function releaseRecord(record: JournalRecord, levels: ReadonlySet<string>): Outcome<JournalRecord> {
  if (anyListed(record.KeywordSecrecyLevels.SecrecyLevel, levels)) return { kept: undefined, withheld: 1 };
  if (record.Record === undefined) return { kept: record, withheld: 0 };
  const nested = releaseRecord(record.Record, levels);
  if (nested.withheld === 0) return { kept: record, withheld: 0 };
  const { Record: _withheld, ...rest } = record;
  return { kept: nested.kept === undefined ? rest : { ...rest, Record: nested.kept }, withheld: nested.withheld };
}

function withheldWhole(extract: JournalExtract, rules: ActiveRules): boolean {
  const note = extract.Note;
  if (anyListed(note?.NoteSecrecyLevels.SecrecyLevel, rules.noteLevels)) return true;
  // An extract without a Note, or a Note without a signing time, is unsigned.
  const signed = note?.NoteSignDateTime?.value;
  if (signatureWithholds(signed, rules)) return true;
  const names = rules.keywordNames;
  if (names !== undefined && (note?.Records.Record ?? []).some((r) => hasListedKeyword(r, names))) return true;
  return byListedUnit(extract, rules);
}

export function releaseNote(extract: JournalExtract, rules: ActiveRules): Outcome<JournalExtract> {
  if (withheldWhole(extract, rules)) return { kept: undefined, withheld: 1 };
  const levels = rules.keywordLevels;
  const note = extract.Note;
  if (levels === undefined || note === undefined) return { kept: extract, withheld: 0 };
  let withheld = 0;
  const records: JournalRecord[] = [];
  for (const record of note.Records.Record) {
    const outcome = releaseRecord(record, levels);
    withheld += outcome.withheld;
    if (outcome.kept !== undefined) records.push(outcome.kept);
  }
  if (withheld === 0) return { kept: extract, withheld: 0 };
  if (records.length === 0) return { kept: undefined, withheld: 1 };
  return { kept: { ...extract, Note: { ...note, Records: { Record: records } } }, withheld };
}

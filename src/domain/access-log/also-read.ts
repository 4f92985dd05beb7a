/**
 * The other reads of the patient's data one request made besides its operation's, as an audit record
 * names them (OutcomeRecord.alsoRead, docs/contract.md#the-patients-access-log).
 */

/** The most reads one record names besides its operation: every read there is fits many times over. */
export const ALSO_READ_MAX = 32;
/**
 * A read's name as the service spells it (getJournalNotes, getPatientV2): letters and at most a version digit
 * at the end, so one never holds a separator, and never a run of digits an identity number could be.
 */
const READ_NAME = /^[a-z][A-Za-z]{0,62}[0-9]?$/;

/**
 * The reads a record names besides its operation, as both trails store them: 1 to ALSO_READ_MAX
 * distinct names of reads' form. PostgreSQL keeps them space-separated in one column (audit-row.ts).
 */
export const isAlsoRead = (reads: unknown): reads is string[] =>
  Array.isArray(reads) && reads.length >= 1 && reads.length <= ALSO_READ_MAX && new Set(reads).size === reads.length
  && reads.every((r) => typeof r === 'string' && READ_NAME.test(r));

/**
 * What of a read may be released to its caller under the region's policy (CONTRACT §6). Pure: the
 * records, the policy, who is asking for whom and the clock's instant in, the released records and
 * the number of items withheld out. Withheld items are left out whole; the input is never changed.
 * Reads that show no journal content (patient, bookings, video meetings) pass unchanged.
 */
import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';
import type { OperationName } from '../access/operations.js';
import type { AccessBasis } from '../access/patient-access.js';
import type { AttentionSignalEhrExtract, ContactEhrExtract, JournalExtract, PrescriptionExtract } from '../records/index.js';
import { activeRules, type ActiveRules } from './active-rules.js';
import { guardianAgeWithholds } from './guardian-age.js';
import { releaseNote, type Outcome } from './journal-release.js';
import { releaseContact, releasePrescription, releaseSignal } from './record-release.js';
import type { GuardianLimitedOperation, ReleasePolicy } from './release-policy.js';

export interface ReleaseContext {
  basis: AccessBasis;
  /** The patient the read is for; the guardian age limit reads the birth date from it. */
  patientId: string;
  now: number;
  zone: string;
}

export interface Released<T> {
  records: T;
  /** How many items were left out; never which. */
  withheld: number;
}

interface Extracts<T> {
  kept: T[];
  withheld: number;
}

function releaseEach<T>(items: readonly T[], release: (item: T) => Outcome<T>, everything: boolean): Extracts<T> {
  if (everything) return { kept: [], withheld: items.length };
  const kept: T[] = [];
  let withheld = 0;
  for (const item of items) {
    const outcome = release(item);
    withheld += outcome.withheld;
    if (outcome.kept !== undefined) kept.push(outcome.kept);
  }
  return { kept, withheld };
}

/** Applies `release` to the extracts under `key` of each container; `dropEmpty` for layouts that answer no empty container. */
function releaseIn<C, K extends keyof C, T>(
  containers: C[], key: K, release: (item: T) => Outcome<T>, everything: boolean, dropEmpty: boolean,
): Released<C[]> {
  let withheld = 0;
  const records: C[] = [];
  for (const container of containers) {
    const outcome = releaseEach(container[key] as T[], release, everything);
    withheld += outcome.withheld;
    if (outcome.withheld === 0) records.push(container);
    else if (outcome.kept.length > 0 || !dropEmpty) records.push({ ...container, [key]: outcome.kept });
  }
  return { records, withheld };
}

type Releaser<K extends ReadKind> = (data: ReadResults[K], rules: ActiveRules, everything: boolean) => Released<ReadResults[K]>;

const RELEASERS: { [K in ReadKind]?: { operation: GuardianLimitedOperation; release: Releaser<K> } } = {
  journalnotes: {
    operation: 'getJournalNotes',
    release: (data, rules, all) => releaseIn(data, 'JournalNoteEHRExtract', (e: JournalExtract) => releaseNote(e, rules), all, false),
  },
  medications: {
    operation: 'getMedications',
    release: (data, rules, all) => releaseIn(data, 'PrescriptionEHRExtract', (e: PrescriptionExtract) => releasePrescription(e, rules), all, false),
  },
  contacts: {
    operation: 'getContacts',
    release: (data, rules, all) => releaseIn(data, 'contactEHRExtract', (e: ContactEhrExtract) => releaseContact(e, rules), all, true),
  },
  attentionsignals: {
    operation: 'getAttentionSignals',
    release: (data, rules, all) => releaseIn(data, 'AttentionSignalEHRExtract', (e: AttentionSignalEhrExtract) => releaseSignal(e, rules), all, true),
  },
};

/** The operations whose answers the release policy may filter. */
export const RELEASE_FILTERED_OPERATIONS: readonly OperationName[] = Object.values(RELEASERS).map((r) => r.operation);

export function releaseToCaller<K extends ReadKind>(
  kind: K, data: ReadResults[K], policy: ReleasePolicy | undefined, context: ReleaseContext,
): Released<ReadResults[K]> {
  const releaser = RELEASERS[kind] as { operation: GuardianLimitedOperation; release: Releaser<K> } | undefined;
  if (policy === undefined || releaser === undefined) return { records: data, withheld: 0 };
  const { basis, patientId, now, zone } = context;
  const everything = guardianAgeWithholds(policy, releaser.operation, basis, patientId, now, zone);
  return releaser.release(data, activeRules(policy, basis, now, zone), everything);
}

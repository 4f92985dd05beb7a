/**
 * The release policy's per-record checks (issue 56 item 4): the 100-note journal of bench/fixtures.ts
 * (NOTES_PATIENT), as the embedded EHR keeps it, released to a delegate under a policy with care-unit,
 * secrecy-level and keyword rules that withhold nothing (every check runs on every note), best of 7
 * rounds of N calls. Run `npm run bench` (or bench/profile.ts) once first: it writes the fixtures.
 *
 *   node --import tsx bench/release-checks.ts [--calls N]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocumentStore } from '../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../src/adapters/ehr-embedded/write-state-store.js';
import { releaseToCaller } from '../src/domain/use-cases/read-patient-data.js';
import type { ReleasePolicy } from '../src/domain/release/release-policy.js';
import { NOTES_PATIENT, ZONE } from './fixtures.js';
import { fmt } from './util.js';

const argv = process.argv.slice(2);
const CALLS = argv.includes('--calls') ? Number(argv[argv.indexOf('--calls') + 1]) : 2000;

const POLICY: ReleasePolicy = {
  noteSecrecyLevels: { levels: ['Skyddad'] },
  keywordSecrecyLevels: { levels: ['Hemlig'] },
  keywords: { names: ['Spärrat sökord'] },
  careUnits: { unitIds: [{ root: '1.2.752.129.2.1.4.1', extension: 'SE0000000000-NOSUCH' }], accessZoneIds: [{ root: '1.2.752.129.2.1.4.1', extension: 'SE0000000000-NOZONE' }] },
};

async function main(): Promise<void> {
  const state = await mkdtemp(path.join(tmpdir(), 'release-checks-'));
  try {
    const ehr = new EmbeddedEhr(new DocumentStore(path.resolve('.data/bench/ehr')), await WriteStateStore.open(path.join(state, 'state.json')), ZONE, () => undefined);
    const notes = await ehr.reads.getJournalNotes(NOTES_PATIENT, {});
    const context = { basis: 'guardian' as const, patientId: NOTES_PATIENT, now: Date.now(), zone: ZONE };
    const once = releaseToCaller('getJournalNotes', notes, POLICY, context);
    const extracts = notes.reduce((n, c) => n + c.JournalNoteEHRExtract.length, 0);
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 7; round++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) releaseToCaller('getJournalNotes', notes, POLICY, context);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / CALLS);
    }
    process.stdout.write(`${extracts} notes, ${once.withheld} withheld: ${fmt(best, 1)} µs per release (best of 7 × ${CALLS} calls, node ${process.version})\n`);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}

void main();

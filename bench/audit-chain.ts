/**
 * What keying the audit chain costs each record (issue 44 item 6): the hash of a record as the file
 * trail and the PostgreSQL trail make it, SHA-256 before the key and HMAC-SHA-256 under it, on a
 * record of a delegate's journal read (every field set, ~500 bytes). Alternating rounds, medians.
 * The write itself (one O_DSYNC write or one INSERT per batch) is not in it: it is the same either way.
 *
 *   node --import tsx bench/audit-chain.ts [--json]
 */
import { macHex, parseChainKeys, unkeyedHex } from '../src/adapters/audit-chain/chain-keys.js';
import { rowHash, rowMac, toStoredValues } from '../src/adapters/audit-postgres/audit-row.js';
import type { OutcomeRecord } from '../src/ports/audit-trail.port.js';
import { fmt, median, pinSelf, table, write } from './util.js';

export interface AuditChainResult {
  fileUnkeyedUs: number;
  fileKeyedUs: number;
  rowUnkeyedUs: number;
  rowKeyedUs: number;
}

const RECORD: OutcomeRecord = {
  time: '2026-11-21T09:00:01.123Z', requestId: 'f0e382c1-3cde-46a1-b3d2-e3df059b1b46', serviceRequestId: 'f0e382c1-3cde-46a1-b3d2-e3df059b1b46',
  operation: 'getJournalNotes', actor: { issuer: 'https://login.region.example/realms/patients', subject: 'märta', personId: '198112189876' },
  clientId: 'patient-app', subscription: 'patient-app', patientId: '201701012393', delegation: 'guardian', sourceAddress: '10.1.2.3', outcome: 'allowed', status: 200,
};
const KEY = parseChainKeys(`2026-11:${'a1'.repeat(32)}`, 'bench').signing;
const PREV = '0'.repeat(64);

function perRecordUs(run: () => string): number {
  const n = 100_000;
  let sink = '';
  const start = performance.now();
  for (let i = 0; i < n; i++) sink = run();
  if (sink.length !== 64) throw new Error('not a hash');
  return ((performance.now() - start) * 1000) / n;
}

export function runAuditChainBench(): AuditChainResult {
  const body = JSON.stringify(RECORD).slice(0, -1);
  const values = toStoredValues(RECORD);
  const runs = {
    fileUnkeyedUs: () => unkeyedHex(`${body},"prev":"${PREV}"}`),
    fileKeyedUs: () => macHex(KEY, `${body},"key":"${KEY.id}","prev":"${PREV}"}`),
    rowUnkeyedUs: () => rowHash(values, PREV),
    rowKeyedUs: () => rowMac(values, PREV, KEY),
  };
  const rounds: Record<keyof AuditChainResult, number[]> = { fileUnkeyedUs: [], fileKeyedUs: [], rowUnkeyedUs: [], rowKeyedUs: [] };
  for (let round = 0; round < 7; round++) {
    for (const [name, run] of Object.entries(runs) as Array<[keyof AuditChainResult, () => string]>) rounds[name].push(perRecordUs(run));
  }
  return {
    fileUnkeyedUs: median(rounds.fileUnkeyedUs), fileKeyedUs: median(rounds.fileKeyedUs),
    rowUnkeyedUs: median(rounds.rowUnkeyedUs), rowKeyedUs: median(rounds.rowKeyedUs),
  };
}

export const auditChainTable = (r: AuditChainResult): string => table(
  ['µs per record', 'SHA-256 (before the key)', 'HMAC-SHA-256 (keyed)', 'added'],
  [
    ['file trail line', fmt(r.fileUnkeyedUs, 2), fmt(r.fileKeyedUs, 2), fmt(r.fileKeyedUs - r.fileUnkeyedUs, 2)],
    ['PostgreSQL row', fmt(r.rowUnkeyedUs, 2), fmt(r.rowKeyedUs, 2), fmt(r.rowKeyedUs - r.rowUnkeyedUs, 2)],
  ],
);

if (import.meta.url === `file://${process.argv[1]}`) {
  pinSelf(0);
  const result = runAuditChainBench();
  if (process.argv.includes('--json')) write(JSON.stringify(result));
  else write(auditChainTable(result));
}

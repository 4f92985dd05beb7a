/**
 * What turning an EHR's local times into instants costs (src/domain/time/local-time.ts): `offsetAt`
 * and `compactToEpochMs` in Europe/Stockholm over 2,000 hours of a year (every quarter hour's offset
 * cached after the first), as every mapped date and time of a document asks. Medians of 7 rounds.
 *
 *   node --import tsx bench/local-time.ts
 */
import { compactToEpochMs, offsetAt } from '../src/domain/time/local-time.js';
import { fmt, median, pinSelf, table, write } from './util.js';

const ZONE = 'Europe/Stockholm';
const START = Date.UTC(2026, 0, 1);
const INSTANTS = Array.from({ length: 2000 }, (_, i) => START + ((i * 7919) % 2000) * 3_600_000);
const COMPACTS = Array.from({ length: 2000 }, (_, i) =>
  `2026${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}0930${String(i % 60).padStart(2, '0')}`);

function perCallNs(inputs: readonly (number | string)[], call: (input: never) => number): number {
  const rounds = 200;
  let sink = 0;
  const start = performance.now();
  for (let r = 0; r < rounds; r++) for (const input of inputs) sink += call(input as never);
  if (Number.isNaN(sink)) throw new Error('not a number');
  return ((performance.now() - start) * 1e6) / (rounds * inputs.length);
}

export function runLocalTimeBench(): { offsetAtNs: number; compactToEpochMsNs: number } {
  const offsets: number[] = [];
  const compacts: number[] = [];
  for (let round = 0; round < 7; round++) {
    offsets.push(perCallNs(INSTANTS, (t: number) => offsetAt(t, ZONE)));
    compacts.push(perCallNs(COMPACTS, (c: string) => compactToEpochMs(c, ZONE)));
  }
  return { offsetAtNs: median(offsets), compactToEpochMsNs: median(compacts) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  pinSelf(0);
  const r = runLocalTimeBench();
  write(table(['ns per call', 'offsetAt', 'compactToEpochMs'], [['Europe/Stockholm', fmt(r.offsetAtNs), fmt(r.compactToEpochMsNs)]]));
}

/**
 * Issue 20 item 2: the XML reader on hostile documents of about 9 MiB (under the 10 MiB cap), each
 * shape that used to hold the event loop (test/adapters/ehr-xml/hostile-documents.ts, the same
 * documents the reader's slice test reads): MB/s of one synchronous read, and the longest
 * event-loop block while the document is read in slices as the service reads it, from bytes
 * (xml-http) and from one string (embedded EHR). Target: no block over 20 ms.
 *
 *   node --import tsx bench/hostile.ts [--json] [--rounds N]
 *
 * Pinned to core 0 when taskset exists. `--json` prints one JSON line for bench/run.ts (`--only hostile`).
 */
import { readFileSync } from 'node:fs';
import { DocumentPieces } from '../src/adapters/ehr-xml/document-pieces.js';
import { FastReader, firstPiece } from '../src/adapters/ehr-xml/fast-reader.js';
import { mapDocument, mapDocumentInSlices, SLICE_MS } from '../src/adapters/ehr-xml/index.js';
import { READINGS } from '../src/adapters/ehr-xml/map-document.js';
import { hostileDocuments } from '../test/adapters/ehr-xml/hostile-documents.js';
import { longestBlock } from './mapper.js';
import { fmt, median, pinSelf, table, write } from './util.js';

export interface HostileResult {
  name: string;
  bytes: number;
  outcome: string;
  /** One synchronous read (mapDocument) of the bytes, median over rounds. */
  syncMs: number;
  mbs: number;
  slicedFromBytesMaxMs: number;
  slicedFromTextMaxMs: number;
  /** The most CPU time one slice of the reader took (from bytes, process.cpuUsage, all rounds): its work, whatever else runs on the machine. */
  sliceCpuMaxMs: number;
}

const roundsAt = process.argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(process.argv[roundsAt + 1]) : 5;
const options = { zone: 'Europe/Stockholm' };

/** The reader itself, slice by slice as mapDocumentInSlices runs it: the most CPU time one slice took. */
async function sliceCpuMax(bytes: Buffer): Promise<number> {
  const { document } = READINGS.journalnotes;
  const ctx = { zone: options.zone, onDropped: () => undefined };
  let most = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const pieces = DocumentPieces.of(bytes);
    try {
      const reader = new FastReader(firstPiece(pieces), pieces, document.root, document.shape, ctx);
      for (;;) {
        const before = process.cpuUsage();
        const done = reader.run(performance.now() + SLICE_MS);
        const used = process.cpuUsage(before);
        most = Math.max(most, (used.user + used.system) / 1000);
        if (done) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch {
      // A refused document: its slices until then count.
    }
  }
  return most;
}

async function measure(name: string, xml: string): Promise<HostileResult> {
  const bytes = Buffer.from(xml);
  let outcome = '';
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    try {
      outcome = `${mapDocument('journalnotes', bytes, options).length} records`;
    } catch (err) {
      outcome = (err as Error).message.replace('malformed EHR document: ', 'refused: ');
    }
    times.push(performance.now() - start);
  }
  const swallow = (p: Promise<unknown>): Promise<unknown> => p.catch(() => undefined);
  const syncMs = median(times);
  return {
    name, bytes: bytes.length, outcome, syncMs, mbs: bytes.length / 1e6 / (syncMs / 1000),
    slicedFromBytesMaxMs: await longestBlock(() => swallow(mapDocumentInSlices('journalnotes', bytes, options)), ROUNDS),
    slicedFromTextMaxMs: await longestBlock(() => swallow(mapDocumentInSlices('journalnotes', xml, options)), ROUNDS),
    sliceCpuMaxMs: await sliceCpuMax(bytes),
  };
}

async function runHostileBench(): Promise<HostileResult[]> {
  const journal = readFileSync('test/fixtures/upstream/journalnotes.xml', 'utf8');
  const results: HostileResult[] = [];
  for (const shape of hostileDocuments(journal, 9 * 1024 * 1024)) results.push(await measure(shape.name, shape.xml));
  return results;
}

export const hostileTable = (results: readonly HostileResult[]): string => table(
  ['~9 MiB journal with', 'bytes', 'outcome', 'one read: ms (MB/s)', 'longest event-loop block in slices: from bytes / from text', 'most CPU in one slice'],
  results.map((r) => [
    r.name, fmt(r.bytes), r.outcome, `${fmt(r.syncMs, 0)} (${fmt(r.mbs, 1)})`, `${fmt(r.slicedFromBytesMaxMs, 1)} / ${fmt(r.slicedFromTextMaxMs, 1)} ms`,
    `${fmt(r.sliceCpuMaxMs, 1)} ms`,
  ]),
);

if (import.meta.url === `file://${process.argv[1]}`) {
  const isPinned = pinSelf(0);
  const results = await runHostileBench();
  if (process.argv.includes('--json')) {
    write(JSON.stringify(results));
  } else {
    write(`hostile documents (node ${process.version}${isPinned ? ', pinned to core 0' : ''})\n`);
    write(hostileTable(results));
  }
}

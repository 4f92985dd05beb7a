/**
 * Mapper micro-benchmark: MB/s of upstream XML translated to the API's records by `mapDocument`,
 * against `JSON.parse` of the equivalent JSON (the mapped records, stringified) in the same process,
 * on the demo patient's documents and the generated bench documents, beside two third-party parsers
 * reading the same documents (saxes and fast-xml-parser, bench/other-parsers.ts: issue 56 item 3
 * asks the reader for a good parser's speed). Also the longest single call on the 1 MB document, which is how
 * long a synchronous map of it would hold the event loop.
 *
 *   node --import tsx bench/mapper.ts [--json] [--seconds N]
 *
 * Pinned to core 0 when taskset exists. `--json` prints one JSON line for bench/run.ts.
 */
import { mapDocument, mapDocumentInSlices } from '../src/adapters/ehr-xml/index.js';
import type { DocumentKind } from '../src/adapters/ehr-xml/documents.js';
import { referenceMapDocument } from '../test/adapters/ehr-xml/reference/reference-engine.js';
import { BENCH_PATIENT, generateBenchFixtures, ZONE } from './fixtures.js';
import { mapperCases, type MapperCase } from './mapper-cases.js';
import { fastXmlParserRead, saxesRead } from './other-parsers.js';
import { fmt, median, percentile, pinSelf, table, write } from './util.js';

type Case = MapperCase;

export interface MapperResult {
  name: string;
  xmlBytes: number;
  jsonBytes: number;
  mapperMBs: number;
  /** The same document mapped from its UTF-8 bytes, as the xml-http adapter maps what the EHR sent. */
  mapperBytesMBs: number;
  jsonParseMBs: number;
  /** Issue 56 item 3: two third-party parsers on the same document, in the same process (bench/other-parsers.ts). */
  saxesMBs: number;
  fastXmlParserMBs: number;
  /** Mapper MB/s of XML over JSON.parse MB/s of JSON: the issue's throughput ratio. */
  throughputRatio: number;
  /** JSON.parse time over mapper time for the same document. */
  timeRatio: number;
  mapMsMedian: number;
  mapMsMax: number;
}

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const secondsArg = args.indexOf('--seconds');
const SECONDS = secondsArg >= 0 ? Number(args[secondsArg + 1]) : 1.5;
const ROUNDS = 5;

/** One round of `fn` for `ms`: its MB/s, and each call's ms added to `callMs`. */
function round(fn: () => unknown, bytes: number, ms: number, callMs: number[]): number {
  const until = performance.now() + ms;
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now < until) {
    fn();
    const t = performance.now();
    callMs.push(t - now);
    now = t;
    n++;
  }
  return (n * bytes) / ((now - start) / 1000) / 1e6;
}

/**
 * Median over rounds of (bytes processed / second) of each of `runs`, the runs taking turns round by
 * round (each round SECONDS/ROUNDS long), so a machine whose load changes during the bench slows
 * them alike and their ratios hold (issue 56 item 3: the reader beside saxes and fast-xml-parser).
 */
function throughputs(runs: readonly (readonly [fn: () => unknown, bytes: number])[]): { mbs: number; callMs: number[] }[] {
  for (const [fn] of runs) {
    const warmUntil = performance.now() + 300;
    while (performance.now() < warmUntil) fn();
  }
  const rates = runs.map((): number[] => []);
  const calls = runs.map((): number[] => []);
  for (let r = 0; r < ROUNDS; r++) {
    runs.forEach(([fn, bytes], i) => (rates[i] as number[]).push(round(fn, bytes, (SECONDS * 1000) / ROUNDS, calls[i] as number[])));
  }
  return runs.map((_, i) => ({ mbs: median(rates[i] as number[]), callMs: calls[i] as number[] }));
}

function measure(c: Case): MapperResult {
  const map = (): unknown => mapDocument(c.kind, c.xml, { zone: ZONE, expectedPatientId: c.patient });
  const json = JSON.stringify(map());
  const xmlBytes = Buffer.byteLength(c.xml);
  const jsonBytes = Buffer.byteLength(json);
  const bytes = Buffer.from(c.xml, 'utf8');
  const fromBytes = (): unknown => mapDocument(c.kind, bytes, { zone: ZONE, expectedPatientId: c.patient });
  const [mapper, parse, saxes, fxp, mapperBytes] = throughputs([
    [map, xmlBytes], [() => JSON.parse(json), jsonBytes], [() => saxesRead(c.xml), xmlBytes], [() => fastXmlParserRead(c.xml), xmlBytes],
    [fromBytes, xmlBytes],
  ]) as [{ mbs: number; callMs: number[] }, { mbs: number }, { mbs: number }, { mbs: number }, { mbs: number }];
  const sorted = [...mapper.callMs].sort((a, b) => a - b);
  return {
    name: c.name,
    xmlBytes,
    jsonBytes,
    mapperMBs: mapper.mbs,
    mapperBytesMBs: mapperBytes.mbs,
    jsonParseMBs: parse.mbs,
    saxesMBs: saxes.mbs,
    fastXmlParserMBs: fxp.mbs,
    throughputRatio: mapper.mbs / parse.mbs,
    timeRatio: (mapper.mbs / xmlBytes) / (parse.mbs / jsonBytes),
    mapMsMedian: percentile(sorted, 50),
    mapMsMax: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export interface BlockingResult {
  /** Longest stretch without a turn of the event loop while mapping the 1 MB document, in ms. */
  syncMaxMs: number;
  slicedMaxMs: number;
  /** The tests' differential oracle (saxes, fast-xml-parser, walk) on the same document: MB/s and ms per call. */
  referenceMBs: number;
  referenceMs: number;
  /** Issue 12 item 5: the longest block while a ~4 MB journal with each construct is read from bytes in slices. */
  constructs: { name: string; bytes: number; outcome: string; slicedMaxMs: number }[];
  /** Issues 13 and 23: the same two blocks for the ~1 MB mirror documents (care contacts, lab results, diagnoses). */
  mirrors?: { name: string; syncMaxMs: number; slicedMaxMs: number }[];
}

/** Constructs read by the reader itself (in every extract), and ones it refuses (in the last extract, so all is read first). */
const CONSTRUCTS: [name: string, construct: string, everywhere: boolean][] = [
  ['&nbsp; (refused)', '<Unknown>a&nbsp;b</Unknown>', false],
  ['&#X41; (refused)', '<Unknown>&#X41;</Unknown>', false],
  ['a processing instruction', '<?vendor-hint keep="yes"?>', true],
  ['a non-ASCII element name', '<Läkemedelsnotering>Åter om två veckor</Läkemedelsnotering>', true],
  ['40 attributes on an element', `<Unknown ${Array.from({ length: 40 }, (_, i) => `a${i}="${i}"`).join(' ')}/>`, true],
];

/** The 1 MB journal four times over (~4 MB), with `construct` after every extract's start tag, or only the last one's. */
function journalWith(xml: string, construct: string, everywhere: boolean): string {
  const from = xml.search(/<JournalNoteRecord[\s>]/);
  const to = xml.lastIndexOf('</JournalNoteRecords>');
  let doc = xml.slice(0, from) + xml.slice(from, to).repeat(4) + xml.slice(to);
  const open = '<JournalNoteEHRExtract>';
  if (everywhere) return doc.split(open).join(open + construct);
  const last = doc.lastIndexOf(open) + open.length;
  doc = doc.slice(0, last) + construct + doc.slice(last);
  return doc;
}

/** The longest gap between two event-loop turns while `run` is in progress (median over rounds). */
export async function longestBlock(run: () => Promise<unknown>, rounds = 9): Promise<number> {
  const gaps: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let last = performance.now();
    let longest = 0;
    let ticking = true;
    const tick = (): void => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await run();
    ticking = false;
    longest = Math.max(longest, performance.now() - last);
    gaps.push(longest);
    await new Promise((r) => setImmediate(r));
  }
  return median(gaps);
}

async function measureBlocking(xml: string, largeMirrors: readonly (readonly [string, DocumentKind, string])[]): Promise<BlockingResult> {
  const options = { zone: ZONE, expectedPatientId: BENCH_PATIENT };
  const mirrors: NonNullable<BlockingResult['mirrors']> = [];
  for (const [name, kind, mirrorXml] of largeMirrors) {
    mirrors.push({
      name,
      syncMaxMs: await longestBlock(async () => mapDocument(kind, mirrorXml, options)),
      slicedMaxMs: await longestBlock(() => mapDocumentInSlices(kind, Buffer.from(mirrorXml), options)),
    });
  }
  const syncMaxMs = await longestBlock(async () => mapDocument('journalnotes', xml, options));
  const slicedMaxMs = await longestBlock(() => mapDocumentInSlices('journalnotes', xml, options));
  const [reference] = throughputs([[() => referenceMapDocument('journalnotes', xml, options), Buffer.byteLength(xml)]]) as [{ mbs: number; callMs: number[] }];
  const constructs: BlockingResult['constructs'] = [];
  for (const [name, construct, everywhere] of CONSTRUCTS) {
    const bytes = Buffer.from(journalWith(xml, construct, everywhere));
    let outcome = '';
    const max = await longestBlock(() => mapDocumentInSlices('journalnotes', bytes, options).then(
      (r) => (outcome = `${r.length} records`), (e: Error) => (outcome = e.message.replace('malformed EHR document: ', 'refused: '))));
    constructs.push({ name, bytes: bytes.length, outcome, slicedMaxMs: max });
  }
  return {
    syncMaxMs, slicedMaxMs, referenceMBs: reference.mbs, referenceMs: percentile([...reference.callMs].sort((a, b) => a - b), 50), constructs,
    mirrors,
  };
}

export async function runMapperBench(): Promise<{ results: MapperResult[]; blocking: BlockingResult }> {
  const f = await generateBenchFixtures();
  const cases = mapperCases(f);
  const largeMirrors = [
    ['care contacts', 'contacts', f.mirror.contactsLargeXml],
    ['lab results', 'labresults', f.mirror.labLargeXml],
    ['diagnoses', 'diagnoses', f.mirror.diagnosesLargeXml],
  ] as const;
  return { results: cases.map(measure), blocking: await measureBlocking(f.largeXml, largeMirrors) };
}

export const blockingTable = (b: BlockingResult): string => `${table(
  ['1 MB journal notes', 'value'],
  [
    ['longest event-loop block, mapDocument (one call)', `${fmt(b.syncMaxMs, 1)} ms`],
    ['longest event-loop block, mapDocumentInSlices', `${fmt(b.slicedMaxMs, 1)} ms`],
    ...(b.mirrors ?? []).map((m) => [`1 MB ${m.name} (mirror): longest block, one call / in slices from bytes`, `${fmt(m.syncMaxMs, 1)} / ${fmt(m.slicedMaxMs, 1)} ms`]),
    ['test oracle (saxes + fast-xml-parser + walk), same document', `${fmt(b.referenceMBs, 1)} MB/s, ${fmt(b.referenceMs, 1)} ms per call`],
  ],
)}\n\n${table(
  ['~4 MB journal (bytes, in slices) with', 'bytes', 'outcome', 'longest event-loop block'],
  b.constructs.map((c) => [c.name, fmt(c.bytes), c.outcome, `${fmt(c.slicedMaxMs, 1)} ms`]),
)}`;

export function mapperTable(results: readonly MapperResult[]): string {
  return table(
    ['document', 'XML bytes', 'mapper MB/s (XML)', 'from bytes MB/s', 'saxes MB/s', 'fast-xml-parser MB/s', 'mapper / saxes / fast-xml-parser', 'JSON bytes', 'JSON.parse MB/s', 'throughput ratio', 'time ratio', 'map ms median / max'],
    results.map((r) => [
      r.name, fmt(r.xmlBytes), fmt(r.mapperMBs, 1), fmt(r.mapperBytesMBs, 1), fmt(r.saxesMBs, 1), fmt(r.fastXmlParserMBs, 1),
      `${fmt(r.mapperMBs / r.saxesMBs, 2)}× / ${fmt(r.mapperMBs / r.fastXmlParserMBs, 1)}×`,
      fmt(r.jsonBytes), fmt(r.jsonParseMBs, 1),
      `${fmt(r.throughputRatio * 100, 0)} %`, `${fmt(r.timeRatio * 100, 0)} %`,
      `${fmt(r.mapMsMedian, 2)} / ${fmt(r.mapMsMax, 2)}`,
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const isPinned = pinSelf(0);
  const { results, blocking } = await runMapperBench();
  if (asJson) {
    write(JSON.stringify({ pinned: isPinned, results, blocking }));
  } else {
    write(`mapper micro-benchmark (node ${process.version}${isPinned ? ', pinned to core 0' : ''})\n`);
    write(mapperTable(results));
    write('');
    write(blockingTable(blocking));
  }
}

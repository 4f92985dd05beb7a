/**
 * What reading a FHIR answer's JSON costs (src/adapters/ehr-fhir/fhir-json.ts): `parseFhirJson` beside
 * JSON.parse with the decimal-keeping reviver on every answer (as every answer was read before the
 * reviver was spared where no number needs it) and JSON.parse alone, on the demo bundle (its numbers
 * all written as JavaScript writes them) and on ~1 MiB search pages of its Conditions, Procedures and
 * Observations, once with whole values written `5.0` (the reviver is needed) and once as `5`; and a
 * string of 1 MiB that reads like numbers (`,1,1…`).
 * Alternating rounds, medians.
 *
 *   node --import tsx bench/fhir-json.ts [--json]
 */
import { readFileSync } from 'node:fs';
import { parseFhirJson } from '../src/adapters/ehr-fhir/fhir-json.js';
import { FHIR_FIXTURES } from '../test/adapters/ehr-fhir/support/demo-bundle.js';
import { conditionPage, MIB } from '../test/adapters/ehr-fhir/support/large-page.js';
import { fmt, median, pinSelf, table, write } from './util.js';

export interface FhirJsonRow { name: string; bytes: number; fhirJsonUs: number; reviverUs: number; plainUs: number }

/** The reviver parseFhirJson had every answer read with: each number's source noted where it differs from JavaScript's. */
function withReviver(text: string): unknown {
  const noted = new WeakMap<object, Map<string, string>>();
  return JSON.parse(text, function (this: object, key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && context?.source !== undefined && context.source !== String(value)) {
      let sources = noted.get(this);
      if (sources === undefined) noted.set(this, sources = new Map());
      sources.set(key, context.source);
    }
    return value;
  } as (key: string, value: unknown) => unknown);
}

function perParseUs(text: string, parse: (text: string) => unknown): number {
  const n = Math.max(20, Math.round(20e6 / text.length));
  const start = performance.now();
  for (let i = 0; i < n; i++) parse(text);
  return ((performance.now() - start) * 1000) / n;
}

export function runFhirJsonBench(): FhirJsonRow[] {
  const decimals = conditionPage(MIB);
  const documents = [
    { name: 'demo bundle', text: readFileSync(new URL('demo-bundle.json', FHIR_FIXTURES), 'utf8') },
    { name: '~1 MiB page, whole values as `5`', text: decimals.replace(/"value":(\d+)\.0([,}])/g, '"value":$1$2') },
    { name: '~1 MiB page, whole values as `5.0`', text: decimals },
    // A string that reads like numbers everywhere: a search for numbers must step over it.
    { name: 'a 1 MiB string of `,1,1…`', text: `{"resourceType":"Bundle","text":"${',1'.repeat(MIB / 2)}"}` },
  ];
  return documents.map(({ name, text }) => {
    const rounds = { fhirJsonUs: [] as number[], reviverUs: [] as number[], plainUs: [] as number[] };
    for (let round = 0; round < 7; round++) {
      rounds.fhirJsonUs.push(perParseUs(text, parseFhirJson));
      rounds.reviverUs.push(perParseUs(text, withReviver));
      rounds.plainUs.push(perParseUs(text, (t) => JSON.parse(t)));
    }
    return { name, bytes: Buffer.byteLength(text), fhirJsonUs: median(rounds.fhirJsonUs), reviverUs: median(rounds.reviverUs), plainUs: median(rounds.plainUs) };
  });
}

export const fhirJsonTable = (rows: readonly FhirJsonRow[]): string => table(
  ['document', 'bytes', 'parseFhirJson µs', 'the reviver on every answer µs', 'JSON.parse alone µs'],
  rows.map((r) => [r.name, fmt(r.bytes), fmt(r.fhirJsonUs), fmt(r.reviverUs), fmt(r.plainUs)]),
);

if (import.meta.url === `file://${process.argv[1]}`) {
  pinSelf(0);
  const rows = runFhirJsonBench();
  if (process.argv.includes('--json')) write(JSON.stringify(rows));
  else write(fhirJsonTable(rows));
}

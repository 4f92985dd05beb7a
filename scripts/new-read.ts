// `npm run new-read -- <name> [--sv "Svenskt namn"] [--en "English name"] [--mirror <Root>]`: scaffolds a
// read of patient records at {base}/patients/<name>/ in one new folder, src/reads/<name>/, and registers
// it with one line in src/reads/index.ts and one in src/reads/sources.ts (docs/architecture.md#adding-a-read);
// its oracles.ts holds the facts the tests check it by, none yet.
// With --mirror, the read is served from the legacy document <Root>, a mirror of its container answer:
// the answer, the extracts policy, the mirror reading (and its oracles: the reading and the times), a
// demo document, the upstream example test/fixtures/upstream/<document>.xml and the folder's xml.test.ts.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { OPERATIONS } from '../src/domain/operations/table.js';
import {
  mirrorAnswerTs, mirrorDemoTs, mirrorDemoXmlTs, mirrorExampleXml, mirrorNamesOf, mirrorOperationTs, mirrorOracles, mirrorSourcesTs,
  mirrorUpstreamMd, mirrorXmlTestTs,
} from './new-read/mirror-templates.js';
import { answerTs, namesOf, operationTestTs, operationTs, oraclesTs, readmeMd, sourcesTs, type ReadNames } from './new-read/templates.js';

const READS = new URL('../src/reads/', import.meta.url);
const EXAMPLES = new URL('../test/fixtures/upstream/', import.meta.url);
// Letters only: the scope's resource (`user/CarePlans-read`) is letters, as the start's check of every scope asks.
const NAME = /^[a-z]+(-[a-z]+)*$/;
const ROOT = /^[A-Z][A-Za-z0-9]*s$/;

function fail(message: string): never {
  console.error(`new-read: ${message}`);
  process.exit(2);
}

/** What already holds one of the new read's names: its folder, operation, path or scope. */
function clash(n: ReadNames): string | undefined {
  if (existsSync(new URL(`${n.name}/`, READS))) return `src/reads/${n.name}/ exists already`;
  for (const [name, op] of Object.entries(OPERATIONS)) {
    if (name === n.operation) return `the operation ${name} exists already`;
    if (op.path === `/patients/${n.name}/`) return `${name} answers at /patients/${n.name}/ already`;
    if (op.scope.name === `user/${n.pascal}-read`) return `${name} has the scope user/${n.pascal}-read already`;
  }
  return undefined;
}

/** Adds `line` to a registry of one `export { … } from …` line per read, keeping them sorted. */
async function register(file: string, line: string): Promise<void> {
  const url = new URL(file, READS);
  const text = await readFile(url, 'utf8');
  const lines = text.trimEnd().split('\n');
  const first = lines.findIndex((l) => l.startsWith('export {'));
  const exports = [...lines.slice(first), line].sort();
  await writeFile(url, `${[...lines.slice(0, first), ...exports].join('\n')}\n`);
}

const { positionals, values } = parseArgs({
  allowPositionals: true, options: { sv: { type: 'string' }, en: { type: 'string' }, mirror: { type: 'string' } },
});
const [name] = positionals;
if (positionals.length !== 1 || name === undefined) fail('give one name, e.g. npm run new-read -- referrals --sv Remisser');
if (!NAME.test(name) || name.length > 40) fail(`${JSON.stringify(name)} is not a name: lower-case words of letters joined by "-", e.g. referrals or care-plans`);
const names = namesOf(name, values.sv, values.en);
const taken = clash(names);
if (taken !== undefined) fail(taken);

if (values.mirror !== undefined && !ROOT.test(values.mirror)) {
  fail(`--mirror ${JSON.stringify(values.mirror)} is not a root element: the document's plural root, e.g. --mirror CarePlanEHRExtracts`);
}
const mirror = values.mirror === undefined ? undefined : mirrorNamesOf(name, values.mirror);
if (mirror !== undefined && existsSync(new URL(`${mirror.kind}.xml`, EXAMPLES))) fail(`test/fixtures/upstream/${mirror.kind}.xml exists already`);

const folder = new URL(`${name}/`, READS);
await mkdir(folder);
const files: Record<string, string> = {
  'answer.ts': mirror === undefined ? answerTs(names) : mirrorAnswerTs(names, mirror),
  'operation.ts': mirror === undefined ? operationTs(names) : mirrorOperationTs(names, mirror),
  'sources.ts': mirror === undefined ? sourcesTs(names) : mirrorSourcesTs(names, mirror),
  'example.json': '[]\n',
  'operation.test.ts': operationTestTs(names),
  'oracles.ts': oraclesTs(names, mirror === undefined ? '' : mirrorOracles(mirror)),
  'README.md': readmeMd(names, mirror === undefined ? undefined : mirrorUpstreamMd(mirror)),
  ...(mirror === undefined ? {} : {
    'demo.ts': mirrorDemoTs(names),
    'demo-xml.ts': mirrorDemoXmlTs(names, mirror),
    'xml.test.ts': mirrorXmlTestTs(names, mirror),
  }),
};
for (const [file, text] of Object.entries(files)) await writeFile(new URL(file, folder), text);
if (mirror !== undefined) await writeFile(new URL(`${mirror.kind}.xml`, EXAMPLES), mirrorExampleXml(names, mirror));
await register('index.ts', `export { ${names.operation} } from './${name}/operation.js';`);
await register('sources.ts', `export { ${names.operation} } from './${name}/sources.js';`);
console.log(`src/reads/${name}/: ${Object.keys(files).join(', ')}; registered in src/reads/index.ts and src/reads/sources.ts.`);
if (mirror === undefined) {
  console.log(`GET /patients/${name}/ with scope user/${names.pascal}-read answers [] from every EHR until you fill it in:
docs/architecture.md#adding-a-read, from step 1 (the answer's schema in answer.ts).`);
} else {
  console.log(`test/fixtures/upstream/${mirror.kind}.xml: the upstream example, read by xml.test.ts.
GET /patients/${name}/ with scope user/${names.pascal}-read answers the legacy EHR's ${mirror.root}; over FHIR [] until step 3.
oracles.ts states how the document is read and which time its filter keeps an extract by; npm run typecheck
names each further fact it must state as the read grows: docs/architecture.md#adding-a-read, from step 1
(the extract's members in answer.ts).`);
}

// `npm run new-read -- <name> [--sv "Svenskt namn"] [--en "English name"] [--singular Word] [--mirror <Root>]`: scaffolds a
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
import { answerTs, namesOf, operationTestTs, operationTs, oraclesTs, readmeMd, scopeOf, sourcesTs, type ReadNames } from './new-read/templates.js';

const READS = new URL('../src/reads/', import.meta.url);
const EXAMPLES = new URL('../test/fixtures/upstream/', import.meta.url);
// Letters only: the scope's resource (`user/CarePlans-read`) is letters, as the start's check of every scope asks.
const NAME = /^[a-z]+(-[a-z]+)*$/;
const ROOT = /^[A-Z][A-Za-z0-9]*s$/;
const SINGULAR = /^[A-Z][a-z]*([A-Z][a-z]*)*$/;

const USAGE = `usage: npm run new-read -- <name> [options]

Scaffolds a read of patient records at GET /patients/<name>/ in one new folder, src/reads/<name>/, and
registers it by one line in src/reads/index.ts and one in src/reads/sources.ts
(docs/architecture.md#adding-a-read). It answers [] from every EHR until you fill it in.

  <name>              lower-case words of letters joined by "-", plural: referrals, care-plans
  --sv "Namn"         the access log's Swedish name (default: the English name)
  --en "Name"         the access log's English name (default: the name's words, e.g. "Care plans")
  --singular Word     one record's name, PascalCase, where the name's singular is irregular (default:
                      the regular singular, e.g. CarePlan): the scope user/<Word>-read and, with --mirror,
                      the namespace urn:example:ehr:<word>:1
  --mirror <Root>     served from the legacy document <Root> (plural, e.g. CarePlanEHRExtracts), a mirror
                      of its container answer: also the mirror reading, a demo document, the upstream
                      example test/fixtures/upstream/<document>.xml and its test
  -h, --help          this text

The defaults are the house's: the singular scope (user/CarePlan-read), error shape 2 ({error, path,
status, timestamp}) as every read beyond the spec answers, and a singular document namespace.`;

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
    if (op.scope.name === scopeOf(n)) return `${name} has the scope ${scopeOf(n)} already`;
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

const parse = () => parseArgs({
  allowPositionals: true,
  options: { sv: { type: 'string' }, en: { type: 'string' }, singular: { type: 'string' }, mirror: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
function parsed(): ReturnType<typeof parse> {
  try {
    return parse();
  } catch (err) {
    // An unknown option or one without its value: said in one line, with the usage, never a stack.
    return fail(`${(err as Error).message.split('\n')[0] ?? ''}\n\n${USAGE}`);
  }
}
const { positionals, values } = parsed();
if (values.help === true) {
  console.log(USAGE);
  process.exit(0);
}
const [name] = positionals;
if (positionals.length !== 1 || name === undefined) fail('give one name, e.g. npm run new-read -- referrals --sv Remisser');
if (!NAME.test(name) || name.length > 40) fail(`${JSON.stringify(name)} is not a name: lower-case words of letters joined by "-", e.g. referrals or care-plans`);
if (values.singular !== undefined && !SINGULAR.test(values.singular)) fail(`--singular ${JSON.stringify(values.singular)} is not a PascalCase word of letters, e.g. --singular Diagnosis`);
const names = namesOf(name, values.sv, values.en, values.singular);
const taken = clash(names);
if (taken !== undefined) fail(taken);

if (values.mirror !== undefined && !ROOT.test(values.mirror)) {
  fail(`--mirror ${JSON.stringify(values.mirror)} is not a root element: the document's plural root, e.g. --mirror CarePlanEHRExtracts`);
}
const mirror = values.mirror === undefined ? undefined : mirrorNamesOf(names, values.mirror);
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
  console.log(`GET /patients/${name}/ with scope ${scopeOf(names)} answers [] from every EHR until you fill it in:
docs/architecture.md#adding-a-read, from step 1 (the answer's schema in answer.ts).`);
} else {
  console.log(`test/fixtures/upstream/${mirror.kind}.xml: the upstream example, read by xml.test.ts.
GET /patients/${name}/ with scope ${scopeOf(names)} answers the legacy EHR's ${mirror.root}; over FHIR [] until step 3.
oracles.ts states how the document is read and which time its filter keeps an extract by; npm run typecheck
names each further fact it must state as the read grows: docs/architecture.md#adding-a-read, from step 1
(the extract's members in answer.ts).`);
}

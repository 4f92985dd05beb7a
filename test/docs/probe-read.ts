/**
 * Issue 43 item 11: a read filled in by docs/architecture.md#adding-a-read on top of
 * `npm run new-read -- <name> --mirror <Root>`, as an engineer fills one in: a mirror document with
 * demo records, a FHIR form of a new resource type (CarePlan) with its R4 search definitions, its
 * section of the patient summary (IPS's Plan of Care) and of the patient app, and a release rule. The scaffold test
 * applies it in a copy of the working tree, measures which files it changed, and compiles the result.
 * Every edit is in the read's folder, the facts the typecheck asks of it in its oracles.ts among them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MirrorNames } from '../../scripts/new-read/mirror-templates.js';
import type { ReadNames } from '../../scripts/new-read/templates.js';

/** Replaces `from` by `to` in a file of the copy; a missing anchor is a broken probe, not a skipped edit. */
async function edit(copy: string, file: string, from: string, to: string): Promise<void> {
  const full = path.join(copy, file);
  const text = await readFile(full, 'utf8');
  if (!text.includes(from)) throw new Error(`probe read: ${file} no longer holds ${JSON.stringify(from)}`);
  await writeFile(full, text.replace(from, to));
}

const resourceTypesTs = (n: ReadNames): string => `/** The FHIR resource type ${n.en.toLowerCase()} bring: CarePlan, its schema and search parameters. */
import { Type } from 'typebox';
import { codes, OptionalTime, ReferenceSchema, RESOURCE_BASE } from '../../domain/fhir/resources/datatypes.js';
import { SUBJECT, type ResourceTypeDeclarations, type SummarySection } from '../../domain/fhir/resources/resource-type.js';

/** IPS's Plan of Care: optional, each entry by its description. */
const PLAN_OF_CARE: SummarySection = {
  code: '18776-5', display: 'Plan of care note', title: 'Plan of Care', required: false, noneKnown: 'No care plans.', words: { sv: 'Vårdplaner', en: 'Care plans' }, position: 5,
  line: (r) => (typeof r.description === 'string' ? r.description : r.resourceType),
};

export const CarePlanSchema = Type.Object({
  resourceType: Type.Literal('CarePlan'),
  ...RESOURCE_BASE,
  status: codes('draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error', 'unknown'),
  intent: codes('proposal', 'plan', 'order', 'option'),
  subject: ReferenceSchema,
  created: OptionalTime,
  description: Type.Optional(Type.String()),
});

export const ${n.pascal.toUpperCase()}_TYPES = {
  CarePlan: { schema: CarePlanSchema, summary: PLAN_OF_CARE, search: { shared: { patient: 'clinical-patient' }, references: { ...SUBJECT } } },
} as const satisfies ResourceTypeDeclarations;
`;

const asFhirTs = (n: ReadNames, m: MirrorNames): string => `/** ${n.en} as FHIR CarePlans: one per extract, its text as written. */
import type { FhirForm, FhirResource } from '../as-fhir.js';
import { fhirDateTime } from '../as-fhir-common.js';

export const ${n.operation}AsFhir = {
  types: ['CarePlan'],
  app: { search: 'CarePlan?patient={id}', view: 'list', position: 60 },
  resources: (items, ctx) => items.flatMap((item) => item.${m.key}.map((e): FhirResource => ({
    resourceType: 'CarePlan',
    id: ctx.idOf('CarePlan', { root: e.ehrId?.root ?? ctx.idRoot, extension: \`\${e.ehrId?.extension ?? ''}:\${e.timeCreated?.value ?? ''}\` }),
    status: 'active',
    intent: 'plan',
    subject: { reference: ctx.patientReference },
    ...(e.timeCreated === undefined ? {} : { created: fhirDateTime(e.timeCreated, ctx.zone) }),
    ...(e.text === undefined ? {} : { description: e.text }),
  }))),
} satisfies FhirForm<'${n.operation}'>;
`;

/** The demo people's records: Tolvan's three (two in the past, one today), Märta's one. */
const DEMO_RECORDS = `{
  '191212121212': [
    { day: -40, time: '0930', text: 'Plan för rehabilitering efter knäoperation' },
    { day: -7, time: '1415', text: 'Uppföljning: träning två gånger i veckan & promenader' },
    { day: 0, time: '0805', text: 'Justerad plan <efter> besök' },
  ],
  '198112189876': [{ day: -12, time: '1000', text: 'Kostplan' }],
}`;

const FHIR_TO_FILL = `None yet. Steps 3 and 5 of [the recipe](../../../docs/architecture.md#adding-a-read) write here the
FHIR searches, how each resource maps to the answer ([the rules the mapping tables use](../../../docs/upstream-fhir.md#rules-the-mapping-tables-use))
and the resource types the service's own FHIR API serves it as.`;
const FHIR_MAPPING = `The service's own FHIR API serves each extract as a CarePlan (\`as-fhir.ts\`, the type declared in
\`resource-types.ts\`): \`status\` active, \`intent\` plan, \`subject\` the patient, \`created\` from
\`timeCreated\`, \`description\` the text exactly as written. No FHIR EHR serves the read (step 3).`;

/** Fills in the scaffolded read `n` in `copy`, in its folder only. */
export async function fillInProbe(copy: string, n: ReadNames, m: MirrorNames): Promise<void> {
  const folder = `src/reads/${n.name}`;
  const types = `${n.pascal.toUpperCase()}_TYPES`;
  await writeFile(path.join(copy, folder, 'resource-types.ts'), resourceTypesTs(n));
  await writeFile(path.join(copy, folder, 'as-fhir.ts'), asFhirTs(n, m));
  // Step 1: a release rule (a listed unit withholds an extract) and the FHIR type the read brings.
  await edit(copy, `${folder}/operation.ts`, "import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';",
    "import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';\nimport { byListedUnit } from '../../domain/release/active-rules.js';");
  await edit(copy, `${folder}/operation.ts`, "import EXAMPLE from './example.json' with { type: 'json' };",
    `import EXAMPLE from './example.json' with { type: 'json' };\nimport { ${types} } from './resource-types.js';`);
  await edit(copy, `${folder}/operation.ts`, '    vendorLayout: true,\n',
    '    vendorLayout: true,\n    release: (e, rules) => (byListedUnit(e, rules) ? { kept: undefined, withheld: 1 } : { kept: e, withheld: 0 }),\n');
  await edit(copy, `${folder}/operation.ts`, '  policy: extractsPolicy(', `  fhirTypes: ${types},\n  policy: extractsPolicy(`);
  // Step 4: the demo people's records.
  await edit(copy, `${folder}/demo-xml.ts`, 'const RECORDS: Readonly<Record<string, readonly DemoRecord[]>> = {};',
    `const RECORDS: Readonly<Record<string, readonly DemoRecord[]>> = ${DEMO_RECORDS};`);
  // Step 5: the FHIR form.
  await edit(copy, `${folder}/sources.ts`, '  asFhir: NOT_SERVED,', `  asFhir: ${n.operation}AsFhir,`);
  await edit(copy, `${folder}/sources.ts`, "import { NOT_SERVED, type ReadSources } from '../read-sources.js';",
    `import { NOT_SERVED, type ReadSources } from '../read-sources.js';\nimport { ${n.operation}AsFhir } from './as-fhir.js';`);
  // The read's own documentation: its FHIR form, in its folder.
  await edit(copy, `${folder}/README.md`, FHIR_TO_FILL, FHIR_MAPPING);
  // What the typecheck asks of the read's oracles once it has a release rule (step 1) and a FHIR form (step 5):
  // its paths, whether the example policy withholds anything of the demo people (none of its records has a
  // listed unit), and its resource types.
  await edit(copy, `${folder}/oracles.ts`, "  reading: 'mirror',\n",
    `  reading: 'mirror',\n  filteredPaths: ['/patients/${n.name}'],\n  withholds: false,\n  formTypes: ['CarePlan'],\n`);
}

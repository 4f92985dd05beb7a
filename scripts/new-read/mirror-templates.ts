/**
 * What `npm run new-read -- <name> --mirror <Root>` writes beyond the plain scaffold: a read whose
 * legacy document is a mirror of its answer (docs/upstream-ehr.md, "Mirror documents"), the vendor's
 * container layout (`[{ <extract>: [...] }]`) selected extract by extract. Steps 1, 2 and 4 of
 * docs/architecture.md#adding-a-read start from these files: the extract's members, the example's
 * traps, the demo people's records.
 */
import { quoted, scopeOf, type ReadNames } from './templates.js';

export interface MirrorNames {
  /** The document's root element: `CarePlanEHRExtracts`. */
  root: string;
  /** The container's member holding the extracts: `carePlanEHRExtract`. */
  key: string;
  /** The document's name in the EHR's paths and data folder: `careplans`. */
  kind: string;
  /** Singular, as every document's (`urn:example:ehr:labresult:2`): `urn:example:ehr:careplan:1`. */
  namespace: string;
}

export function mirrorNamesOf(n: Pick<ReadNames, 'name' | 'singular'>, root: string): MirrorNames {
  const single = root.replace(/s$/, '');
  const kind = n.name.replace(/-/g, '');
  return { root, key: single[0]!.toLowerCase() + single.slice(1), kind, namespace: `urn:example:ehr:${n.singular.toLowerCase()}:1` };
}

export const mirrorAnswerTs = (n: ReadNames, m: MirrorNames): string => `/**
 * ${n.en}: one item of the answer, the vendor's container layout: an array of one \`{ ${m.key}: [...] }\`
 * holding the patient's extracts, which the legacy document ${m.root} mirrors (docs/upstream-ehr.md,
 * "Mirror documents"). Step 1 of docs/architecture.md#adding-a-read: write the vendor's layout of one
 * extract here (docs/vendor-layouts.md), every member optional unless the EHR always sends it.
 */
import { Type, type Static } from 'typebox';
import { OptStr } from '../../domain/records/common.js';
import { OptBool, OptIiPlain, OptTsPlain } from '../../domain/records/vendor-types.js';

export const ${n.pascal}ExtractSchema = Type.Object({
  ehrId: OptIiPlain,
  /** When it was made, in the EHR's local time: what \`fromDateTime\`/\`toDateTime\` select on. */
  timeCreated: OptTsPlain,
  patient: Type.Optional(Type.Object({ patientID: OptIiPlain, patientProtectedId: OptBool })),
  /** The record's text, exactly as the EHR wrote it. */
  text: OptStr,
});

/** One element of the answer: every extract of the patient (filtered, oldest first). */
export const ${n.pascal}Schema = Type.Object({
  ${m.key}: Type.Array(${n.pascal}ExtractSchema),
}, { title: '${m.root}' });

export type ${n.pascal}Extract = Static<typeof ${n.pascal}ExtractSchema>;
export type ${n.pascal} = Static<typeof ${n.pascal}Schema>;
`;

export const mirrorOperationTs = (n: ReadNames, m: MirrorNames): string => `import { extractsPolicy } from '../../domain/read-policy/extracts-policy.js';
import { instantOf } from '../../domain/read-policy/time-selection.js';
import { EMPTY, INTERVAL, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import { ${n.pascal}Schema, type ${n.pascal}Extract } from './answer.js';
import EXAMPLE from './example.json' with { type: 'json' };

/** ${n.en}, extract by extract, filtered and sorted on when each was made (docs/architecture.md#adding-a-read). */
export const ${n.operation} = recordsRead({
  scope: { name: '${scopeOf(n)}', description: ${quoted(`Read ${n.en.toLowerCase()}`)} },
  displayName: { sv: ${quoted(n.sv)}, en: ${quoted(n.en)} },
  // Shape 2 ({error, path, status, timestamp}), as the vendor's reads beyond the spec answer (docs/contract.md#errors).
  errorShape: 'error',
  path: '/patients/${n.name}/',
  vendorPaths: [],
  query: TimeFilterQuery,
  answer: { item: ${n.pascal}Schema, schemaName: '${m.root}', example: EXAMPLE, bulk: '${m.key}' },
  // A read that shows journal content adds its release rule here (\`release\`, src/domain/release/).
  policy: extractsPolicy('${m.key}', {
    instant: (e: ${n.pascal}Extract, zone) => instantOf(e.timeCreated, zone),
    // When in doubt, protect: an extract that says so marks the whole answer.
    protectedMark: (e) => e.patient?.patientProtectedId,
    vendorLayout: true,
  }),
  docs: {
    tag: { name: ${quoted(n.en)}, description: ${quoted(`The patient's ${n.en.toLowerCase()}.`)} },
    summary: ${quoted(`List ${n.en.toLowerCase()}`)},
    description: \`The patient's ${n.en.toLowerCase().replace(/`/g, '')}, oldest first, filtered on when each was made. \${INTERVAL} \${EMPTY} \${WHO}\`,
    success: ${quoted(`The ${n.en.toLowerCase()}, oldest first.`)},
  },
});
`;

export const mirrorSourcesTs = (n: ReadNames, m: MirrorNames): string => `/**
 * Where each EHR gets ${n.operation} from (src/reads/read-sources.ts): the legacy EHR's ${m.root},
 * a mirror of the answer. Steps 3 and 5 of docs/architecture.md#adding-a-read replace the NOT_SERVED
 * FHIR plan and FHIR form.
 */
import { mirrorReading } from '../../adapters/ehr-xml/mirror-document.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import { NOT_SERVED, type ReadSources } from '../read-sources.js';
import { ${n.pascal}Schema } from './answer.js';

export const ${n.operation} = {
  xml: xmlDocument({
    path: '${m.kind}', namespace: '${m.namespace}', reading: mirrorReading('${m.root}', ${n.pascal}Schema),
    patients: (items) => items.flatMap((i) => i.${m.key}.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['${m.key}'], time: ['timeCreated'] }],
  }),
  fhir: NOT_SERVED,
  asFhir: NOT_SERVED,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'${n.operation}'>;
`;

/** What the oracles of a mirror read state from the start (step 2): its reading, and the time its filter keeps an extract by. */
export const mirrorOracles = (m: MirrorNames): string => `
  reading: 'mirror',
  times: (data) => data.flatMap((r) => r.${m.key}.map((e) => e.timeCreated?.value ?? '')),
`;

const camel = (n: ReadNames): string => n.pascal[0]!.toLowerCase() + n.pascal.slice(1);

export const mirrorDemoTs = (n: ReadNames): string => `/** The demo people's ${n.en.toLowerCase()} (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { ${camel(n)}Document } from './demo-xml.js';

export const demo = { xml: ${camel(n)}Document } satisfies ReadDemo;
`;

export const mirrorDemoXmlTs = (n: ReadNames, m: MirrorNames): string => `/** ${m.root} of one demo person (docs/upstream-ehr.md, "Mirror documents"), from RECORDS. */
import { dayAt, type DemoClock } from '../../dev/demo-data/clock.js';
import { EHR_ID_ROOT, extractPatient, id, tv, XSI } from '../../dev/demo-data/ix.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { el, tag, xmlDocument } from '../../dev/demo-data/xml.js';

interface DemoRecord {
  /** Days from today (negative: past) and the local time it was made, \`hhmm\`. */
  day: number;
  time: string;
  text: string;
}

/** The demo people's records, by identity number (step 4 of docs/architecture.md#adding-a-read fills it in). */
const RECORDS: Readonly<Record<string, readonly DemoRecord[]>> = {};

const extract = (person: DemoPerson, clock: DemoClock, r: DemoRecord): ReturnType<typeof el> => el('${m.key}',
  id('ehrId', \`TOLV:EhrId:\${person.id}\`, EHR_ID_ROOT),
  tv('timeCreated', dayAt(clock, r.day, r.time)),
  extractPatient('patient', person),
  el('text', r.text));

/** In the namespace \`sources.ts\` declares, which the demo data set hands it. */
export function ${camel(n)}Document(person: DemoPerson, clock: DemoClock, ns: string): string {
  const root = tag('${m.root}', { xmlns: ns, 'xmlns:xsi': XSI },
    (RECORDS[person.id] ?? []).map((r) => extract(person, clock, r)));
  return xmlDocument(root, \`GET /ehr/v1/patients/\${person.id}/${m.kind} (synthetic demo data, generated for \${clock.today}).\`);
}
`;

export const mirrorExampleXml = (n: ReadNames, m: MirrorNames): string => `<?xml version="1.0" encoding="UTF-8"?>
<!-- The project's ${n.en.toLowerCase()} mirror fixture: what GET /ehr/v1/patients/191212121212/${m.kind}
     answers, the vendor's layout written as XML (docs/upstream-ehr.md, "Mirror documents").
     Synthetic data. What it checks a consumer for (step 2 of docs/architecture.md#adding-a-read: list
     every trap the example sets):
     - extracts out of time order (sorted on timeCreated);
     - an element the layout does not name (priority), ignored;
     - text with an entity and with CDATA, kept exactly as written. -->
<${m.root} xmlns="${m.namespace}">
  <${m.key}>
    <ehrId extension="TOLV:EhrId:191212121212" root="1.2.752.99999.1.1"/>
    <timeCreated value="20250314093000"/>
    <patient>
      <patientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>
      <patientProtectedId>false</patientProtectedId>
    </patient>
    <priority>high</priority>
    <text>Later &amp; second</text>
  </${m.key}>
  <${m.key}>
    <ehrId extension="TOLV:EhrId:191212121212" root="1.2.752.99999.1.1"/>
    <timeCreated value="20250110080000"/>
    <patient>
      <patientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>
      <patientProtectedId>false</patientProtectedId>
    </patient>
    <text><![CDATA[<earlier> & first]]></text>
  </${m.key}>
</${m.root}>
`;

export const mirrorXmlTestTs = (n: ReadNames, m: MirrorNames): string => `/**
 * The ${m.root} mirror document (test/fixtures/upstream/${m.kind}.xml) against the answer's layout,
 * every trap the example lists (step 2 of docs/architecture.md#adding-a-read).
 */
import { describe, expect, it } from 'vitest';
import { selectDocument } from '../../../test/support/document-reads.js';
import { example, mapExample, ZONE } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('${m.kind}');
const base = example('${m.kind}.xml');

describe('${m.root} example', () => {
  const answer = map(base);

  it('answers one element holding the extracts in document order, the text as written, the unknown element ignored', () => {
    expect(answer).toHaveLength(1);
    expect(answer[0]?.${m.key}.map((e) => e.text)).toEqual(['Later & second', '<earlier> & first']);
    expect(answer[0]?.${m.key}[0]).not.toHaveProperty('priority');
  });

  it('sorts on timeCreated and filters inclusively', () => {
    const sorted = selectDocument('${m.kind}', answer, {}, ZONE);
    expect(sorted[0]?.${m.key}.map((e) => e.timeCreated?.value)).toEqual(['20250110080000', '20250314093000']);
    const one = selectDocument('${m.kind}', answer, { from: '20250314093000', to: '20250314093000' }, ZONE);
    expect(one[0]?.${m.key}.map((e) => e.text)).toEqual(['Later & second']);
    expect(selectDocument('${m.kind}', answer, { from: '20300101000000' }, ZONE)).toEqual([]);
  });

  it('answers [] for an empty root', () => {
    expect(map('<${m.root} xmlns="${m.namespace}"/>')).toEqual([]);
  });
});
`;

/** What the read's README.md says of its upstream document. */
export const mirrorUpstreamMd = (m: MirrorNames): string => `The legacy EHR answers it with \`${m.root}\` (namespace \`${m.namespace}\`, document
\`${m.kind}\`), a mirror of the answer ([Mirror documents](../../../docs/upstream-ehr.md#mirror-documents-operations-5-6-7-11-and-12)):
each element becomes the member of the same name in \`answer.ts\`, the extracts under \`${m.key}\`.
The upstream example is \`test/fixtures/upstream/${m.kind}.xml\`, read by \`xml.test.ts\` here; its
opening comment lists the traps it sets.`;

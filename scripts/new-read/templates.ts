/**
 * The files `npm run new-read` writes into a new read's folder: a read that answers `[]` from every
 * EHR (its sources NOT_SERVED) until the engineer fills it in, in the order docs/architecture.md's
 * recipe gives (schema, XML reading, FHIR plan, demo data).
 */
export interface ReadNames {
  /** The folder and path segment: `referrals`. */
  name: string;
  /** `Referrals`: the schema's name and the operation's. */
  pascal: string;
  /** `Referral`: one record, as the house names a scope's resource (`user/LabResult-read`) and a document's namespace. */
  singular: string;
  /** `getReferrals`: the operation. */
  operation: string;
  /** The access log's names. */
  sv: string;
  en: string;
}

const words = (name: string): string[] => name.split('-');

const capitalised = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

/** A plural English word's singular by the regular rules (allergies, referrals, care-plans); an irregular one is given (--singular). */
export function singularOf(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The new read's names; `singular` (PascalCase) where the last word's singular is irregular (`Diagnosis`). */
export function namesOf(name: string, sv?: string, en?: string, singular?: string): ReadNames {
  const parts = words(name);
  const pascal = parts.map(capitalised).join('');
  const one = singular ?? [...parts.slice(0, -1), singularOf(parts.at(-1) ?? '')].map(capitalised).join('');
  const english = en ?? parts.join(' ').replace(/^./, (c) => c.toUpperCase());
  return { name, pascal, singular: one, operation: `get${pascal}`, sv: sv ?? english, en: english };
}

/** The scope the house would give the read: its record's singular, as every read's (`user/Appointment-read`). */
export const scopeOf = (n: ReadNames): string => `user/${n.singular}-read`;

export const quoted = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export const answerTs = (n: ReadNames): string => `/**
 * ${n.en}: one item of the answer. Step 1 of docs/architecture.md#adding-a-read: write the vendor's
 * layout here where it has one (docs/vendor-layouts.md), or the region's; every member optional
 * unless the EHR always sends it, and closed (additionalProperties: false).
 */
import { Type, type Static } from 'typebox';
import { OptTsPlain } from '../../domain/records/vendor-types.js';

export const ${n.pascal}Schema = Type.Object({
  /** When it was made, in the EHR's local time: what \`fromDateTime\`/\`toDateTime\` select on. */
  timeCreated: OptTsPlain,
  /** Set when the EHR marks the patient's identity protected. */
  patientProtectedId: Type.Optional(Type.Boolean()),
}, { title: '${n.pascal}', additionalProperties: false });

export type ${n.pascal} = Static<typeof ${n.pascal}Schema>;
`;

export const operationTs = (n: ReadNames): string => `import { select, instantOf } from '../../domain/read-policy/time-selection.js';
import { noContactDetails } from '../../domain/read-policy/read-policy.js';
import { EMPTY, INTERVAL, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import { ${n.pascal}Schema, type ${n.pascal} } from './answer.js';
import EXAMPLE from './example.json' with { type: 'json' };

/** ${n.en}, filtered and sorted on when each was made (docs/architecture.md#adding-a-read). */
export const ${n.operation} = recordsRead({
  scope: { name: '${scopeOf(n)}', description: ${quoted(`Read ${n.en.toLowerCase()}`)} },
  displayName: { sv: ${quoted(n.sv)}, en: ${quoted(n.en)} },
  // Shape 2 ({error, path, status, timestamp}), as the vendor's reads beyond the spec answer (docs/contract.md#errors).
  errorShape: 'error',
  path: '/patients/${n.name}/',
  vendorPaths: [],
  query: TimeFilterQuery,
  answer: { item: ${n.pascal}Schema, schemaName: '${n.pascal}', example: EXAMPLE },
  policy: {
    select: (items, bounds, zone) => select(items, (item: ${n.pascal}) => instantOf(item.timeCreated, zone), bounds),
    // When in doubt, protect: an item that says so marks the whole answer.
    marksProtectedIdentity: (items) => items.some((item) => item.patientProtectedId === true),
    withoutContactDetails: noContactDetails,
  },
  docs: {
    tag: { name: ${quoted(n.en)}, description: ${quoted(`The patient's ${n.en.toLowerCase()}.`)} },
    summary: ${quoted(`List ${n.en.toLowerCase()}`)},
    description: \`The patient's ${n.en.toLowerCase().replace(/`/g, '')}, oldest first, filtered on when each was made. \${INTERVAL} \${EMPTY} \${WHO}\`,
    success: ${quoted(`The ${n.en.toLowerCase()}, oldest first.`)},
  },
});
`;

export const sourcesTs = (n: ReadNames): string => `/**
 * Where each EHR gets ${n.operation} from (src/reads/read-sources.ts). NOT_SERVED: no EHR has it yet,
 * so the read answers [] after the patient check, and the FHIR API does not serve it. Steps 2 to 4 of
 * docs/architecture.md#adding-a-read replace each with the legacy EHR's document, the FHIR plan and
 * the read's FHIR form.
 */
import { NOT_SERVED, type ReadSources } from '../read-sources.js';

export const ${n.operation} = {
  xml: NOT_SERVED,
  fhir: NOT_SERVED,
  asFhir: NOT_SERVED,
} satisfies ReadSources<'${n.operation}'>;
`;

/**
 * The read's hand-kept test oracles (test/support/read-oracles.ts), `stated` as far as the scaffold
 * knows them: none for a read no EHR serves yet.
 */
export const oraclesTs = (n: ReadNames, stated = ''): string => `/**
 * The hand-kept facts of ${n.operation} that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import type { ReadOracles } from '../../../test/support/read-oracles.js';

export const ${n.operation} = {${stated}} satisfies ReadOracles<'${n.operation}'>;
`;

export const operationTestTs = (n: ReadNames): string => `/**
 * ${n.operation} end to end through the real app: its route, its scope, its audit record and its place
 * in the access log. What it answers is the business of the tests of steps 2–4
 * (docs/architecture.md#adding-a-read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';

const ADULT = '191212121212';

describe('${n.operation}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers an array, audited, with its scope; 403 without it', async () => {
    const url = '/patients/${n.name}/';
    const ok = await t.call({ method: 'GET', url, token: await t.personToken(ADULT, { scope: '${scopeOf(n)}' }) });
    expect(ok.statusCode).toBe(200);
    expect(Array.isArray(ok.json())).toBe(true);
    expect(t.audit.records.at(-1)).toMatchObject({ operation: '${n.operation}', patientId: ADULT, outcome: 'allowed' });
    const refused = await t.call({ method: 'GET', url, token: await t.personToken(ADULT, { scope: 'user/Patient-read' }) });
    expect(refused.statusCode).toBe(403);
  });
});
`;

/** The read's own documentation (docs/architecture.md#a-read-is-one-folder): its upstream document and FHIR mapping, to fill in. */
export const readmeMd = (n: ReadNames, upstream?: string): string => `# ${n.en}: \`${n.operation}\`

Everything about this read is in this folder ([A read is one folder](../../../docs/architecture.md#a-read-is-one-folder));
its operation entry, \`operation.ts\`, is what the API documents (\`/openapi.json\`).

## The upstream document

${upstream ?? `None yet: no EHR serves the read (\`sources.ts\` says \`NOT_SERVED\`). Step 2 of
[the recipe](../../../docs/architecture.md#adding-a-read) writes here the legacy EHR's document: its
root and namespace, each element and what it becomes, and the traps its upstream example sets.`}

## The FHIR mapping

None yet. Steps 3 and 5 of [the recipe](../../../docs/architecture.md#adding-a-read) write here the
FHIR searches, how each resource maps to the answer ([the rules the mapping tables use](../../../docs/upstream-fhir.md#rules-the-mapping-tables-use))
and the resource types the service's own FHIR API serves it as.
`;

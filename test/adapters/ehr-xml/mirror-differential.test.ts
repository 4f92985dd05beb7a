/**
 * Issue 13: the mirror reader (the one production engine, driven by shapes derived from the answer's
 * schema) against an independent oracle (saxes + fast-xml-parser + a walk of the schema itself,
 * mirror-oracle.ts): the same JSON, or both a refusal, for every mirror example, for documents
 * generated from the schemas, and for mutated examples.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { DOCUMENT_KINDS, DOCUMENTS, type DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import type { MirrorOrigin } from '../../../src/adapters/ehr-xml/mirror-document.js';
import { example, ZONE } from './fixtures.js';
import { Rng } from './generated-documents.js';
import { MirrorGenerator } from './mirror-generator.js';
import { oracleMirror, type Schema } from './mirror-oracle.js';
import { recipe, statedOf } from '../../support/read-oracles.js';
import { assertProperty } from '../../support/seeds.js';

interface Mirror { kind: DocumentKind; file: string; root: string; item: Schema; version?: string }

/** Every document read as a mirror of its answer's schema (mirrorReading keeps what it was made from). */
const MIRRORS: Mirror[] = DOCUMENT_KINDS.flatMap((kind) => {
  const origin = (DOCUMENTS[kind].reading as { mirror?: MirrorOrigin }).mirror;
  return origin === undefined ? [] : [{
    kind, file: `${kind}.xml`, root: origin.root, item: origin.item as Schema,
    ...(origin.versionMember === undefined ? {} : { version: origin.versionMember }),
  }];
});

it('finds the mirror documents of the documents table', () => {
  // How each document is read, as the read's folder states it by hand (`reading` of its oracles.ts), not read from the table.
  const stated = DOCUMENT_KINDS.filter((kind) => statedOf(DOCUMENTS[kind].read, 'reading') === 'mirror');
  expect(MIRRORS.map((m) => m.kind).sort(), recipe('reading')).toEqual(stated.sort());
  expect(MIRRORS.length).toBeGreaterThan(0);
});

type Outcome = { ok: true; json: unknown } | { ok: false };

function outcome(run: () => unknown): Outcome {
  try {
    // Through JSON, so key order and undefined members do not count, only the answer does.
    return { ok: true, json: JSON.parse(JSON.stringify(run())) as unknown };
  } catch (err) {
    if (err instanceof MalformedDocumentError) return { ok: false };
    throw err;
  }
}

/** The reader and the oracle on one document; true when both accepted it. */
function expectSame(m: Mirror, xml: string): boolean {
  const read = outcome(() => mapDocument(m.kind, xml, { zone: ZONE }));
  const oracle = outcome(() => oracleMirror(xml, m.root, m.item, m.version));
  expect(read, xml).toEqual(oracle);
  return read.ok;
}

describe('issue 13: the mirror reader and the oracle agree', () => {
  for (const m of MIRRORS) {
    it(`${m.kind}: on the example`, () => {
      expect(expectSame(m, example(m.file))).toBe(true);
    });

    it(`${m.kind}: on documents generated from the schema`, () => {
      const generator = new MirrorGenerator(new Rng(m.root.length * 104_729));
      let accepted = 0;
      const runs = 200;
      for (let i = 0; i < runs; i++) {
        if (expectSame(m, generator.document(m.root, m.item, m.version === undefined ? [] : [m.version]))) accepted++;
      }
      // Mostly valid documents: most must be read, and the refusals must be the deliberate faults.
      expect(accepted).toBeGreaterThan(runs / 2);
      expect(accepted).toBeLessThan(runs);
    });
  }
});

const SNIPPETS = [
  '<', '>', '&', '&amp;', '&nbsp;', '&#x41;', '<!-- c -->', '<![CDATA[x]]>', ' a="1"', ' a="1" a="2"', ' xsi:nil="true"',
  '<x/>', '</x>', 'true', 'false', ' value="20250230120000"', ' value=""', ' extension="1"', '<contactActive>true</contactActive>',
  '<Agent>a</Agent>', '<patientAddresses/>', 'é', ' ', '\n',
];

const mutation = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...SNIPPETS) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
);

function mutate(xml: string, ops: { op: 'insert' | 'delete'; at: number; text?: string; length?: number }[]): string {
  let s = xml;
  for (const m of ops) {
    const at = m.at % (s.length + 1);
    s = m.op === 'insert' ? s.slice(0, at) + (m.text ?? '') + s.slice(at) : s.slice(0, at) + s.slice(at + (m.length ?? 1));
  }
  return s;
}

describe('issue 13: mutated mirror examples: the reader answers as the oracle, accepted or refused', () => {
  for (const m of MIRRORS) {
    it(m.kind, async () => {
      const xml = example(m.file);
      await assertProperty(fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (ops) => {
        expectSame(m, mutate(xml, ops));
      }), { seeds: [20261122, 20261123, 20261124], numRuns: 200 });
    });
  }
});

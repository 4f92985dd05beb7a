/**
 * Issue 13: the mirror reader (the one production engine, driven by shapes derived from the answer's
 * schema) against an independent oracle (saxes + fast-xml-parser + a walk of the schema itself,
 * mirror-oracle.ts): the same JSON, or both a refusal, for every mirror example and for mutated examples
 * (documents generated from the schemas: mirror-generated.test.ts, which runs once).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { example } from './fixtures.js';
import { expectSame, MIRRORS } from './mirror-agreement.js';
import { assertProperty } from '../../support/seeds.js';

describe('issue 13: the mirror reader and the oracle agree', () => {
  for (const m of MIRRORS) {
    it(`${m.kind}: on the example`, () => {
      expect(expectSame(m, example(m.file))).toBe(true);
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

/**
 * Issue 13: the mirror reader and its oracle (mirror-agreement.ts) agree on documents generated from
 * each mirror document's schema, and every mirror document of the documents table is found. They read
 * no example, so they run once, not again on the shared contract's examples (vitest.config.ts,
 * EXAMPLE_FREE); mirror-differential.test.ts has the examples.
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS, DOCUMENTS } from '../../../src/adapters/ehr-xml/documents.js';
import { Rng } from './generated-documents.js';
import { expectSame, MIRRORS } from './mirror-agreement.js';
import { MirrorGenerator } from './mirror-generator.js';
import { recipe, statedOf } from '../../support/read-oracles.js';

it('finds the mirror documents of the documents table', () => {
  // How each document is read, as the read's folder states it by hand (`reading` of its oracles.ts), not read from the table.
  const stated = DOCUMENT_KINDS.filter((kind) => statedOf(DOCUMENTS[kind].read, 'reading') === 'mirror');
  expect(MIRRORS.map((m) => m.kind).sort(), recipe('reading')).toEqual(stated.sort());
  expect(MIRRORS.length).toBeGreaterThan(0);
});

describe('issue 13: the mirror reader and the oracle agree', () => {
  for (const m of MIRRORS) {
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

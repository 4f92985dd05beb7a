/**
 * The XML reader against its differential oracle (reference-agreement.ts), on documents that are no
 * upstream example: every demo person's, documents generated from each reading's shape, attack
 * documents, and the DTD pattern. They read no example, so they run once, not again on the shared
 * contract's examples (vitest.config.ts, EXAMPLE_FREE); fast-reader.test.ts has the examples.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDemoData, DEMO_PEOPLE } from '../../../src/dev/demo-data/generate.js';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { READINGS } from '../../../src/adapters/ehr-xml/map-document.js';
import { DTD_MARKUP, hasDtdMarkup } from '../../../src/adapters/ehr-xml/xml-text.js';
import { DocumentGenerator, Rng } from './generated-documents.js';
import { ZONE } from './fixtures.js';
import { expectSameAsReference, KINDS, options } from './reference-agreement.js';
import { assertProperty } from '../../support/seeds.js';

describe('the reader reads the demo documents itself, exactly as the reference engine', () => {
  it('every document of every demo person', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fast-reader-'));
    try {
      await generateDemoData(dir, { now: Date.UTC(2026, 10, 21, 8), zone: ZONE });
      for (const person of DEMO_PEOPLE) {
        for (const [kind, file] of KINDS) {
          const xml = await readFile(path.join(dir, 'patients', person.id, file), 'utf8').catch(() => undefined);
          if (xml !== undefined) expect(expectSameAsReference(kind, xml), `${person.id}/${file}`).toBe(true);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('generated documents', () => {
  for (const [kind] of KINDS) {
    it(`${kind}: the reader answers every one as the oracle does`, () => {
      const generator = new DocumentGenerator(new Rng(kind.length * 7919));
      const { root, shape } = READINGS[kind].document;
      let read = 0;
      const runs = 150;
      for (let i = 0; i < runs; i++) if (expectSameAsReference(kind, generator.document(root, shape))) read++;
      // The generator writes mostly valid documents: most of them must be accepted.
      expect(read).toBeGreaterThan(runs / 3);
    });
  }
});

describe('attack documents', () => {
  it('refuses deep nesting at the depth bound, without recursion', () => {
    const nested = `<CareContacts>${'<x>'.repeat(99_999)}${'</x>'.repeat(99_999)}</CareContacts>`;
    expect(() => mapDocument('contacts', nested.replace(/CareContacts/g, READINGS.contacts.document.root), options)).toThrow('not parseable XML');
  });

  it('refuses reserved names and pollutes nothing', () => {
    const root = READINGS.bookings.document.root;
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const xml = `<${root}><Booking><${name}><polluted>yes</polluted></${name}></Booking></${root}>`;
      expect(() => mapDocument('bookings', xml, options)).toThrow('not parseable XML');
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

describe('DTD refusal', () => {
  it('hasDtdMarkup is exactly the reference pattern', async () => {
    const piece = fc.constantFrom('<!', '<', '!', ' ', '\n', '\u00a0', '\u2028', '\uFEFF', 'DOCTYPE', 'doctype', 'DocType', 'ENTITY',
      'element', 'ATTLIST', 'notation', 'DOC', 'x', '<!--', '-->', 'ſ', 'K');
    await assertProperty(fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const s = pieces.join('');
      expect(hasDtdMarkup(s)).toBe(DTD_MARKUP.test(s));
    }), { seeds: [7, 8, 9], numRuns: 2000 });
  });
});


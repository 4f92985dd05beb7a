import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PIECE_BYTES } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { KeptTexts } from '../../../src/adapters/ehr-xml/kept-text.js';
import { example, PATIENT, ZONE } from './fixtures.js';

/** A full collection, so what is measured is what the mapped records hold and nothing else. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Heap bytes still in use after `make` returned, while what it returned is alive. */
function heldBy(make: () => unknown): number {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const held = make();
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  expect(held).toBeDefined();
  return after - before;
}

const EXTRACT = /<JournalNoteEHRExtract>[\s\S]*?<\/JournalNoteEHRExtract>/g;

/**
 * The example journal's extracts repeated `copies` times, each after a comment of `padding`
 * characters: the same records either way, in a document of many pieces. The en dash makes every
 * piece a string of two bytes per character, as ordinary Swedish clinical text does.
 */
function journal(copies: number, padding: number): string {
  const xml = example('journalnotes.xml');
  const extracts = xml.match(EXTRACT) ?? [];
  const first = xml.indexOf(extracts[0] as string);
  const last = xml.lastIndexOf(extracts.at(-1) as string) + (extracts.at(-1) as string).length;
  const comment = padding > 0 ? `<!-- ${'Anteckning – '.repeat(Math.ceil(padding / 13)).slice(0, padding)} -->` : '';
  const body = Array.from({ length: copies }, () => extracts.map((e) => comment + e).join('\n')).join('\n');
  return xml.slice(0, first) + body + xml.slice(last);
}

describe('KeptTexts', () => {
  it('gives back the very text it was given, short, repeated or long', () => {
    const kept = new KeptTexts();
    const piece = `x${'Dos: 1 tablett – vid behov, högst 4 per dygn. '.repeat(40)}y`;
    for (const [from, to] of [[1, 5], [1, 14], [1, 65], [1, 66], [3, piece.length - 1], [1, 14]] as const) {
      expect(kept.keep(piece.slice(from, to))).toBe(piece.slice(from, to));
    }
    expect(kept.keep('')).toBe('');
  });

  it('remembers a bounded number of values, and still keeps every one past the bound', () => {
    const kept = new KeptTexts();
    const values = Array.from({ length: 3000 }, (_, i) => `SE2321000016-${String(i).padStart(5, '0')}`);
    expect(values.map((v) => kept.keep(v))).toEqual(values);
    expect(values.map((v) => kept.keep(v))).toEqual(values);
  });
});

describe('the records of a document of many pieces', () => {
  it('hold their texts, not the pieces of the document they were read from', () => {
    const copies = 40;
    const padding = PIECE_BYTES;
    const plain = journal(copies, 0);
    const padded = journal(copies, padding);
    const map = (xml: string) => mapDocument('journalnotes', Buffer.from(xml), { zone: ZONE, expectedPatientId: PATIENT });
    expect(map(padded)).toEqual(map(plain));

    const paddingBytes = padded.length - plain.length;
    const least = (xml: string) => Math.min(heldBy(() => map(xml)), heldBy(() => map(xml)));
    const plainHeld = least(plain);
    const paddedHeld = least(padded);
    // The comments are never part of a record. Held through the records' texts, they would cost two
    // bytes per character (each piece has an en dash): about twice paddingBytes (5.1 MB) more. The
    // heap's own noise between two such measurements is a few hundred KB.
    expect(paddedHeld - plainHeld).toBeLessThan(paddingBytes / 2);
  });
});

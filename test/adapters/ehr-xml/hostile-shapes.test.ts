/**
 * Issue 20 item 2: the reader reads any document in linear time and pauses at least every piece of
 * text, whatever the document's shape. Measured by counting work, not time: the reader is run with
 * a deadline already past, so it stops at every pause point, and the text it was given between two
 * stops (the pieces it loaded) must stay within two pieces; every piece is loaded once.
 */
import { describe, expect, it, vi } from 'vitest';
import { DocumentPieces, PIECE_BYTES } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { FastReader, firstPiece } from '../../../src/adapters/ehr-xml/fast-reader.js';
import { mapDocument, READINGS } from '../../../src/adapters/ehr-xml/map-document.js';
import { example, ZONE } from './fixtures.js';
import { hostileDocuments } from './hostile-documents.js';

const journal = example('journalnotes.xml');
const { document } = READINGS.journalnotes;
const ctx = { zone: ZONE, onDropped: () => undefined };

/** Reads `input` stopping at every pause point: the most text loaded in one slice, the total loaded, and how often each piece was. */
function slices(input: string | Buffer): { most: number; total: number; loads: Map<number, number>; slices: number } {
  const pieces = DocumentPieces.of(input);
  const loads = new Map<number, number>();
  let loaded = 0;
  const read = pieces.read.bind(pieces);
  vi.spyOn(pieces, 'read').mockImplementation((k) => {
    const piece = read(k);
    loads.set(k, (loads.get(k) ?? 0) + 1);
    loaded += piece.text.length;
    return piece;
  });
  const reader = new FastReader(firstPiece(pieces), pieces, document.root, document.shape, ctx);
  let most = loaded;
  let total = loaded;
  let count = 1;
  loaded = 0;
  while (!reader.run(Number.NEGATIVE_INFINITY)) {
    most = Math.max(most, loaded);
    total += loaded;
    loaded = 0;
    count++;
  }
  most = Math.max(most, loaded);
  return { most, total: total + loaded, loads, slices: count };
}

describe('the reader on hostile shapes (issue 20 item 2)', () => {
  for (const shape of hostileDocuments(journal, 2 * 1024 * 1024)) {
    it(`${shape.name}: pauses at least every two pieces of text and reads each piece once`, () => {
      for (const input of [Buffer.from(shape.xml), shape.xml]) {
        const { most, total, loads, slices: count } = slices(input);
        expect(most).toBeLessThanOrEqual(2 * PIECE_BYTES);
        expect(total).toBe(shape.xml.length);
        expect([...loads.values()].every((n) => n === 1)).toBe(true);
        expect(count).toBeGreaterThan(shape.xml.length / (2 * PIECE_BYTES));
      }
      const records = mapDocument('journalnotes', Buffer.from(shape.xml), { zone: ZONE });
      expect(records.length).toBeGreaterThan(0);
      if (shape.templateName !== undefined) {
        expect(JSON.stringify(records)).toContain(JSON.stringify(shape.templateName));
      }
    });
  }
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentPieces, PIECE_BYTES } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { mapDocument, mapDocumentInSlices } from '../../../src/adapters/ehr-xml/index.js';
import { example, ZONE } from './fixtures.js';

const piecesOf = (p: DocumentPieces): string[] => Array.from({ length: p.count }, (_, k) => p.piece(k));

describe('DocumentPieces', () => {
  it('cuts bytes only before a `<`, and the pieces decoded one by one are the whole text, invalid UTF-8 included', () => {
    // Bytes of every kind: `<`, ASCII, lead and continuation bytes, and sequences cut short.
    const byte = fc.oneof(fc.constant(0x3c), fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }));
    fc.assert(fc.property(fc.array(byte, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (values, size) => {
      const bytes = Buffer.from(values);
      const pieces = DocumentPieces.fromBytes(bytes, size);
      const texts = piecesOf(pieces);
      expect(texts.join('')).toBe(bytes.toString('utf8'));
      expect(pieces.whole()).toBe(bytes.toString('utf8'));
      for (const t of texts.slice(1)) expect(t.startsWith('<')).toBe(true);
    }), { numRuns: 3000, seed: 20261121 });
  });

  it('keeps each piece near its size: the size, then up to the next `<`', () => {
    const bytes = Buffer.from(`<a>${'x'.repeat(100)}<b/>${'y'.repeat(10)}<c/></a>`);
    const texts = piecesOf(DocumentPieces.fromBytes(bytes, 10));
    expect(texts).toEqual([`<a>${'x'.repeat(100)}`, `<b/>${'y'.repeat(10)}`, '<c/></a>']);
  });

  it('leaves a string whole, and refuses a size that is not a positive integer', () => {
    expect(piecesOf(DocumentPieces.of('<a>é</a>'))).toEqual(['<a>é</a>']);
    expect(piecesOf(DocumentPieces.fromBytes(Buffer.alloc(0)))).toEqual(['']);
    expect(() => DocumentPieces.fromBytes(Buffer.from('<a/>'), 0)).toThrow(RangeError);
    expect(() => DocumentPieces.of('<a/>').piece(1)).toThrow(RangeError);
  });
});

describe('a large document from bytes', () => {
  // About 1 MB of journal: the size at which one string would be a large object to V8.
  const xml = example('journalnotes.xml');
  const at = xml.indexOf('</JournalNoteRecord>');
  const extract = /<JournalNoteEHRExtract>[\s\S]*?<\/JournalNoteEHRExtract>/.exec(xml)?.[0] ?? '';
  const large = `\uFEFF${xml.slice(0, at)}${extract.repeat(Math.ceil(1_000_000 / extract.length))}${xml.slice(at)}`.replace(/\n/g, '\r\n');
  const bytes = Buffer.from(large, 'utf8');

  it('is read in pieces well under 128 KiB each, to the same records as the one string', async () => {
    const pieces = DocumentPieces.of(bytes);
    expect(pieces.count).toBeGreaterThan(bytes.length / (2 * PIECE_BYTES));
    for (const t of piecesOf(pieces)) expect(t.length).toBeLessThan(PIECE_BYTES + 8 * 1024);
    const options = { zone: ZONE, expectedPatientId: undefined };
    const fromText = mapDocument('journalnotes', large, options);
    // The first record's own extract and its copies (the example's 3.1 extract carries its text: ~11 KB).
    expect(fromText[0]?.JournalNoteEHRExtract.length).toBe(1 + Math.ceil(1_000_000 / extract.length));
    await expect(mapDocumentInSlices('journalnotes', bytes, options, -1)).resolves.toEqual(fromText);
    expect(mapDocument('journalnotes', bytes, options)).toEqual(fromText);
  });

  it('refuses DTD markup anywhere in it, as the reference engine does for the one string', () => {
    const withDtd = Buffer.from(large.replace('</JournalNoteRecord>', '<!DOCTYPE x></JournalNoteRecord>'), 'utf8');
    expect(() => mapDocument('journalnotes', withDtd, { zone: ZONE })).toThrow(/DOCTYPE|DTD/i);
  });
});

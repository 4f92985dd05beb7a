import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutsAt, DocumentPieces, PIECE_BYTES, QUIET } from '../../../src/adapters/ehr-xml/document-pieces.js';
import { MalformedDocumentError, mapDocument, mapDocumentInSlices } from '../../../src/adapters/ehr-xml/index.js';
import { isWellFormed } from '../../../src/adapters/ehr-xml/xml-text.js';
import { example, ZONE } from './fixtures.js';
import { assertProperty } from '../../support/seeds.js';

const piecesOf = (p: DocumentPieces): string[] => Array.from({ length: p.count }, (_, k) => p.read(k).text);

describe('DocumentPieces', () => {
  it('cuts bytes only where the reader can go on, and the pieces decoded one by one are the whole text; bytes that are not UTF-8 are refused', async () => {
    // Bytes of every kind: `<`, `&`, `=`, CR, ASCII, lead and continuation bytes, and sequences cut short;
    // and UTF-8 text of every width, which the first seldom is.
    const byte = fc.oneof(fc.constantFrom(0x3c, 0x26, 0x3d, 0x0d), fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }));
    const anyBytes = fc.array(byte, { maxLength: 400 }).map((values) => Buffer.from(values));
    const char = fc.oneof(fc.constantFrom('<', '&', '=', '\r', 'a', 'å', '–', '\u{1F600}'), fc.string({ unit: 'binary', maxLength: 3 }));
    const utf8 = fc.array(char, { maxLength: 150 }).map((chars) => Buffer.from(chars.join(''), 'utf8'));
    await assertProperty(fc.property(fc.oneof(anyBytes, utf8), fc.integer({ min: 1, max: 40 }), (bytes, size) => {
      if (!isUtf8(bytes)) {
        expect(() => DocumentPieces.fromBytes(bytes, size)).toThrow(MalformedDocumentError);
        return;
      }
      const pieces = DocumentPieces.fromBytes(bytes, size);
      const texts = piecesOf(pieces);
      expect(texts.join('')).toBe(bytes.toString('utf8'));
      expect(pieces.whole()).toBe(bytes.toString('utf8'));
      const cuts = cutsAt(bytes.length, size, (i) => bytes[i] as number, (c) => c >= 0x80 && c < 0xc0);
      expect(cuts.length - 1).toBe(pieces.count);
      for (const at of cuts.slice(1, -1)) {
        const next = bytes[at] as number;
        if (next === 0x3c || next === 0x26) continue;
        // Elsewhere: QUIET bytes without `<`, `&` or `=` before it, not after a CR, not before a continuation byte.
        expect(bytes.subarray(Math.max(0, at - QUIET), at).some((b) => b === 0x3c || b === 0x26 || b === 0x3d)).toBe(false);
        expect([bytes[at - 1] === 0x0d, next >= 0x80 && next < 0xc0]).toEqual([false, false]);
      }
    }), { seeds: [20261121, 20261122, 20261123], numRuns: 3000 });
  });

  it('issue 56 item 3: pieces made from bytes hold no lone surrogate, whatever the bytes, so the reader spares that search', async () => {
    // Encoded surrogates (ED A0 80 to ED BF BF, CESU-8 pairs), lead bytes cut short, and any other byte: refused unless UTF-8.
    const surrogate = fc.tuple(fc.constant(0xed), fc.integer({ min: 0xa0, max: 0xbf }), fc.integer({ min: 0x80, max: 0xbf }));
    const run = fc.oneof(surrogate.map((b) => [...b]), fc.integer({ min: 0, max: 0xff }).map((b) => [b]));
    await assertProperty(fc.property(fc.array(run, { maxLength: 200 }), fc.integer({ min: 1, max: 40 }), (runs, size) => {
      const bytes = Buffer.from(runs.flat());
      if (!isUtf8(bytes)) {
        expect(() => DocumentPieces.fromBytes(bytes, size)).toThrow(MalformedDocumentError);
        return;
      }
      const pieces = DocumentPieces.fromBytes(bytes, size);
      expect(pieces.decoded).toBe(true);
      for (const piece of piecesOf(pieces)) expect(isWellFormed(piece)).toBe(true);
    }), { seeds: [20261126, 20261127], numRuns: 2000 });
    expect(DocumentPieces.fromText('<R>\ud800</R>').decoded).toBe(false);
  });

  it('keeps each piece near its size: the size, then up to the next `<` or the first place a long run may be cut', () => {
    const bytes = Buffer.from(`<a>${'x'.repeat(100)}<b/>${'y'.repeat(10)}<c/></a>`);
    const texts = piecesOf(DocumentPieces.fromBytes(bytes, 10));
    // The first cut in the run of x: QUIET bytes after the `<`.
    expect(texts).toEqual([`<a>${'x'.repeat(QUIET - 2)}`, 'x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10), `${'x'.repeat(8)}<b/>${'y'.repeat(10)}`, '<c/></a>']);
  });

  it('cuts long values, texts, comments, CDATA and whitespace in tags, and the reader reads them as the one piece', () => {
    const long = (s: string): string => s.repeat(Math.ceil(150 / s.length));
    const xml = example('journalnotes.xml');
    // At the first place only (the example has two contacts).
    const edit = (doc: string, from: string, to: string): string => doc.replace(from, to);
    const cases = [
      edit(xml, '<NoteTemplateName>Besöksanteckning läkare</NoteTemplateName>',
        `<NoteTemplateName>&#x20; ${long('Åter om två veckor &amp; ')}\t&#x41;  </NoteTemplateName>`),
      edit(xml, '<NoteTemplateName>Besöksanteckning läkare</NoteTemplateName>',
        `<NoteTemplateName>  <!--${long('a < b ')}--> ${long('text ')}<![CDATA[${long(' <cdata> ')}]]> ${long('end ')} </NoteTemplateName>`),
      edit(xml, '<HCMContact>', `<HCMContact><Unknown a="${long('värde\t&lt; ')}"${' '.repeat(200)}b='1'${' '.repeat(200)}/>`),
      edit(xml, '<HCMContact>', `<HCMContact${' '.repeat(200)}><?pi ${long('data ')}?>`),
      edit(xml, '</HCMContact>', `</HCMContact${' '.repeat(200)}>`),
      // Refused alike: a repeated attribute after a long value, a `<` inside one, `--` inside a comment.
      edit(xml, '<HCMContact>', `<HCMContact><Unknown a="${long('v ')}" b="${long('w ')}" a="x"/>`),
      edit(xml, '<HCMContact>', `<HCMContact><Unknown a="${long('v ')}<${long('w ')}"/>`),
      edit(xml, '<HCMContact>', `<HCMContact><!--${long('c ')}--${long('d ')}-->`),
    ];
    const options = { zone: ZONE };
    const outcome = (input: string | DocumentPieces): unknown => {
      try {
        return mapDocument('journalnotes', input, options);
      } catch (err) {
        return (err as Error).message;
      }
    };
    for (const doc of cases) {
      const whole = outcome(doc);
      const bytes = Buffer.from(doc);
      for (let size = 1; size <= 90; size += 7) {
        expect(outcome(DocumentPieces.fromBytes(bytes, size)), `${size}`).toEqual(whole);
        expect(outcome(DocumentPieces.fromText(doc, size)), `${size}`).toEqual(whole);
      }
    }
  });

  it('issue 56 item 3: gives the pieces of a text as copies of its slices, said to hold no lone surrogate only when they hold none', async () => {
    // Code units of every kind: markup, CR, ASCII, Latin-1, wider (an en dash), U+FFFD, both surrogate halves alone and paired.
    const unit = fc.oneof(
      fc.constantFrom('<', '&', '=', '\r', 'a', ' ', 'é', '\u2013', '\uFFFD', '\uD83D\uDE00', '\uD83D', '\uDE00', '\0', '\x1F', '\x7F', '\t', '\n', '\uFFFE'),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    await assertProperty(fc.property(fc.array(unit, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (units, size) => {
      const text = units.join('');
      const pieces = DocumentPieces.fromText(text, size);
      const cuts = cutsAt(text.length, size, (i) => text.charCodeAt(i), (c) => c >= 0xdc00 && c <= 0xdfff);
      expect(cuts.length - 1).toBe(pieces.count);
      for (let k = 0; k < pieces.count; k++) {
        const slice = text.slice(cuts[k], cuts[k + 1]);
        const piece = pieces.read(k);
        expect(piece.text).toBe(slice);
        if (!isWellFormed(slice)) expect(piece.noLoneSurrogate).toBe(false);
        // One byte a character: no surrogate at all, so the reader spares the search for one.
        if (pieces.count > 1 && !/[^\0-\xff]/.test(slice)) expect(piece.noLoneSurrogate).toBe(true);
      }
    }), { seeds: [20261127, 20261128], numRuns: 3000 });
  });

  it('issue 56 item 3: refuses a lone surrogate in any piece of a text, and reads a U+FFFD in one as the bytes do', () => {
    const xml = example('journalnotes.xml');
    const options = { zone: ZONE };
    const outcome = (input: string | Buffer | DocumentPieces): unknown => {
      try {
        return mapDocument('journalnotes', input, options);
      } catch (err) {
        return (err as Error).message;
      }
    };
    const withText = (text: string): string => xml.replace('<NoteTemplateName>Besöksanteckning läkare</NoteTemplateName>', `<NoteTemplateName>a${text}b</NoteTemplateName>`);
    for (const size of [1, 13, 97, 1000, xml.length]) {
      expect(outcome(DocumentPieces.fromText(withText('\uD800'), size)), `${size}`).toBe('malformed EHR document: not well-formed XML');
      expect(outcome(DocumentPieces.fromText(withText('\uDC00\u2013'), size)), `${size}`).toBe('malformed EHR document: not well-formed XML');
      // A forbidden control, in a piece of one byte a character and beside a wider character.
      expect(outcome(DocumentPieces.fromText(withText('\x01'), size)), `${size}`).toBe('malformed EHR document: not well-formed XML');
      expect(outcome(DocumentPieces.fromText(withText('\x1F\u2013'), size)), `${size}`).toBe('malformed EHR document: not well-formed XML');
      // A DTD before the surrogate in the same piece is refused for itself, as before.
      expect(outcome(DocumentPieces.fromText(withText('<!DOCTYPE x>\uD800'), size)), `${size}`).toMatch(/DTD|not well-formed/);
      const replaced = withText('\uFFFD\u2013');
      const mapped = outcome(DocumentPieces.fromText(replaced, size));
      expect(mapped, `${size}`).toEqual(outcome(replaced));
      expect(mapped, `${size}`).toEqual(outcome(Buffer.from(replaced)));
      expect(JSON.stringify(mapped)).toContain('a\uFFFD\u2013b');
    }
  });

  it('leaves a string whole, and refuses a size that is not a positive integer', () => {
    expect(piecesOf(DocumentPieces.of('<a>é</a>'))).toEqual(['<a>é</a>']);
    expect(piecesOf(DocumentPieces.fromBytes(Buffer.alloc(0)))).toEqual(['']);
    expect(() => DocumentPieces.fromBytes(Buffer.from('<a/>'), 0)).toThrow(RangeError);
    expect(() => DocumentPieces.of('<a/>').read(1)).toThrow(RangeError);
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

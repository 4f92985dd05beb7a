/**
 * A document whose text cannot be read as written is refused, never shown altered (hostile review
 * helper-213: H1 bytes that are not UTF-8 became U+FFFD; H2 a declared Latin-1 document was read as
 * UTF-8; H3 an element inside a journal value's text was dropped and the text around it joined).
 */
import { describe, expect, it } from 'vitest';
import { MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, PATIENT, ZONE } from './fixtures.js';

const SOCIAL = 'Bor ensam i lägenhet, hemtjänst två gånger dagligen. Dottern Märta hjälper till med inköp.';
const journal = example('journalnotes.xml');
const notes = (xml: string | Uint8Array) => mapDocument('journalnotes', xml, { zone: ZONE, expectedPatientId: PATIENT });
const recordsOf = (xml: string | Uint8Array) =>
  notes(xml).flatMap((records) => records.JournalNoteEHRExtract.flatMap((extract) => extract.Note?.Records.Record ?? []));
const valuesOf = (xml: string | Uint8Array): string[] => recordsOf(xml).flatMap((r) => r.Value.map((v) => v.$self ?? ''));

/** The journal's bytes with `bytes` in place of the social note's first letter. */
function withBytes(bytes: number[]): Buffer {
  const [before, after] = Buffer.from(journal, 'utf8').toString('latin1').split('Bor ensam') as [string, string];
  return Buffer.concat([Buffer.from(before, 'latin1'), Buffer.from(bytes), Buffer.from(`or ensam${after}`, 'latin1')]);
}

describe('text the service cannot read as written', () => {
  it('reads the journal from its UTF-8 bytes as from its text', () => {
    expect(valuesOf(Buffer.from(journal, 'utf8'))).toEqual(valuesOf(journal));
    expect(valuesOf(Buffer.from(journal, 'utf8'))).toContain(SOCIAL);
  });

  it.each([
    ['a byte no UTF-8 sequence starts with', [0xff]],
    ['Latin-1 ä', [0xe4]],
    ['an overlong encoding of <', [0xc0, 0xbc]],
    ['a surrogate encoded as in CESU-8', [0xed, 0xa0, 0x80]],
    ['a sequence cut short', [0xe2, 0x82]],
  ])('refuses bytes that are not UTF-8: %s', (_what, bytes) => {
    expect(() => notes(withBytes(bytes))).toThrow(MalformedDocumentError);
  });

  it.each(['ISO-8859-1', 'windows-1252', 'UTF-16', 'latin1'])('refuses a document that declares itself %s', (encoding) => {
    const declared = edit(journal, 'encoding="UTF-8"', `encoding="${encoding}"`);
    expect(() => notes(declared)).toThrow(MalformedDocumentError);
    expect(() => notes(Buffer.from(declared, 'utf8'))).toThrow(MalformedDocumentError);
  });

  it.each(['UTF-8', 'utf-8', 'Utf-8'])('reads a document that declares itself %s', (encoding) => {
    expect(valuesOf(edit(journal, 'encoding="UTF-8"', `encoding='${encoding}'`))).toContain(SOCIAL);
  });

  it('refuses an element inside the text of a journal value, which would drop its text', () => {
    const dose = (inner: string) => edit(journal, `<Value JournalValueType="Text">${SOCIAL}</Value>`, `<Value JournalValueType="Text">${inner}</Value>`);
    expect(() => notes(dose('Dos: <b>5</b> mg'))).toThrow(MalformedDocumentError);
    expect(() => notes(dose('<b>5 mg</b>'))).toThrow(MalformedDocumentError);
    expect(() => notes(dose('Dos: 5 mg<br/>'))).toThrow(MalformedDocumentError);
    // Markup written as text is text.
    expect(valuesOf(dose('Dos: &lt;b&gt;5&lt;/b&gt; mg'))).toContain('Dos: <b>5</b> mg');
  });

  // Hostile review helper-216, F8: xsi:nil on an element with text dropped the text. Failed before.
  it('refuses an element marked nil that holds text or elements, and reads one that is empty as absent', () => {
    const social = `<Value JournalValueType="Text">${SOCIAL}</Value>`;
    expect(() => notes(edit(journal, social, `<Value JournalValueType="Text" xsi:nil="true">${SOCIAL}</Value>`))).toThrow(MalformedDocumentError);
    expect(() => notes(edit(journal, '<Keyword>Social anamnes</Keyword>', '<Keyword xsi:nil="true">Social anamnes</Keyword>'))).toThrow(MalformedDocumentError);
    expect(() => notes(edit(journal, social, `<Value JournalValueType="Text" xsi:nil="true"><JournalValueType>Text</JournalValueType></Value>`))).toThrow(MalformedDocumentError);
    const empty = recordsOf(edit(journal, social, '<Value JournalValueType="Text" xsi:nil="true">  </Value>')).find((r) => r.Keyword === 'Social anamnes');
    expect(empty?.Value).toEqual([]);
  });

  it('still reads a 3.0 value, whose type is a child element and which has no text', () => {
    const old = recordsOf(journal).find((r) => r.Keyword === 'Sömn & vila');
    expect(old?.Value).toEqual([{ JournalValueType: 'Text' }]);
  });
});

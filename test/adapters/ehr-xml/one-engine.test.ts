/**
 * Issue 12 items 5 and 7: one XML engine in production. The reader handles every construct the
 * upstream format allows itself, in slices, refuses what is not well-formed XML itself, and refuses
 * prefixed attributes (other than xsi:nil and xmlns:*) and attributes repeated by local name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MalformedDocumentError, mapDocument, mapDocumentInSlices } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, ZONE } from './fixtures.js';

const options = { zone: ZONE };
const SRC = fileURLToPath(new URL('../../../src/adapters/', import.meta.url));

/** Throws exactly MalformedDocumentError(`reason`). */
const refused = (reason: string): MalformedDocumentError => new MalformedDocumentError(reason);

const FIRST_EXTRACT = '<PrescriptionEHRExtract>';
const medications = example('medications.xml');

/** The medications example with `construct` inside its first extract and that extract repeated to about 1 MB. */
function large(construct: string): string {
  const from = medications.indexOf(FIRST_EXTRACT);
  const to = medications.indexOf('</PrescriptionEHRExtract>', from) + '</PrescriptionEHRExtract>'.length;
  const extract = medications.slice(from, to);
  const repeats = Math.ceil(1_000_000 / extract.length);
  const first = extract.replace(FIRST_EXTRACT, FIRST_EXTRACT + construct);
  return medications.slice(0, from) + first + extract.repeat(repeats) + medications.slice(to);
}

/** Event-loop turns that ran while `run` read its document (the reader pauses at every check with a past deadline). */
async function turnsDuring(run: () => Promise<unknown>): Promise<{ turns: number; result: unknown }> {
  let turns = 0;
  let stop = false;
  const tick = (): void => {
    turns++;
    if (!stop) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await run();
    return { turns, result };
  } finally {
    stop = true;
  }
}

describe('issue 12 item 5: one XML engine in production', () => {
  it('issue 12 item 5: no production module imports fast-xml-parser or the reference parser (the simulator aside)', () => {
    const offenders: string[] = [];
    for (const dir of ['ehr-xml', 'ehr-xml-http', 'ehr-embedded']) {
      for (const file of readdirSync(path.join(SRC, dir), { recursive: true }) as string[]) {
        if (!file.endsWith('.ts')) continue;
        const text = readFileSync(path.join(SRC, dir, file), 'utf8');
        if (/from '(?:fast-xml-parser|saxes|[^']*xml-parser\.js)'/.test(text)) offenders.push(`${dir}/${file}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  const CONSTRUCTS: [string, string][] = [
    ['a processing instruction', '<?vendor-hint keep="yes"?>'],
    ['an unknown element with a non-ASCII name', '<Läkemedelsnotering>Åter om två veckor</Läkemedelsnotering>'],
    ['an element with 40 attributes', `<Unknown ${Array.from({ length: 40 }, (_, i) => `a${i}="${i}"`).join(' ')}/>`],
    ['non-ASCII attribute names', '<Unknown försök="1" ärende="2"/>'],
    ['a hex reference with a lower-case x and a decimal one', '<Unknown>&#xE5;&#229;</Unknown>'],
  ];

  for (const [name, construct] of CONSTRUCTS) {
    it(`issue 12 item 5: ${name} is read by the reader itself, in slices, to the same records`, async () => {
      const plain = mapDocument('medications', large(''), options);
      const xml = large(construct);
      const { turns, result } = await turnsDuring(() => mapDocumentInSlices('medications', xml, options, -1));
      expect(result).toEqual(plain);
      // About 1 MB read with a deadline always past: the reader pauses every 128 tags, so hundreds of turns.
      expect(turns).toBeGreaterThan(50);
    });
  }

  const REFUSED: [string, string][] = [
    ['an HTML entity (&nbsp;), which no DTD declares', '<Unknown>a&nbsp;b</Unknown>'],
    ['an undeclared entity', '<Unknown>&foo;</Unknown>'],
    ['an upper-case hex reference (&#X41;), which XML does not define', '<Unknown>&#X41;</Unknown>'],
    ['a reference to a character XML forbids', '<Unknown>&#0;</Unknown>'],
    ['a control character', '<Unknown>\u000b</Unknown>'],
    ['a control character in a comment', '<!-- \u0001 -->'],
    ['the non-character U+FFFE', '<Unknown>\ufffe</Unknown>'],
    ['the non-character U+FFFF in an attribute value', '<Unknown a="\uffff"/>'],
    ['a lone surrogate', '<Unknown>\ud800</Unknown>'],
    ['"]]>" in text', '<Unknown>a]]>b</Unknown>'],
    ['"--" inside a comment', '<!-- a -- b -->'],
    ['"<" in an attribute value', '<Unknown a="<"/>'],
    ['an XML declaration inside the document', '<?xml version="1.0"?>'],
    ['an element name with two colons', '<a:b:c/>'],
  ];

  for (const [name, construct] of REFUSED) {
    it(`issue 12 item 5: ${name} is not well-formed XML, refused`, async () => {
      const xml = edit(medications, FIRST_EXTRACT, FIRST_EXTRACT + construct);
      expect(() => mapDocument('medications', xml, options)).toThrow(refused('not well-formed XML'));
      await expect(mapDocumentInSlices('medications', large(construct), options, -1)).rejects.toThrow('not well-formed XML');
    });
  }
});

describe('issue 12 item 7: prefixed and repeated attributes', () => {
  const patient = example('patient.xml');
  const ID = '<PatientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>';

  it('issue 12 item 7: <PatientID extension="A" q:extension="B"> is refused, not read as B', () => {
    const xml = edit(patient, ID, '<PatientID extension="191212121212" q:extension="195507142478" root="1.2.752.129.2.1.3.1"/>');
    expect(() => mapDocument('patient', xml, options)).toThrow(refused('prefixed attribute'));
  });

  it('issue 12 item 7: any prefixed attribute other than xsi:nil and xmlns:* is refused, even on an unknown element', () => {
    for (const attribute of ['q:extension="B"', 'xml:lang="sv"', 'xsi:type="x"', 'a:b="1"']) {
      const xml = edit(patient, ID, `${ID}<Unknown ${attribute}/>`);
      expect(() => mapDocument('patient', xml, options), attribute).toThrow(refused('prefixed attribute'));
    }
  });

  it('issue 12 item 7: an attribute repeated by local name (nil and xsi:nil) is refused', () => {
    const xml = edit(patient, '<PatientAddressCO xsi:nil="true"/>', '<PatientAddressCO nil="false" xsi:nil="true"/>');
    expect(() => mapDocument('patient', xml, options)).toThrow(refused('repeated attribute'));
  });

  it('issue 12 item 7: xsi:nil and namespace declarations are still accepted', () => {
    const xml = edit(patient, ID, '<PatientID xmlns:q="urn:q" xmlns="urn:example:ehr:patient:3" extension="191212121212" root="1.2.752.129.2.1.3.1"/>');
    expect(mapDocument('patient', xml, options)).toEqual(mapDocument('patient', patient, options));
  });
});

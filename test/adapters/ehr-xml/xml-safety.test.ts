import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, PATIENT, ZONE } from './fixtures.js';

const contacts = (xml: string) => mapDocument('contacts', xml, { zone: ZONE });
const bookings = (xml: string) => mapDocument('bookings', xml, { zone: ZONE });

function malformedReason(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(MalformedDocumentError);
    return (err as Error).message;
  }
  throw new Error('expected MalformedDocumentError');
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<ContactEHRExtracts><contactEHRExtract><ContactId>&lol9;</ContactId></contactEHRExtract></ContactEHRExtracts>`;

describe('DTDs are refused before parsing', () => {
  it('refuses the billion laughs before parsing, without expanding it', () => {
    expect(malformedReason(() => contacts(BILLION_LAUGHS))).toContain('DTD markup is not accepted');
  });

  it('refuses DOCTYPE and ENTITY in any letter case, after a BOM, and external entities', () => {
    const docs = [
      '<!doctype ContactEHRExtracts><ContactEHRExtracts/>',
      '\uFEFF<?xml version="1.0"?><!DOCTYPE ContactEHRExtracts SYSTEM "file:///etc/passwd"><ContactEHRExtracts/>',
      '<ContactEHRExtracts><!-- <!EnTiTy x "y"> --></ContactEHRExtracts>',
      '<?xml version="1.0"?>\n<!DocType x [<!ELEMENT x ANY>]><ContactEHRExtracts/>',
    ];
    for (const doc of docs) expect(malformedReason(() => contacts(doc)), doc).toContain('DTD markup');
  });

  it('accepts a BOM before the declaration of an ordinary document', () => {
    expect(contacts(`\uFEFF${example('contacts.xml')}`)[0]?.contactEHRExtract).toHaveLength(5);
  });
});

describe('prototype pollution', () => {
  it('refuses __proto__, constructor and prototype element names and pollutes nothing', () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const xml = edit(example('bookings.xml'), '<Channel>1177</Channel>', `<${name}><polluted>yes</polluted></${name}>`);
      expect(malformedReason(() => bookings(xml))).toContain('not parseable XML');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('ignores a __proto__ attribute and keeps Object.prototype clean', () => {
    const xml = edit(example('bookings.xml'), '<Any>\n        <Channel>1177</Channel>', '<Any __proto__="x" constructor="y">\n        <Channel>1177</Channel>');
    expect(bookings(xml)[0]?.Booking[0]?.Any).toEqual([{ Channel: '1177', ExternalBookingRef: '000042' }]);
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('keeps inherited method names in free-form content harmless', () => {
    const xml = edit(example('bookings.xml'), '<Channel>1177</Channel>', '<toString>x</toString><hasOwnProperty>y</hasOwnProperty>');
    const any = bookings(xml)[0]?.Booking[0]?.Any[0] ?? {};
    expect(Object.hasOwn(any, 'toString')).toBe(false);
    expect(Object.hasOwn(any, 'hasOwnProperty')).toBe(false);
    expect(typeof any.toString).toBe('function');
  });
});

describe('nesting depth', () => {
  const nested = (depth: number): string =>
    `<ContactEHRExtracts>${'<x>'.repeat(depth - 1)}${'</x>'.repeat(depth - 1)}</ContactEHRExtracts>`;

  it(`accepts exactly ${MAX_DEPTH} levels and refuses one more`, () => {
    expect(contacts(nested(MAX_DEPTH))).toEqual([]);
    expect(malformedReason(() => contacts(nested(MAX_DEPTH + 1)))).toContain('not parseable XML');
  });

  it('refuses a document nested too deeply as soon as it is seen, without validating the rest', () => {
    // Broken after the nesting: a whole-document validation would have called it "not well-formed"
    // (and for 10 MiB of nesting it held the event loop for a second).
    const deepThenBroken = `<ContactEHRExtracts>${'<x>'.repeat(MAX_DEPTH)}${'</x>'.repeat(MAX_DEPTH)}<unclosed></ContactEHRExtracts>`;
    expect(malformedReason(() => contacts(deepThenBroken))).toContain('not parseable XML');
    const shallowThenBroken = `<ContactEHRExtracts>${'<x>'.repeat(3)}${'</x>'.repeat(3)}<unclosed></ContactEHRExtracts>`;
    expect(malformedReason(() => contacts(shallowThenBroken))).toContain('not well-formed XML');
  });

  it('refuses 100,000 levels without overflowing the stack', () => {
    expect(malformedReason(() => contacts(nested(100_000)))).toContain('not parseable XML');
  });
});

describe('documents that are not well-formed', () => {
  it('refuses every truncation of every example', () => {
    const cases: [Parameters<typeof mapDocument>[0], string][] = [
      ['patient', 'patient.xml'], ['medications', 'medications.xml'], ['journalnotes', 'journalnotes.xml'],
      ['bookings', 'bookings.xml'], ['videomeetings', 'videomeetings.xml'], ['contacts', 'contacts.xml'],
      ['attentionsignals', 'attentionsignals.xml'],
    ];
    for (const [kind, file] of cases) {
      const xml = example(file);
      const end = xml.lastIndexOf('>');
      for (let cut = 0; cut < end; cut += 37) {
        expect(() => mapDocument(kind, xml.slice(0, cut), { zone: ZONE }), `${file} cut at ${cut}`).toThrow(MalformedDocumentError);
      }
      expect(() => mapDocument(kind, xml.slice(0, end), { zone: ZONE })).toThrow(MalformedDocumentError);
    }
  });

  it('refuses mismatched end tags, two roots, stray text, an empty body and an HTML error page', () => {
    const docs = [
      '<ContactEHRExtracts><contactEHRExtract></ContactEHRExtracts></contactEHRExtract>',
      '<ContactEHRExtracts/>trailing',
      '<ContactEHRExtracts/>junk>',
      '<ContactEHRExtracts xmlns="urn:example:ehr:carecontact:2"/>\u0000',
      '',
      'Bad Gateway',
      '<ContactEHRExtracts><contactEHRExtract><ContactId>1 & 2</ContactId></contactEHRExtract></ContactEHRExtracts>',
    ];
    for (const doc of docs) expect(malformedReason(() => contacts(doc)), doc).toContain('not well-formed XML');
    expect(malformedReason(() => contacts('<ContactEHRExtracts/><ContactEHRExtracts/>'))).toContain('more than one root element');
    expect(malformedReason(() => contacts('<ContactEHRExtracts/><Other/>'))).toContain('unexpected root element');
    expect(malformedReason(() => contacts('<html><body><h1>502 Bad Gateway</h1></body></html>'))).toContain('unexpected root element');
  });

  it('refuses another document type, whatever its namespace', () => {
    expect(malformedReason(() => contacts(example('attentionsignals.xml')))).toContain('unexpected root element');
    expect(malformedReason(() => contacts(example('fault.xml')))).toContain('unexpected root element');
  });

  it('never puts document text in the error message', () => {
    const xml = example('patient.xml');
    const messages = [
      malformedReason(() => mapDocument('patient', xml.slice(0, xml.indexOf('191212121212') + 12), { zone: ZONE })),
      malformedReason(() => mapDocument('patient', edit(xml, '<PatientSex>M</PatientSex>', '<PatientSex>M<b>191212121212</b></PatientSex>'), { zone: ZONE })),
      malformedReason(() => mapDocument('patient', edit(xml, '<PatientProtectedId>false</PatientProtectedId>', '<PatientProtectedId>Tolvan</PatientProtectedId>'), { zone: ZONE })),
      malformedReason(() => mapDocument('patient', xml, { zone: ZONE, expectedPatientId: '195507142478' })),
    ];
    expect(messages).toEqual([
      'malformed EHR document: not well-formed XML',
      'malformed EHR document: unexpected content in PatientSex',
      'malformed EHR document: bad boolean PatientProtectedId',
      'malformed EHR document: record of another patient',
    ]);
    for (const m of messages) expect(m).not.toMatch(/191212121212|195507142478|Tolvan/);
    expect(PATIENT).toBe('191212121212');
  });
});

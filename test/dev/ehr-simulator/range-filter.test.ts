import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterByRange } from '../../../src/dev/ehr-simulator/range-filter.js';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { selectDocument } from '../../support/document-reads.js';
import { DOCUMENT_KINDS, DOCUMENTS, type DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import type { TimeRange } from '../../../src/domain/time/time-range.js';
import { ADULT, ZONE, startSimulatedEhr, type SimulatedEhr } from '../../adapters/ehr-xml-http/simulated-ehr.js';
import { recipe, statedOf } from '../../support/read-oracles.js';

/** Every document the EHR's own filter applies to (the documents table says which). */
const FILTERED: DocumentKind[] = DOCUMENT_KINDS.filter((kind) => DOCUMENTS[kind].filtered !== undefined);

/**
 * The local times (14 digits) each kind is filtered on, one per record, from the mapped records: as the
 * read's folder states them by hand (`times` of its oracles.ts), not as the documents table has them.
 */
function timesOf(kind: DocumentKind, data: unknown): string[] {
  const times = statedOf(DOCUMENTS[kind].read, 'times');
  if (times === 'not filtered') throw new Error(`${kind} is filtered by the EHR, but the ${recipe('times', DOCUMENTS[kind].read)} says it is not`);
  return times(data as unknown[], ZONE);
}

describe('the simulator\'s from/to filter', () => {
  let t: SimulatedEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
  });
  afterAll(() => t.close());

  const map = <K extends DocumentKind>(kind: K, xml: string) => mapDocument(kind, xml, { zone: ZONE, expectedPatientId: ADULT });

  it('leaves exactly the records the service would select, for every kind and many ranges, bounds inclusive', async () => {
    let checked = 0;
    for (const kind of FILTERED) {
      const xml = await readFile(path.join(t.dataDir, 'patients', ADULT, `${kind}.xml`), 'utf8');
      const all = map(kind, xml);
      const times = timesOf(kind, all).filter((v) => v.length === 14).sort();
      // Not a proof over nothing: the demo people's document (step 4) holds records at more than one time, as `times` finds them.
      expect(times.length, `${kind}: the demo people's records by the ${recipe('times', DOCUMENTS[kind].read)}`).toBeGreaterThan(1);
      const ranges: TimeRange[] = [{}];
      for (const at of new Set([times[0], times[Math.floor(times.length / 2)], times[times.length - 1]])) {
        if (at !== undefined) ranges.push({ from: at }, { to: at }, { from: at, to: at });
      }
      for (const range of ranges) {
        const filtered = filterByRange(kind, xml, range, ZONE);
        // Mapped without any further selection, the filtered document already is the service's answer.
        const unselected = selectDocument(kind, map(kind, filtered), {}, ZONE);
        expect([kind, range, unselected]).toEqual([kind, range, selectDocument(kind, all, range, ZONE)]);
        // Both bounds are inclusive: a range of one instant keeps the record at that instant.
        if (range.from !== undefined && range.from === range.to) {
          expect([kind, timesOf(kind, unselected)], recipe('times', DOCUMENTS[kind].read)).toEqual([kind, expect.arrayContaining([range.from])]);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(FILTERED.length * 5);
  });

  it('issue 13: filters care contacts on contact/contactBeginDateTime, keeping prefixes, namespaces, entities, CDATA, comments and untimed items as written', () => {
    const begin = (value: string): string => `<contact><contactBeginDateTime value="${value}"/></contact>`;
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment -->\n'
      + '<cc:ContactEHRExtracts xmlns:cc="urn:example:ehr:carecontact:2" xmlns="urn:example:ehr:carecontact:2">\n'
      + `  <cc:contactEHRExtract><ehrId extension="007" root="r"/>${begin('20250314093000')}<note>A &amp; B &#8211; &lt;x&gt;</note></cc:contactEHRExtract>\n`
      + `  <contactEHRExtract><ehrId extension="008" root="r"/>${begin('20240101093000')}<note><![CDATA[<b>fet</b>]]></note></contactEHRExtract>\n`
      + '  <contactEHRExtract><ehrId extension="009" root="r"/><contact><contactBeginDateTime xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/></contact></contactEHRExtract>\n'
      + `  <contactEHRExtract q='say "hi"'><ehrId extension="010" root="r"/>${begin('20250314093000')}<Empty/></contactEHRExtract>\n`
      + `  <contactEHRExtract><ehrId extension="011" root="r"/><timeCreated value="20250314093000"/></contactEHRExtract>\n`
      + '</cc:ContactEHRExtracts>\n';
    const out = filterByRange('contacts', xml, { from: '20250314093000', to: '20250314093000' }, ZONE);
    expect(out).toContain('<!-- a comment -->');
    expect(out).toContain('<cc:ContactEHRExtracts xmlns:cc="urn:example:ehr:carecontact:2" xmlns="urn:example:ehr:carecontact:2">');
    expect(out).toContain('<note>A &amp; B &#8211; &lt;x&gt;</note></cc:contactEHRExtract>');
    expect(out).not.toContain('extension="008"');
    expect(out).toContain('extension="009"');
    expect(out).toContain('extension="011"');
    expect(out).toContain('q="say &quot;hi&quot;"');
    expect(out).toContain('<Empty/>');
    expect(filterByRange('contacts', xml, { to: '20240101093000' }, ZONE)).toContain('<![CDATA[<b>fet</b>]]>');
    expect(filterByRange('contacts', xml, { to: '20240101093000' }, ZONE)).not.toContain('extension="007"');
  });

  it('issue 13: filters attention signals on time_created, and never the patient-v2 document', () => {
    const xml = '<as:AttentionSignalEHRExtracts xmlns:as="urn:example:ehr:attentionsignal:2" version="2.1">'
      + '<as:AttentionSignalEHRExtract><time_created value="20191105142233"/></as:AttentionSignalEHRExtract>'
      + '<AttentionSignalEHRExtract><time_created value="20241027023000"/></AttentionSignalEHRExtract></as:AttentionSignalEHRExtracts>';
    const out = filterByRange('attentionsignals', xml, { from: '20241027023000' }, ZONE);
    expect(out).toContain('20241027023000');
    expect(out).not.toContain('20191105142233');
    expect(filterByRange('patient-v2', 'anything', { from: '20250101000000' }, ZONE)).toBe('anything');
  });

  it('serves a document it cannot parse as it is, and never filters the patient document', () => {
    const broken = '<CareContacts><CareContact><StartDateTime value="20240101093000"/></CareContact>';
    expect(filterByRange('contacts', broken, { from: '20250101000000' }, ZONE)).toBe(broken);
    const dtd = '<!DOCTYPE x [<!ENTITY a "b">]><CareContacts>&a;</CareContacts>';
    expect(filterByRange('contacts', dtd, { from: '20250101000000' }, ZONE)).toBe(dtd);
    expect(filterByRange('patient', 'anything', { from: '20250101000000' }, ZONE)).toBe('anything');
  });
});

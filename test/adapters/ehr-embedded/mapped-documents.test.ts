/**
 * The embedded EHR maps a document once per version of its file: repeated reads share frozen
 * records, any edit or replacement is seen on the next read, and concurrent first reads share one.
 */
import { readDocument } from '../../support/document-reads.js';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { DocumentStore, type VersionedDocument } from '../../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../../src/adapters/ehr-embedded/write-state-store.js';
import type { CareContact } from '../../../src/domain/records/index.js';

const ZONE = 'Europe/Stockholm';
const ADULT = '191212121212';
const NOW = Date.UTC(2026, 10, 21, 8, 0);

class CountingStore extends DocumentStore {
  reads = 0;

  override async readVersioned(file: string): Promise<VersionedDocument | undefined> {
    this.reads++;
    return super.readVersioned(file);
  }
}

describe('mapped documents of the embedded EHR', () => {
  let dir: string;
  let store: CountingStore;
  let dropped: string[];
  const file = (name: string): string => path.join(dir, 'ehr', 'patients', ADULT, `${name}.xml`);
  const open = async (options = {}) => {
    store = new CountingStore(path.join(dir, 'ehr'));
    return new EmbeddedEhr(store, await WriteStateStore.open(path.join(dir, 'state', 'writes.json')), ZONE, (r) => dropped.push(r), options);
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mapped-documents-'));
    dropped = [];
    await generateDemoData(path.join(dir, 'ehr'), { now: NOW, zone: ZONE });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads a document once while it is unchanged and hands out frozen records', async () => {
    const ehr = await open();
    const first = await readDocument(ehr, 'journalnotes', ADULT, {});
    const second = await readDocument(ehr, 'journalnotes', ADULT, {});
    expect(second).toEqual(first);
    expect(store.reads).toBe(1);
    const extract = first[0]?.JournalNoteEHRExtract[0];
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(extract?.Note?.Records.Record)).toBe(true);
    expect(() => {
      (first as unknown[]).push('x');
    }).toThrow(TypeError);
    expect(() => Object.assign(extract ?? {}, { leaked: true })).toThrow(TypeError);
  });

  it('sees an edit in place and a replaced file on the next read', async () => {
    const ehr = await open();
    const unitName = (answer: CareContact[]) => answer[0]?.contactEHRExtract[0]?.units.unit[0]?.unitName;
    const before = await readDocument(ehr, 'contacts', ADULT, {});
    const xml = await readFile(file('contacts'), 'utf8');
    const first = unitName(before) ?? '';
    await writeFile(file('contacts'), xml.split(first).join('Edited unit'));
    expect(unitName(await readDocument(ehr, 'contacts', ADULT, {}))).toBe('Edited unit');
    await writeFile(`${file('contacts')}.new`, xml);
    await rename(`${file('contacts')}.new`, file('contacts'));
    expect(unitName(await readDocument(ehr, 'contacts', ADULT, {}))).toBe(first);
    await rm(file('contacts'));
    await expect(readDocument(ehr, 'contacts', ADULT, {})).resolves.toEqual([]);
  });

  it('applies a time range to the cached records without changing them', async () => {
    const ehr = await open();
    const all = await readDocument(ehr, 'contacts', ADULT, {});
    const second = all[0]?.contactEHRExtract[1]?.contact;
    const local = second?.contactBeginDateTime?.value ?? '';
    const one = await readDocument(ehr, 'contacts', ADULT, { from: local, to: local });
    expect(one[0]?.contactEHRExtract.map((c) => c.contact?.contactInternalID)).toEqual([second?.contactInternalID]);
    expect(await readDocument(ehr, 'contacts', ADULT, {})).toEqual(all);
    expect(store.reads).toBe(1);
  });

  it('tells a dropped item on every read, not only on the one that mapped it', async () => {
    const ehr = await open();
    const xml = await readFile(file('videomeetings'), 'utf8');
    const link = /MeetingLink>(https:[^<]*)</.exec(xml)?.[1] ?? 'missing';
    await writeFile(file('videomeetings'), xml.replace(link, `https://video.example.se/${'x'.repeat(70)}`));
    await readDocument(ehr, 'videomeetings', ADULT, {});
    await readDocument(ehr, 'videomeetings', ADULT, {});
    expect(dropped).toEqual(['video meeting left out: meetingLink longer than 64 characters', 'video meeting left out: meetingLink longer than 64 characters']);
  });

  it('shares one read among concurrent first reads, and keeps nothing of a malformed document', async () => {
    const ehr = await open();
    await Promise.all(Array.from({ length: 20 }, () => readDocument(ehr, 'medications', ADULT, {})));
    expect(store.reads).toBe(1);
    await writeFile(file('medications'), '<PrescriptionRecords><PrescriptionRecord>');
    await expect(readDocument(ehr, 'medications', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    await expect(readDocument(ehr, 'medications', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    expect(store.reads).toBe(3);
  });

  it('maps every read again when the cache is turned off', async () => {
    const ehr = await open({ cacheBytes: 0 });
    await readDocument(ehr, 'bookings', ADULT, {});
    await readDocument(ehr, 'bookings', ADULT, {});
    expect(store.reads).toBe(2);
  });
});

/**
 * Issue 13, the contract test: every read of every demo person, through the real app, validated
 * with ajv. Patient v2, care contacts and attention signals against the vendor's layouts
 * (test/fixtures/vendor-layouts/), closed: a member the vendor does not name fails. Journal notes
 * against the vendor's journal layout, open (the spec's spelling stands where it names a member:
 * `UnitID` in CareUnit, where the vendor writes `unitID`), and every note must carry text. The reads
 * the vendor publishes no tree for (appointments, the older patient layout, video meetings,
 * medications) against the answer's own schema, the spec's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../src/dev/demo-data/generate.js';
import type { JournalNoteRecord, JournalRecord } from '../../src/domain/records/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { READ_VALIDATORS as READS, vendor } from '../support/read-validators.js';

const valuesOf = (r: JournalRecord): JournalRecord['Value'] => [...r.Value, ...(r.Record === undefined ? [] : valuesOf(r.Record))];

describe('issue 13: every read of every demo person in the vendor\'s layout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('validates each answer with ajv, and none is empty where the person has data', async () => {
    for (const person of DEMO_PEOPLE) {
      const token = await t.personToken(person.id);
      for (const read of READS) {
        const res = await t.call({ method: 'GET', url: read.url, token });
        expect([person.id, read.url, res.statusCode]).toEqual([person.id, read.url, 200]);
        const body = res.json() as unknown;
        const valid = read.validate(body);
        expect([person.id, read.url, valid ? [] : read.validate.errors]).toEqual([person.id, read.url, []]);
      }
      for (const url of ['/patients/patient/?api-version=v2', '/patients/contacts/', '/patients/attentionsignals/', '/patients/journalnotes/']) {
        const body = (await t.call({ method: 'GET', url, token })).json() as unknown[];
        expect([person.id, url, body.length]).toEqual([person.id, url, 1]);
      }
    }
  });

  it('gives every journal note text: a Text value carries $self, and no note is without text', async () => {
    for (const person of DEMO_PEOPLE) {
      const records = (await t.call({ method: 'GET', url: '/patients/journalnotes/', token: await t.personToken(person.id) })).json() as JournalNoteRecord[];
      for (const note of records.flatMap((r) => r.JournalNoteEHRExtract)) {
        const values = (note.Note?.Records.Record ?? []).flatMap(valuesOf);
        const id = note.Note?.NoteId?.extension;
        expect([id, values.filter((v) => (v.$self ?? '').trim() !== '').length > 0]).toEqual([id, true]);
        expect([id, values.filter((v) => v.JournalValueType === 'Text' && v.$self === undefined)]).toEqual([id, []]);
      }
    }
  });

  it('refuses, in the closed vendor schemas, a member the vendor does not name', async () => {
    const token = await t.personToken(DEMO_PEOPLE[0]?.id ?? '');
    const contacts = (await t.call({ method: 'GET', url: '/patients/contacts/', token })).json() as Array<{ contactEHRExtract: Array<Record<string, unknown>> }>;
    const validate = vendor('care-contacts-v2.txt', true);
    expect(validate(contacts)).toBe(true);
    const first = contacts[0]?.contactEHRExtract[0] ?? {};
    expect(validate([{ contactEHRExtract: [{ ...first, contactId: '00012345' }] }])).toBe(false);
    expect(validate([{ contactEHRExtract: [{ ...first, timeCreated: { value: 20250303 } }] }])).toBe(false);
  });
});

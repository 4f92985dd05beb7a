/**
 * Issue 56 item 2: the simulator answers conditional GETs of patient documents as a real EHR would
 * (RFC 9110 §8.8, §13.1, §13.2.2): a strong ETag made from the bytes it sends, Last-Modified from the
 * file, 304 without a body when the caller has the document, If-None-Match before If-Modified-Since.
 * Without validators (`validators: false`) it is the EHR that sends none, and ignores conditions.
 */
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEhrSimulator, type EhrSimulator } from '../../../src/dev/ehr-simulator/index.js';
import { ACTOR, ADULT, ZONE, startSimulatedEhr, type SimulatedEhr } from '../../adapters/ehr-xml-http/simulated-ehr.js';

interface Got { status: number; etag?: string; lastModified?: string; text: string }

async function get(sim: EhrSimulator, url: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await request(`${sim.url}${url}`, { headers });
  const one = (name: string): string | undefined => {
    const v = res.headers[name];
    return Array.isArray(v) ? v.join(',') : v;
  };
  return { status: res.statusCode, etag: one('etag'), lastModified: one('last-modified'), text: await res.body.text() };
}

const STRONG = /^"[\x21\x23-\x7e]+"$/;

describe('EHR simulator: validators and conditional GETs of patient documents', () => {
  let t: SimulatedEhr;
  const url = `/ehr/v1/patients/${ADULT}/journalnotes`;
  const file = (kind: string, id = ADULT): string => path.join(t.dataDir, 'patients', id, `${kind}.xml`);
  beforeAll(async () => {
    t = await startSimulatedEhr();
    // Last-Modified a minute back: a change written now falls in a later second.
    const past = new Date(Date.now() - 60_000);
    await utimes(file('journalnotes'), past, past);
  });
  afterAll(() => t.close());

  it('sends a strong ETag of the bytes it sends and the file\'s Last-Modified, the same while nothing changes', async () => {
    const first = await get(t.sim, url);
    const second = await get(t.sim, url);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(STRONG);
    expect(second.etag).toBe(first.etag);
    expect(first.lastModified).toBe((await stat(file('journalnotes'))).mtime.toUTCString());
    const filtered = await get(t.sim, `${url}?from=20990101000000`);
    expect(filtered.etag).toMatch(STRONG);
    expect(filtered.etag).not.toBe(first.etag);
  });

  it('answers 304 without a body to If-None-Match naming its ETag, weakly compared, in a list, or *', async () => {
    const { etag = '', lastModified } = await get(t.sim, url);
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const got = await get(t.sim, url, { 'if-none-match': condition });
      expect([condition, got.status, got.text]).toEqual([condition, 304, '']);
      expect(got.etag).toBe(etag);
      expect(got.lastModified).toBe(lastModified);
    }
  });

  it('answers 200 in full when If-None-Match names another tag, whatever If-Modified-Since says (RFC 9110 §13.2.2)', async () => {
    const whole = await get(t.sim, url);
    const got = await get(t.sim, url, { 'if-none-match': '"not-this-one"', 'if-modified-since': new Date(Date.now() + 3_600_000).toUTCString() });
    expect(got.status).toBe(200);
    expect(got.text).toBe(whole.text);
  });

  it('answers If-Modified-Since alone by the file\'s time, a date it cannot read as if not sent', async () => {
    const { lastModified = '' } = await get(t.sim, url);
    expect((await get(t.sim, url, { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await get(t.sim, url, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status).toBe(200);
    expect((await get(t.sim, url, { 'if-modified-since': 'yesterday' })).status).toBe(200);
    // Hostile review helper-153, F4: Date.parse reads a year alone, and other forms no HTTP date has, as a date (RFC 9110 §13.1.3: ignored).
    // helper-156, F4: in the HTTP date's own form, a year Date.parse reads as another (0030 as 2030), a day or an
    // hour the calendar does not have (rolled over to the next), a weekday that is not the date's.
    const later = new Date(Date.parse(lastModified) + 86_400_000).toUTCString();
    for (const notADate of ['2099', '2099-01-01', 'Thu, 01 Jan 2099 00:00:00 +0000', `${lastModified} extra`, 'Tue, 01 Jan 0030 00:00:00 GMT',
      'Tue, 31 Nov 2099 00:00:00 GMT', 'Mon, 30 Nov 2099 24:00:00 GMT', later.replace(/^[A-Z][a-z]{2}/, (day) => (day === 'Mon' ? 'Tue' : 'Mon'))]) {
      expect([notADate, (await get(t.sim, url, { 'if-modified-since': notADate })).status]).toEqual([notADate, 200]);
    }
  });

  it('answers a changed document in full, with a new ETag and Last-Modified', async () => {
    const before = await get(t.sim, url);
    const xml = await readFile(file('journalnotes'), 'utf8');
    await writeFile(file('journalnotes'), xml.replace('</JournalNoteRecords>', '<!-- changed --></JournalNoteRecords>'));
    const after = await get(t.sim, url, { 'if-none-match': before.etag ?? '' });
    expect(after.status).toBe(200);
    expect(after.text).toContain('<!-- changed -->');
    expect(after.etag).not.toBe(before.etag);
    expect(after.lastModified).not.toBe(before.lastModified);
    expect((await get(t.sim, url, { 'if-modified-since': before.lastModified ?? '' })).status).toBe(200);
  });

  it('gives an empty answer for a missing document an ETag but no Last-Modified, and no validators to a Fault', async () => {
    await rm(file('videomeetings', ACTOR), { force: true });
    const empty = await get(t.sim, `/ehr/v1/patients/${ACTOR}/videomeetings`);
    expect(empty.etag).toMatch(STRONG);
    expect(empty.lastModified).toBeUndefined();
    expect((await get(t.sim, `/ehr/v1/patients/${ACTOR}/videomeetings`, { 'if-none-match': empty.etag ?? '' })).status).toBe(304);
    const unknown = await get(t.sim, '/ehr/v1/patients/195507142478/journalnotes', { 'if-none-match': '*' });
    expect([unknown.status, unknown.etag, unknown.lastModified]).toEqual([404, undefined, undefined]);
  });

  it('sends no validators and ignores conditions when told to be an EHR without them', async () => {
    const plain = await startEhrSimulator({ dataDir: t.dataDir, stateFile: path.join(t.dir, 'plain.json'), zone: ZONE, validators: false });
    try {
      const first = await get(plain, url);
      expect([first.status, first.etag, first.lastModified]).toEqual([200, undefined, undefined]);
      const conditional = await get(plain, url, { 'if-none-match': '*', 'if-modified-since': new Date(Date.now() + 3_600_000).toUTCString() });
      expect(conditional.status).toBe(200);
      expect(conditional.text).toBe(first.text);
    } finally {
      await plain.close();
    }
  });
});

/**
 * Issue 20 item 6 over xml-http: fifty patients reading their 1 MB journals at once had fifty
 * documents fetched at once, each then waiting, its megabyte in memory, for the one-document mapping
 * budget (268 MB where fifty readers of one journal took 229: BENCHMARKS.md, tenth round). A read of
 * a record now takes room for the bytes its document is expected to have before the EHR is asked
 * (src/adapters/ehr-xml-http/fetch-room.ts), so the rest wait holding nothing but their requests.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_DOCUMENT_BYTES } from '../../../src/adapters/ehr-xml-http/documents-in-flight.js';
import { readDocument } from '../../support/document-reads.js';
import { pollUntil } from '../../support/poll.js';
import { DEMO } from '../../security/support/oracles.js';
import { startSimulatedEhr, type SimulatedEhr } from './simulated-ehr.js';

const MB = 1024 * 1024;
const PATIENTS = [DEMO.TOLVAN, DEMO.MARTA, DEMO.ANTON, DEMO.SARA];
const LARGE = 400_000;

describe('large journals of many patients read at once over xml-http', () => {
  let t: SimulatedEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
    // Each patient's own journal, its extracts repeated past SMALL_DOCUMENT_BYTES.
    for (const patient of PATIENTS) {
      const file = path.join(t.dataDir, 'patients', patient, 'journalnotes.xml');
      const xml = await readFile(file, 'utf8');
      const at = xml.lastIndexOf('</JournalNoteRecord>');
      const extracts = xml.slice(xml.indexOf('<JournalNoteEHRExtract>'), at);
      await writeFile(file, xml.slice(0, at) + extracts.repeat(Math.ceil(LARGE / extracts.length)) + xml.slice(at));
    }
  });
  afterAll(() => t.close());

  it('asks the EHR for them only while the room holds their bytes; the others wait unasked, then get theirs', async () => {
    const ehr = t.adapter({ timeoutMs: 20_000, fetchRoomBytes: 1 * MB });
    // A first read of each, one after another: each record's size is known from then on.
    const first = [];
    for (const patient of PATIENTS) first.push(await readDocument(ehr, 'journalnotes', patient, {}));
    expect(first.map((records) => records.flatMap((r) => r.JournalNoteEHRExtract).length).every((n) => n > 20)).toBe(true);
    expect(ehr.answerMemory.room.bytesHeld).toBe(0);

    t.sim.faults.delay(1500, { path: /journalnotes/ });
    const before = t.sim.requests;
    const reads = PATIENTS.map((patient) => readDocument(ehr, 'journalnotes', patient, {}));
    expect(await pollUntil(async () => t.sim.requests - before, (n) => n >= 2, 5000, 10)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Two documents of ~400 KB fill a room of 1 MiB: the other two reads have not asked yet.
    expect(t.sim.requests - before).toBe(2);
    expect(ehr.answerMemory.room.readsWaiting).toBe(2);
    const answers = await Promise.all(reads);
    t.sim.faults.clear();
    expect(t.sim.requests - before).toBe(PATIENTS.length);
    expect(answers).toEqual(first);
    expect([ehr.answerMemory.room.bytesHeld, ehr.answerMemory.bytesInFlight]).toEqual([0, 0]);
    expect(LARGE).toBeGreaterThan(SMALL_DOCUMENT_BYTES);
  });
});

/**
 * Issue 56 item 2: a kept answer never crosses patients. A loopback EHR serves each patient's journal
 * at a version of its own, answering If-None-Match truthfully per patient but with ETags that are the
 * same for every patient at the same version ("v3" is everyone's third), so an answer kept by its
 * ETag alone would answer one patient with another's notes. Over random sequences of reads and
 * changes (fixed seeds), each read must answer that patient's own records at their current version.
 */
import { readDocument } from '../../support/document-reads.js';
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XmlHttpEhr } from '../../../src/adapters/ehr-xml-http/index.js';
import { MappedDocuments } from '../../../src/adapters/mapped-documents/mapped-documents.js';
import { assertProperty } from '../../support/seeds.js';
import { ZONE, startSimulatedEhr, type SimulatedEhr } from './simulated-ehr.js';

/** The demo's patients, each with a journal of their own. */
const PATIENTS = ['191212121212', '194608632396', '197305242385', '198112189876', '200404122384', '201701012393'] as const;
const MARK = /<NoteTemplateName>/;

type Step = { kind: 'read'; patient: number; weak: boolean } | { kind: 'change'; patient: number };

describe('xml-http: a kept answer answers only its own patient', () => {
  let t: SimulatedEhr;
  let server: Server;
  let base = '';
  const journals = new Map<string, string>();
  const versions = new Map<string, number>();
  let weak = false;
  let notModified = 0;

  /** The patient's journal at `version`: its first note's template name says which. */
  const journalAt = (patient: string, version: number): string => (journals.get(patient) ?? '').replace(MARK, `<NoteTemplateName>v${version} `);
  const etagAt = (version: number): string => `${weak ? 'W/' : ''}"v${version}"`;

  beforeAll(async () => {
    t = await startSimulatedEhr();
    for (const patient of PATIENTS) journals.set(patient, await readFile(path.join(t.dataDir, 'patients', patient, 'journalnotes.xml'), 'utf8'));
    server = createServer((req, res) => {
      const patient = /\/patients\/(\d{12})\/journalnotes/.exec(req.url ?? '')?.[1] ?? '';
      const version = versions.get(patient) ?? 0;
      const etag = etagAt(version);
      const asked = req.headers['if-none-match'];
      if (typeof asked === 'string' && asked.replace(/^W\//, '') === etag.replace(/^W\//, '')) {
        notModified += 1;
        res.writeHead(304, { etag });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', etag });
      res.end(journalAt(patient, version));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });

  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('read' as const), patient: fc.nat(PATIENTS.length - 1), weak: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('change' as const), patient: fc.nat(PATIENTS.length - 1) }) },
  );

  it('answers every read with that patient\'s records at their current version, however the ETags collide', async () => {
    let kept = 0;
    await assertProperty(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), fc.nat(3), async (steps, smallBudget) => {
      versions.clear();
      // Budgets from none, through one journal or two, to all of them: eviction in every order.
      const budget = [0, 160_000, 320_000, 64 * 2 ** 20][smallBudget] ?? 0;
      const ehr = new XmlHttpEhr({ baseUrl: base, timeoutMs: 5000, zone: ZONE, onDropped: () => undefined, mappedDocuments: new MappedDocuments(budget) });
      // Under the budget that holds every journal, each patient read before and unchanged since is kept.
      const unchanged = new Set<string>();
      try {
        for (const s of steps) {
          const patient = PATIENTS[s.patient] as string;
          if (s.kind === 'change') {
            versions.set(patient, (versions.get(patient) ?? 0) + 1);
            unchanged.delete(patient);
            continue;
          }
          weak = s.weak;
          const before = notModified;
          const answer = await readDocument(ehr, 'journalnotes', patient, {});
          const extracts = answer.flatMap((r) => r.JournalNoteEHRExtract);
          expect(extracts.length).toBeGreaterThan(0);
          for (const e of extracts) expect(e.Patient?.PatientID?.extension).toBe(patient);
          const marked = extracts.map((e) => e.Note?.NoteTemplateName).filter((n) => n?.startsWith('v'));
          expect(marked).toEqual([expect.stringMatching(new RegExp(`^v${versions.get(patient) ?? 0} `))]);
          // The property runs through kept answers, not around them: such a read was asked conditionally, and answered 304.
          if (smallBudget === 3 && unchanged.has(patient)) {
            expect([patient, notModified - before]).toEqual([patient, 1]);
            kept += 1;
          }
          unchanged.add(patient);
        }
      } finally {
        await ehr.close();
      }
    }), {
      seeds: [56, 5602, 560_003], numRuns: 45,
      // A kept answer on every seed: the ratio of 304s to reads this replaced fell under its bound on a fuzz seed
      // (PDAS_FUZZ_SEED=139454030: 17 of 187 reads) with nothing wrong.
      examples: [[[{ kind: 'read', patient: 0, weak: false }, { kind: 'read', patient: 0, weak: true }, { kind: 'change', patient: 1 }, { kind: 'read', patient: 0, weak: false }], 3]],
    });
    expect(kept).toBeGreaterThanOrEqual(2);
  });
});

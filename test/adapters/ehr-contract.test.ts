/**
 * One suite, two adapters: the same read and write cases through the EhrRecords and
 * DelegationRegistry ports, against the embedded EHR and against XmlHttpEhr over the simulator,
 * both over the same generated data.
 */
import { readDocument } from '../support/document-reads.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { startEhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { XmlHttpEhr } from '../../src/adapters/ehr-xml-http/index.js';
import type { CareContact } from '../../src/domain/records/index.js';
import { compactToEpochMs } from '../../src/domain/time/local-time.js';
import type { DelegationRegistry } from '../../src/ports/delegation-registry.port.js';
import { DOCUMENT_KINDS, type DocumentKind } from '../../src/adapters/ehr-xml/documents.js';
import type { EhrRecords } from '../../src/ports/ehr-records.port.js';
import type { TimeRange } from '../../src/domain/time/time-range.js';
import { AT_ANY_TIME } from '../../src/domain/writes/arrival-window.js';

const ZONE = 'Europe/Stockholm';
const NOW = Date.UTC(2026, 10, 21, 8, 0);
const ADULT = '191212121212';
const ACTOR = '198112189876';
const UNKNOWN = '195507142478';
/** Every legacy document, from the documents table. */
const KINDS: DocumentKind[] = DOCUMENT_KINDS;
/** The instants the care contacts begin at, in the order answered. */
const contactStarts = (answer: CareContact[]): number[] => answer.flatMap((i) => i.contactEHRExtract)
  .map((e) => compactToEpochMs(e.contact?.contactBeginDateTime?.value ?? '', ZONE));

type Ehr = EhrRecords & DelegationRegistry;
interface Subject { ehr: Ehr; stateFile: string; close(): Promise<void> }
type Factory = (dataDir: string, workDir: string) => Promise<Subject>;

const embedded: Factory = async (dataDir, workDir) => {
  const stateFile = path.join(workDir, 'embedded-state.json');
  const ehr = new EmbeddedEhr(new DocumentStore(dataDir), await WriteStateStore.open(stateFile), ZONE, () => undefined);
  return { ehr, stateFile, close: async () => undefined };
};

const remote: Factory = async (dataDir, workDir) => {
  const stateFile = path.join(workDir, 'simulator-state.json');
  const sim = await startEhrSimulator({ dataDir, stateFile, zone: ZONE });
  const ehr = new XmlHttpEhr({ baseUrl: sim.url, timeoutMs: 5000, zone: ZONE, onDropped: () => undefined });
  return {
    ehr, stateFile,
    close: async () => {
      await ehr.close();
      await sim.close();
    },
  };
};

let workDir = '';
let dataDir = '';
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ehr-contract-'));
  dataDir = path.join(workDir, 'ehr');
  await generateDemoData(dataDir, { now: NOW, zone: ZONE });
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

const local = (ms: number): string =>
  new Date(ms).toLocaleString('sv-SE', { timeZone: ZONE }).replace(/[-: ]/g, '');

describe.each<[string, Factory]>([['embedded', embedded], ['xml-http + simulator', remote]])('EHR port contract: %s', (_name, factory) => {
  let subject: Subject;
  let ehr: Ehr;
  let contacts: string[] = [];
  beforeAll(async () => {
    subject = await factory(dataDir, workDir);
    ehr = subject.ehr;
    contacts = (await readDocument(ehr, 'bookings', ADULT, {})).flatMap((r) => r.Booking).map((b) => b.ContactId);
  });
  afterAll(() => subject.close());

  it('reads every kind of the rich demo patient, sorted oldest first', async () => {
    for (const kind of KINDS) {
      const data = await readDocument(ehr, kind, ADULT, {});
      expect([kind, data.length > 0]).toEqual([kind, true]);
    }
    const starts = contactStarts(await readDocument(ehr, 'contacts', ADULT, {}));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(contacts.length).toBeGreaterThan(3);
  });

  it('serves a request\'s view (forRequest) with the answers of the EHR itself', async () => {
    const view = ehr.forRequest();
    expect(await view.reads.getPatient?.(ADULT, {})).toEqual(await ehr.reads.getPatient?.(ADULT, {}));
    expect(await view.reads.getJournalNotes?.(ADULT, {})).toEqual(await ehr.reads.getJournalNotes?.(ADULT, {}));
    await expect(view.registerPayment(ADULT, 'no-such-contact', 'CASH')).resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' });
  });

  it('filters on an inclusive local range', async () => {
    const starts = contactStarts(await readDocument(ehr, 'contacts', ADULT, {}));
    const from = starts[1] ?? 0;
    const to = starts[starts.length - 2] ?? 0;
    const range: TimeRange = { from: local(from), to: local(to) };
    const got = contactStarts(await readDocument(ehr, 'contacts', ADULT, range));
    expect(got).toEqual(starts.slice(1, -1));
    expect(await readDocument(ehr, 'contacts', ADULT, { from: '20990101000000' })).toEqual([]);
  });

  it('answers an unknown patient as not found, on every read and on writes', async () => {
    for (const kind of KINDS) await expect(readDocument(ehr, kind, UNKNOWN, {})).rejects.toMatchObject({ failure: 'patient-not-found' });
    await expect(ehr.registerArrival(UNKNOWN, contacts[0] ?? '', AT_ANY_TIME)).rejects.toMatchObject({ failure: 'patient-not-found' });
    await expect(ehr.registerPayment(UNKNOWN, contacts[0] ?? '', 'CARD')).rejects.toMatchObject({ failure: 'patient-not-found' });
    await expect(readDocument(ehr, 'journalnotes', '../191212121212', {})).rejects.toMatchObject({ failure: 'patient-not-found' });
  });

  it('lists the delegations of the demo actor, expired ones included, and none for a stranger', async () => {
    const rows = await ehr.relationshipsOf(ACTOR);
    expect(rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ patient: '201701012393', type: 'guardian' }),
      expect.objectContaining({ patient: '200404122384', type: 'guardian' }),
      expect.objectContaining({ patient: ADULT, type: 'power-of-attorney' }),
      { patient: '194608632396', type: 'partner', validFrom: '20230901' },
    ]));
    expect(rows).toHaveLength(5);
    await expect(ehr.relationshipsOf(UNKNOWN)).resolves.toEqual([]);
  });

  it('registers an arrival once: OK, then INFO', async () => {
    await expect(ehr.registerArrival(ADULT, contacts[0] ?? '', AT_ANY_TIME)).resolves.toEqual({ resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' });
    await expect(ehr.registerArrival(ADULT, contacts[0] ?? '', AT_ANY_TIME)).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_ARRIVED' });
  });

  it('refuses payment before arrival, then registers it once and keeps the first type', async () => {
    const contact = contacts[1] ?? '';
    await expect(ehr.registerPayment(ADULT, contact, 'CARD')).resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'NOT_PAYABLE' });
    await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toMatchObject({ resultCode: 'OK' });
    await expect(ehr.registerPayment(ADULT, contact, 'CARD')).resolves.toEqual({ resultCode: 'OK', reasonCode: 'PAYMENT_REGISTERED' });
    await expect(ehr.registerPayment(ADULT, contact, 'CASH')).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_PAID' });
    const state = JSON.parse(await readFile(subject.stateFile, 'utf8')) as { payments: Record<string, { paymentType: string }> };
    expect(state.payments[`${ADULT}/${contact}`]?.paymentType).toBe('CARD');
  });

  it('answers an unknown, a foreign or a crafted contact id with CONTACT_NOT_FOUND', async () => {
    const theirs = (await readDocument(ehr, 'bookings', ACTOR, {})).flatMap((r) => r.Booking).map((b) => b.ContactId)[0] ?? 'none';
    for (const contact of ['no-such-contact', theirs, '..', '../x', 'x/../../y']) {
      await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' });
      await expect(ehr.registerPayment(ADULT, contact, 'CASH')).resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' });
    }
  });

  it('answers a ping', async () => {
    await expect(ehr.ping()).resolves.toBe(true);
  });
});

describe('EHR port contract: both adapters give the same answers', () => {
  it('for every kind of every demo patient, filtered and not, and for the delegation registry', async () => {
    const [a, b] = await Promise.all([embedded(dataDir, path.join(workDir, 'a')), remote(dataDir, path.join(workDir, 'b'))]);
    try {
      const ranges: TimeRange[] = [{}, { from: local(NOW - 30 * 86_400_000) }, { to: local(NOW) }, { from: local(NOW - 86_400_000), to: local(NOW + 7 * 86_400_000) }];
      let compared = 0;
      for (const patient of [ADULT, ACTOR, '201701012393', '194608632396', '197305242385']) {
        for (const kind of KINDS) {
          for (const range of ranges) {
            const [left, right] = await Promise.all([readDocument(a.ehr, kind, patient, range), readDocument(b.ehr, kind, patient, range)]);
            expect([patient, kind, range, JSON.stringify(right)]).toEqual([patient, kind, range, JSON.stringify(left)]);
            compared += 1;
          }
        }
        expect(JSON.stringify(await b.ehr.relationshipsOf(patient))).toBe(JSON.stringify(await a.ehr.relationshipsOf(patient)));
      }
      expect(compared).toBe(5 * KINDS.length * ranges.length);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

import { readDocument } from '../../support/document-reads.js';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { DocumentStore } from '../../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../../src/adapters/ehr-embedded/write-state-store.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { AT_ANY_TIME } from '../../../src/domain/writes/arrival-window.js';

const ZONE = 'Europe/Stockholm';
const ADULT = '191212121212';
const NOW = Date.UTC(2026, 10, 21, 8, 0);

describe('EmbeddedEhr', () => {
  let dir: string;
  const open = async () => new EmbeddedEhr(
    new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'state', 'writes.json')), ZONE, () => undefined);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'embedded-ehr-'));
    await generateDemoData(path.join(dir, 'ehr'), { now: NOW, zone: ZONE });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const firstContact = async (ehr: EmbeddedEhr): Promise<string> =>
    (await readDocument(ehr, 'bookings', ADULT, {})).flatMap((r) => r.Booking ?? [])[0]?.ContactId ?? '';

  it('keeps write outcomes across a restart, outside the data files', async () => {
    const ehr = await open();
    const contact = await firstContact(ehr);
    await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' });
    await expect(ehr.registerPayment(ADULT, contact, 'CASH')).resolves.toEqual({ resultCode: 'OK', reasonCode: 'PAYMENT_REGISTERED' });
    const restarted = await open();
    await expect(restarted.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_ARRIVED' });
    await expect(restarted.registerPayment(ADULT, contact, 'CARD')).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_PAID' });
    const state = JSON.parse(await readFile(path.join(dir, 'state', 'writes.json'), 'utf8')) as { payments: Record<string, { paymentType: string }> };
    expect(state.payments[`${ADULT}/${contact}`]?.paymentType).toBe('CASH');
  });

  it('asks the window of the booking as its document holds it: OUTSIDE_ARRIVAL_WINDOW writes nothing', async () => {
    const ehr = await open();
    const contact = await firstContact(ehr);
    const starts: number[] = [];
    await expect(ehr.registerArrival(ADULT, contact, (start) => { starts.push(start); return false; }))
      .resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'OUTSIDE_ARRIVAL_WINDOW' });
    const listed = (await readDocument(ehr, 'bookings', ADULT, {})).flatMap((r) => r.Booking ?? [])[0]?.TypedStartDateTime;
    expect(starts).toEqual([Date.parse(listed ?? '')]);
    await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' });
  });

  // Hostile review (helper-85, F4): a lock another process held (one that crashed holding it leaves it for
  // 10 s) made every write a bare 500 "Internal server error." after the wait, with no Retry-After.
  it('answers a write whose state another process holds locked as an EHR that is unavailable for now, and changes nothing', async () => {
    const file = path.join(dir, 'state', 'writes.json');
    const ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(file, { lockTimeoutMs: 50 }), ZONE, () => undefined);
    const contact = await firstContact(ehr);
    await writeFile(`${file}.lock`, '');
    const refused = await ehr.registerArrival(ADULT, contact, AT_ANY_TIME).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(EhrError);
    expect([(refused as EhrError).failure, (refused as EhrError).retryAfterSeconds]).toEqual(['unavailable', 5]);
    await rm(`${file}.lock`);
    await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' });
  });

  it('changes state once when identical writes race', async () => {
    const ehr = await open();
    const contact = await firstContact(ehr);
    const results = await Promise.all(Array.from({ length: 30 }, () => ehr.registerArrival(ADULT, contact, AT_ANY_TIME)));
    expect(results.filter((r) => r.resultCode === 'OK')).toHaveLength(1);
    expect(results.filter((r) => r.reasonCode === 'ALREADY_ARRIVED')).toHaveLength(29);
  });

  it('loses nothing and changes state once when two instances share the folder', async () => {
    const [a, b] = [await open(), await open()];
    const contacts = (await readDocument(a, 'bookings', ADULT, {})).flatMap((r) => r.Booking ?? []).map((x) => x.ContactId);
    expect(contacts.length).toBeGreaterThan(3);
    const same = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).registerArrival(ADULT, contacts[0] ?? '', AT_ANY_TIME)));
    expect(same.filter((r) => r.resultCode === 'OK')).toHaveLength(1);
    const different = await Promise.all(contacts.slice(1).map((c, i) => (i % 2 ? a : b).registerArrival(ADULT, c, AT_ANY_TIME)));
    expect(different.every((r) => r.resultCode === 'OK')).toBe(true);
    const state = JSON.parse(await readFile(path.join(dir, 'state', 'writes.json'), 'utf8')) as { arrivals: Record<string, string> };
    expect(Object.keys(state.arrivals).sort()).toEqual(contacts.map((c) => `${ADULT}/${c}`).sort());
  });

  it('answers an unknown patient as not found and refuses ids that are not 12 digits', async () => {
    const ehr = await open();
    await expect(readDocument(ehr, 'journalnotes', '195507142478', {})).rejects.toMatchObject({ failure: 'patient-not-found' });
    await expect(readDocument(ehr, 'journalnotes', '../../etc/x', {})).rejects.toBeInstanceOf(Error);
    await expect(ehr.relationshipsOf('../198112189876')).rejects.toBeInstanceOf(RangeError);
  });

  it('answers a missing document with an empty list', async () => {
    const ehr = await open();
    await rm(path.join(dir, 'ehr', 'patients', ADULT, 'videomeetings.xml'));
    await expect(readDocument(ehr, 'videomeetings', ADULT, {})).resolves.toEqual([]);
  });

  it('issue 13: reads patients/{id}/patient-v2.xml, and answers [] for an absent file or an empty root', async () => {
    const ehr = await open();
    const file = path.join(dir, 'ehr', 'patients', ADULT, 'patient-v2.xml');
    const v2 = await readDocument(ehr, 'patient-v2', ADULT, {});
    expect(v2[0]?.patientEHRExtract[0]?.patient?.patientID?.extension).toBe(ADULT);
    await writeFile(file, '<PatientEHRExtracts xmlns="urn:example:ehr:patient-v2:1"/>');
    await expect(readDocument(ehr, 'patient-v2', ADULT, {})).resolves.toEqual([]);
    await rm(file);
    await expect(readDocument(ehr, 'patient-v2', ADULT, {})).resolves.toEqual([]);
    await expect(readDocument(ehr, 'patient-v2', '195507142478', {})).rejects.toMatchObject({ failure: 'patient-not-found' });
  });

  it('reports a malformed document as a bad upstream answer, without its text', async () => {
    const ehr = await open();
    const file = path.join(dir, 'ehr', 'patients', ADULT, 'contacts.xml');
    await writeFile(file, '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "191212121212">]><ContactEHRExtracts>&a;</ContactEHRExtracts>');
    const err = await readDocument(ehr, 'contacts', ADULT, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EhrError);
    expect(err).toMatchObject({ failure: 'bad-response' });
    expect(String((err as Error).message)).not.toContain(ADULT);
  });

  it('refuses a document that is not UTF-8 rather than show U+FFFD in its place (helper-213, H1)', async () => {
    const ehr = await open();
    const file = path.join(dir, 'ehr', 'patients', ADULT, 'journalnotes.xml');
    const written = await readFile(file);
    expect((await readDocument(ehr, 'journalnotes', ADULT, {})).length).toBeGreaterThan(0);
    // "ä" as Latin-1 writes it, one byte no UTF-8 text holds alone.
    await writeFile(file, Buffer.from(written.toString('utf8').replace('ä', '\u0000'), 'utf8').map((b) => (b === 0 ? 0xe4 : b)));
    await expect(readDocument(ehr, 'journalnotes', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
  });

  it('refuses a document that belongs to another patient', async () => {
    const ehr = await open();
    const other = '198112189876';
    await mkdir(path.join(dir, 'ehr', 'patients', ADULT), { recursive: true });
    const foreign = await readFile(path.join(dir, 'ehr', 'patients', other, 'journalnotes.xml'), 'utf8');
    await writeFile(path.join(dir, 'ehr', 'patients', ADULT, 'journalnotes.xml'), foreign);
    await expect(readDocument(ehr, 'journalnotes', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
  });
});

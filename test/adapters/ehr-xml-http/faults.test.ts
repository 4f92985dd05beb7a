import { readDocument } from '../../support/document-reads.js';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { selectDocument } from '../../support/document-reads.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import type { XmlHttpEhr } from '../../../src/adapters/ehr-xml-http/index.js';
import { ACTOR, ADULT, startSimulatedEhr, timed, ZONE, type SimulatedEhr } from './simulated-ehr.js';
import { expectDeadlineKept, SCHEDULING_SLACK_MS } from '../../support/scheduling.js';
import { AT_ANY_TIME } from '../../../src/domain/writes/arrival-window.js';

/** The deadline of the adapter the timeout tests use (`impatient`): far shorter than the faults they arrange. */
const DEADLINE = 400;

const FAULT_TEXT = /NullPointer|finns inte|Internt fel|<html|Bad Gateway|191212121212|198112189876/i;

describe('XmlHttpEhr against the simulator: every upstream fault', () => {
  let t: SimulatedEhr;
  /**
   * Every call whose outcome is not a timeout goes through an adapter whose deadline leaves a busy machine
   * its scheduling slack: at 400 ms, a write that had to succeed timed out in a full run once, and a bad
   * answer expected as 'bad-response' could have come back as 'timeout' the same way.
   */
  let ehr: XmlHttpEhr;
  /** The timeout tests' adapter: a hang, a late answer and a trickle must end at DEADLINE. */
  let impatient: XmlHttpEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
    ehr = t.adapter({ timeoutMs: DEADLINE + SCHEDULING_SLACK_MS });
    impatient = t.adapter({ timeoutMs: DEADLINE });
  });
  afterEach(() => {
    t.sim.faults.clear();
    t.events.length = 0;
  });
  afterAll(() => t.close());

  const firstContact = async (): Promise<string> =>
    (await readDocument(ehr, 'bookings', ADULT, {})).flatMap((r) => r.Booking ?? [])[0]?.ContactId ?? '';

  /** Runs `call` and checks it failed as `failure` within the deadline, saying nothing it was told upstream. */
  async function expectFailure(call: () => Promise<unknown>, failure: EhrError['failure']): Promise<EhrError> {
    const { ms, error } = await timed(call);
    expect(error).toBeInstanceOf(EhrError);
    expect((error as EhrError).failure).toBe(failure);
    expectDeadlineKept(ms, DEADLINE);
    expect((error as EhrError).message).not.toMatch(FAULT_TEXT);
    for (const event of t.events) expect(JSON.stringify(event)).not.toMatch(FAULT_TEXT);
    return error as EhrError;
  }

  it('reads through the simulator when nothing misbehaves', async () => {
    const notes = await readDocument(ehr, 'journalnotes', ADULT, {});
    expect(notes.flatMap((r) => r.JournalNoteEHRExtract).length).toBeGreaterThan(2);
  });

  it('times out a server that accepts and never answers, for reads and writes alike', async () => {
    t.sim.faults.hang();
    await expectFailure(() => readDocument(impatient, 'contacts', ADULT, {}), 'timeout');
    const before = t.sim.requests;
    await expectFailure(() => impatient.registerArrival(ADULT, '00261121101', AT_ANY_TIME), 'timeout');
    expect(t.sim.requests - before).toBe(1);
  });

  it('waits for a slow answer inside the deadline and gives up on one past it', async () => {
    // An adapter whose deadline leaves a busy machine its scheduling slack: 100 ms late is inside it however slow the run.
    t.sim.faults.delay(100, { times: 1 });
    await expect(readDocument(t.adapter({ timeoutMs: 100 + SCHEDULING_SLACK_MS }), 'attentionsignals', ADULT, {})).resolves.toBeInstanceOf(Array);
    t.sim.faults.delay(DEADLINE * 3, { times: 1 });
    await expectFailure(() => readDocument(impatient, 'attentionsignals', ADULT, {}), 'timeout');
  });

  it('times out a body trickling in steadily, which no idle timeout would catch', async () => {
    t.sim.faults.trickle({ intervalMs: 20, bytesPerInterval: 4 });
    await expectFailure(() => readDocument(impatient, 'journalnotes', ADULT, {}), 'timeout');
  });

  it('retries a read once after a reset, and answers when the retry succeeds', async () => {
    t.sim.faults.reset({ times: 1 });
    const before = t.sim.requests;
    await expect(readDocument(ehr, 'contacts', ADULT, {})).resolves.not.toHaveLength(0);
    expect(t.sim.requests - before).toBe(2);
    expect(t.events).toContainEqual({ type: 'retry', detail: 'GET after a lost connection' });
  });

  it('gives up after exactly one retry when every connection is reset, before or in the middle of the body', async () => {
    for (const fault of ['reset', 'resetMidBody'] as const) {
      t.sim.faults.clear();
      t.sim.faults[fault]();
      const before = t.sim.requests;
      await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
      expect([fault, t.sim.requests - before]).toEqual([fault, 2]);
    }
  });

  it('recovers from one connection cut mid-body by reading again', async () => {
    t.sim.faults.resetMidBody({ times: 1 });
    await expect(readDocument(ehr, 'medications', ADULT, {})).resolves.not.toHaveLength(0);
  });

  it('never retries a write: a reset before the answer is a bad response and the write was not made', async () => {
    const contact = await firstContact();
    t.sim.faults.reset({ times: 1, method: 'PUT' });
    const before = t.sim.requests;
    await expectFailure(() => ehr.registerArrival(ADULT, contact, AT_ANY_TIME), 'bad-response');
    expect(t.sim.requests - before).toBe(1);
    await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' });
  });

  it('does not repeat a write committed before the connection dropped; the next identical call answers INFO', async () => {
    const contacts = (await readDocument(ehr, 'bookings', ADULT, {})).flatMap((r) => r.Booking ?? []).map((b) => b.ContactId);
    const contact = contacts[1] ?? '';
    t.sim.faults.commitThenReset({ times: 1, method: 'PUT' });
    let before = t.sim.requests;
    await expectFailure(() => ehr.registerArrival(ADULT, contact, AT_ANY_TIME), 'bad-response');
    expect(t.sim.requests - before).toBe(1);
    await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_ARRIVED' });

    t.sim.faults.commitThenReset({ times: 1, method: 'POST' });
    before = t.sim.requests;
    await expectFailure(() => ehr.registerPayment(ADULT, contact, 'CARD'), 'bad-response');
    expect(t.sim.requests - before).toBe(1);
    await expect(ehr.registerPayment(ADULT, contact, 'CASH')).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_PAID' });
  });

  it('answers a 5xx Fault or a front proxy HTML page as a bad response, repeating none of it', async () => {
    t.sim.faults.status(500, undefined, undefined, { times: 1 });
    await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
    t.sim.faults.status(502, '<html><body><h1>502 Bad Gateway</h1>191212121212</body></html>', 'text/html', { times: 1 });
    await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
    t.sim.faults.status(504, '', 'text/html', { times: 1 });
    await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
    expect(t.events.filter((e) => e.type === 'upstream-error')).toHaveLength(3);
  });

  it('answers 503 as unavailable, passing on a sane Retry-After and 5 s otherwise', async () => {
    const cases: Array<[string | undefined, number]> = [['7', 7], [undefined, 5], ['Wed, 21 Oct 2026 07:28:00 GMT', 5], ['99999', 5], ['0', 5]];
    for (const [header, expected] of cases) {
      t.sim.faults.clear();
      t.sim.faults.status(503, undefined, undefined, header === undefined ? {} : { retryAfter: header });
      const err = await expectFailure(() => readDocument(ehr, 'contacts', ADULT, {}), 'unavailable');
      expect([header, err.retryAfterSeconds]).toEqual([header, expected]);
    }
  });

  it('refuses empty, non-XML, HTML-as-XML, truncated and encoded 200 answers', async () => {
    const bodies: Array<[string, string | undefined]> = [
      ['', undefined],
      ['<JournalNoteRecords xmlns="urn:example:ehr:journalnote:3"/>', 'text/html; charset=utf-8'],
      ['<JournalNoteRecords xmlns="urn:example:ehr:journalnote:3"/>', 'application/xml; charset=iso-8859-1'],
      ['<!DOCTYPE html><html><body>Maintenance</body></html>', undefined],
      ['<html><body>Underhåll</body></html>', undefined],
    ];
    for (const [body, type] of bodies) {
      t.sim.faults.status(200, body, type, { times: 1 });
      await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
    }
    t.sim.faults.malformed({ times: 1 });
    await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
  });

  it('calls a 200 of nothing but whitespace (a BOM, a no-break space) an empty answer', async () => {
    for (const body of [' \n\t ', '\uFEFF', '\uFEFF \u00a0\n', '\u2028 ']) {
      t.sim.faults.status(200, body, undefined, { times: 1 });
      const err = await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
      expect(err.message).toBe('EHR answer is empty');
    }
    t.sim.faults.status(200, '\u00a0<x/>', undefined, { times: 1 });
    expect((await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response')).message).not.toBe('EHR answer is empty');
  });

  it('reads a journal of a megabyte from its bytes to the same records as the one string', async () => {
    const xml = await readFile(path.join(t.dataDir, 'patients', ADULT, 'journalnotes.xml'), 'utf8');
    const at = xml.lastIndexOf('</JournalNoteRecord>');
    const extracts = xml.slice(xml.indexOf('<JournalNoteEHRExtract>'), at);
    const large = xml.slice(0, at) + extracts.repeat(Math.ceil(1_000_000 / extracts.length)) + xml.slice(at);
    t.sim.faults.status(200, large, undefined, { times: 1 });
    const read = await readDocument(ehr, 'journalnotes', ADULT, {});
    const expected = selectDocument('journalnotes', mapDocument('journalnotes', large, { zone: ZONE, expectedPatientId: ADULT }), {}, ZONE);
    expect(read.flatMap((r) => r.JournalNoteEHRExtract).length).toBeGreaterThan(100);
    expect(read).toEqual(expected);
  });

  it('refuses a redirect to another origin without following it', async () => {
    const elsewhere = await startSimulatedEhr();
    try {
      t.sim.faults.redirect({ location: `${elsewhere.sim.url}/ehr/v1/patients/${ADULT}/journalnotes` });
      await expectFailure(() => readDocument(ehr, 'journalnotes', ADULT, {}), 'bad-response');
      await expectFailure(() => ehr.registerArrival(ADULT, '00261121101', AT_ANY_TIME), 'bad-response');
      expect(elsewhere.sim.requests).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses another patient\'s document, and another actor\'s registry, with an alert', async () => {
    t.sim.faults.swapPatient();
    for (const kind of ['patient', 'journalnotes', 'medications', 'bookings'] as const) {
      await expectFailure(() => readDocument(ehr, kind, ADULT, {}), 'bad-response');
    }
    expect(t.events.filter((e) => e.detail === 'EHR answered a record of another patient')).toHaveLength(4);
    await expectFailure(() => ehr.relationshipsOf(ACTOR), 'bad-response');
  });

  it('answers an upstream 404 PATIENT_NOT_FOUND as an unknown patient, and any other 404 as a bad response', async () => {
    await expectFailure(() => readDocument(ehr, 'contacts', '195507142478', {}), 'patient-not-found');
    await expectFailure(() => ehr.registerArrival('195507142478', '00261121101', AT_ANY_TIME), 'patient-not-found');
    t.sim.faults.status(404, '<html>Not Found</html>', 'text/html', { times: 1 });
    await expectFailure(() => readDocument(ehr, 'contacts', ADULT, {}), 'bad-response');
    // Relationships are no /patients/ path: a PATIENT_NOT_FOUND there is not about the patient.
    t.sim.faults.status(404, undefined, undefined, { times: 1 });
    await expectFailure(() => ehr.relationshipsOf(ACTOR), 'bad-response');
    t.sim.faults.status(400, undefined, undefined, { times: 1 });
    await expectFailure(() => readDocument(ehr, 'contacts', ADULT, {}), 'bad-response');
  });

  it('issue 38: answers a refused connection as an EHR that could not be reached, after one retry, inside the deadline', async () => {
    const gone = await startSimulatedEhr();
    const url = gone.sim.url;
    await gone.close();
    const lost = t.adapter({ baseUrl: url, timeoutMs: DEADLINE + SCHEDULING_SLACK_MS });
    const error = await expectFailure(() => readDocument(lost, 'contacts', ADULT, {}), 'unreachable');
    expect(error.message).toBe('EHR could not be reached (ECONNREFUSED)');
    expect(t.events.filter((e) => e.type === 'retry')).toHaveLength(1);
    // A write is never sent twice, and is told the same.
    await expectFailure(() => lost.registerArrival(ADULT, '00261121101', AT_ANY_TIME), 'unreachable');
  });

  it('issue 38: a host name that does not resolve, and a connection that never completes, could not be reached either', async () => {
    const nowhere = t.adapter({ baseUrl: 'http://ehr.invalid:8090', timeoutMs: DEADLINE + SCHEDULING_SLACK_MS });
    expect((await expectFailure(() => readDocument(nowhere, 'contacts', ADULT, {}), 'unreachable')).message).toMatch(/^EHR could not be reached \((ENOTFOUND|EAI_AGAIN)\)$/);
    // Takes the TCP connection and never answers the TLS handshake: no connection is made within the deadline.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const handshake = t.adapter({ baseUrl: `https://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: DEADLINE });
      const error = await expectFailure(() => readDocument(handshake, 'contacts', ADULT, {}), 'unreachable');
      expect(error.message).toBe('EHR could not be reached: no connection within the deadline');
    } finally {
      silent.close();
    }
  });

  it('never sends a crafted id to the EHR', async () => {
    const before = t.sim.requests;
    for (const id of ['../191212121212', '19121212121', '1912121212120', '191212121212/../x', '19121212121%', ' 191212121212']) {
      await expect(readDocument(ehr, 'journalnotes', id, {})).rejects.toMatchObject({ failure: 'patient-not-found' });
      await expect(ehr.registerArrival(id, '00261121101', AT_ANY_TIME)).rejects.toMatchObject({ failure: 'patient-not-found' });
      await expect(ehr.relationshipsOf(id)).rejects.toBeInstanceOf(RangeError);
    }
    for (const contact of ['..', '.', '../x', 'a/b', 'a%2Fb', '', 'x'.repeat(65), 'a b', 'a?b=1', 'å']) {
      await expect(ehr.registerArrival(ADULT, contact, AT_ANY_TIME)).resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' });
      await expect(ehr.registerPayment(ADULT, contact, 'CARD')).resolves.toEqual({ resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' });
    }
    await expect(readDocument(ehr, 'contacts', ADULT, { from: '2026-01-01T00:00:00' })).rejects.toBeInstanceOf(RangeError);
    await expect(readDocument(ehr, 'contacts', ADULT, { from: '20260101000000&to=1' })).rejects.toBeInstanceOf(RangeError);
    await expect(readDocument(ehr, 'contacts', ADULT, { from: '20260201000000', to: '20260101000000' })).rejects.toBeInstanceOf(RangeError);
    expect(t.sim.requests).toBe(before);
  });
});

import { readDocument } from '../../support/document-reads.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR, ADULT, UNKNOWN, startSimulatedEhr, timed, type SimulatedEhr } from './simulated-ehr.js';
import { AT_ANY_TIME } from '../../../src/domain/writes/arrival-window.js';

/** A known patient other than ADULT. */
const OTHER_PATIENT = '198112189876';

describe('XmlHttpEhr circuit breaker against the simulator', () => {
  let t: SimulatedEhr;
  let now = 0;
  beforeAll(async () => {
    t = await startSimulatedEhr();
  });
  afterEach(() => {
    t.sim.faults.clear();
    t.events.length = 0;
  });
  afterAll(() => t.close());

  const adapter = (failureThreshold = 3) => t.adapter({ timeoutMs: 300, breaker: { failureThreshold, openMs: 10_000 }, now: () => now });

  it('opens after N failures, then answers 503-style without touching the network until a probe succeeds', async () => {
    now = 1_000_000;
    const ehr = adapter(3);
    t.sim.faults.status(500);
    for (let i = 0; i < 3; i++) await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    expect(t.events).toContainEqual({ type: 'breaker-open', detail: '3 consecutive failures' });

    const before = t.sim.requests;
    const calls: Array<() => Promise<unknown>> = [
      () => readDocument(ehr, 'journalnotes', ADULT, {}), () => ehr.relationshipsOf(ACTOR),
      () => ehr.registerArrival(ADULT, '00261121101', AT_ANY_TIME), () => ehr.registerPayment(ADULT, '00261121101', 'CARD'),
    ];
    for (const call of calls) {
      // Refused without a request: the simulator's count below stays where it was.
      const { error } = await timed(call);
      expect(error).toMatchObject({ failure: 'unavailable', retryAfterSeconds: 10 });
    }
    expect(t.sim.requests).toBe(before);
    now += 6_000;
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'unavailable', retryAfterSeconds: 4 });
    expect(t.sim.requests).toBe(before);

    // The EHR is back; after openMs one probe goes through and closes the breaker.
    t.sim.faults.clear();
    now += 4_000;
    await expect(readDocument(ehr, 'contacts', ADULT, {})).resolves.not.toHaveLength(0);
    expect(t.sim.requests).toBe(before + 1);
    expect(t.events).toContainEqual({ type: 'breaker-closed', detail: 'probe succeeded' });
    await expect(readDocument(ehr, 'journalnotes', ADULT, {})).resolves.not.toHaveLength(0);
  });

  it('re-opens when the probe fails, with one request spent on it', async () => {
    now = 2_000_000;
    const ehr = adapter(2);
    t.sim.faults.hang();
    for (let i = 0; i < 2; i++) await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'timeout' });
    now += 10_000;
    const before = t.sim.requests;
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'timeout' });
    expect(t.sim.requests).toBe(before + 1);
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'unavailable', retryAfterSeconds: 10 });
    expect(t.events.filter((e) => e.type === 'breaker-open').map((e) => e.detail)).toEqual(['2 consecutive failures', 'probe failed']);
  });

  it('counts resets, 5xx and 503s, one call each', async () => {
    now = 3_000_000;
    const ehr = t.adapter({ timeoutMs: 300, breaker: { failureThreshold: 5, openMs: 10_000 }, now: () => now });
    // A read is sent again once after a lost connection: two resets are one failed read.
    t.sim.faults.reset({ times: 4 });
    t.sim.faults.status(500, undefined, undefined, { times: 1 });
    t.sim.faults.status(502, '<html>bad gateway</html>', 'text/html', { times: 1 });
    t.sim.faults.status(503, undefined, undefined, { times: 1 });
    for (const failure of ['bad-response', 'bad-response', 'bad-response', 'bad-response', 'unavailable']) {
      await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure });
    }
    const before = t.sim.requests;
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'unavailable', message: 'EHR circuit breaker is open' });
    expect(t.sim.requests).toBe(before);
  });

  it('issue 12 item 3: never opens on document faults (malformed, oversized, not XML, a redirect, another patient\'s record), however many in a row', async () => {
    now = 3_500_000;
    const ehr = t.adapter({ timeoutMs: 300, breaker: { failureThreshold: 2, openMs: 10_000 }, now: () => now, maxBodyBytes: 64 * 1024 });
    const faults: Array<() => void> = [
      () => t.sim.faults.malformed({ times: 3 }),
      () => t.sim.faults.oversized(1024 * 1024, { times: 3 }),
      () => t.sim.faults.oversized(1024 * 1024, { times: 3, declareLength: true }),
      () => t.sim.faults.status(200, '<html>maintenance</html>', 'text/html', { times: 3 }),
      () => t.sim.faults.redirect({ times: 3 }),
    ];
    for (const arrange of faults) {
      arrange();
      for (let i = 0; i < 3; i++) await expect(readDocument(ehr, 'videomeetings', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
      t.sim.faults.clear();
    }
    const patient = await (await fetch(`${t.sim.url}/ehr/v1/patients/${ADULT}/patient`)).text();
    t.sim.faults.status(200, patient, 'application/xml; charset=utf-8', { times: 3 });
    for (let i = 0; i < 3; i++) {
      await expect(readDocument(ehr, 'patient', OTHER_PATIENT, {})).rejects.toMatchObject({ message: 'EHR answered a record of another patient' });
    }
    expect(t.events.filter((e) => e.type === 'breaker-open')).toEqual([]);
    await expect(readDocument(ehr, 'videomeetings', ADULT, {})).resolves.not.toHaveLength(0);
  });

  it('never opens on unknown patients or on requests the EHR refuses as bad', async () => {
    now = 4_000_000;
    const ehr = adapter(2);
    for (let i = 0; i < 4; i++) await expect(readDocument(ehr, 'contacts', UNKNOWN, {})).rejects.toMatchObject({ failure: 'patient-not-found' });
    t.sim.faults.status(400, undefined, undefined, { times: 3 });
    for (let i = 0; i < 3; i++) await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    await expect(readDocument(ehr, 'contacts', ADULT, {})).resolves.not.toHaveLength(0);
    expect(t.events.filter((e) => e.type === 'breaker-open')).toHaveLength(0);
  });

  it('pings past an open breaker, and the ping neither closes nor opens it', async () => {
    now = 5_000_000;
    const ehr = adapter(1);
    t.sim.faults.status(500, undefined, undefined, { times: 1 });
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    await expect(ehr.ping()).resolves.toBe(true);
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'unavailable' });

    const fresh = adapter(1);
    t.sim.faults.hang({ times: 1 });
    await expect(fresh.ping()).resolves.toBe(false);
    await expect(readDocument(fresh, 'contacts', ADULT, {})).resolves.not.toHaveLength(0);
  });

  it('pings as down on a front proxy error page, a 5xx or a lost connection, and as up on a Fault from the EHR', async () => {
    const ehr = adapter(1);
    const cases: Array<[() => void, boolean]> = [
      [() => t.sim.faults.status(503, '<html>down</html>', 'text/html', { times: 1 }), false],
      [() => t.sim.faults.status(500, undefined, undefined, { times: 1 }), false],
      [() => t.sim.faults.reset({ times: 1 }), false],
      [() => t.sim.faults.status(400, undefined, undefined, { times: 1 }), true],
      [() => undefined, true],
    ];
    for (const [arrange, up] of cases) {
      t.sim.faults.clear();
      arrange();
      await expect(ehr.ping()).resolves.toBe(up);
    }
  });

  it('never counts a timeout of a read that had only part of the deadline left after waiting its turn', async () => {
    now = 9_000_000;
    const ehr = adapter(2);
    t.sim.faults.hang();
    const staying = new AbortController().signal;
    const subject = { read: 'getContacts', patientId: ADULT } as const;
    // Each read waits 200 of its 300 ms for its turn, behind two answers of its record that hold it that long.
    const late = () => {
      for (let i = 0; i < 2; i++) void ehr.answerMemory.answering(subject, staying, () => new Promise((resolve) => setTimeout(resolve, 200)));
      return ehr.answerMemory.answering(subject, staying, () => readDocument(ehr, 'contacts', ADULT, {}));
    };
    for (let i = 0; i < 3; i++) await expect(late()).rejects.toMatchObject({ failure: 'timeout' });
    expect(t.events.filter((e) => e.type === 'breaker-open')).toEqual([]);
    // A read given the whole deadline still counts: two of them open it.
    for (let i = 0; i < 2; i++) await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'timeout' });
    expect(t.events).toContainEqual({ type: 'breaker-open', detail: '2 consecutive failures' });
  });

  it('counts the timeouts of reads made for an answer that had its turn at once, as any other', async () => {
    now = 10_000_000;
    const ehr = adapter(2);
    t.sim.faults.hang();
    const staying = new AbortController().signal;
    for (let i = 0; i < 2; i++) {
      await expect(ehr.answerMemory.answering({ read: 'getContacts', patientId: ADULT }, staying, () => readDocument(ehr, 'contacts', ADULT, {})))
        .rejects.toMatchObject({ failure: 'timeout' });
    }
    expect(t.events).toContainEqual({ type: 'breaker-open', detail: '2 consecutive failures' });
  });
});
